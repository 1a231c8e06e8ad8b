/**
 * The Lead Tracker's orders: the signed-in buyer's live-transfer orders and pause/resume (live-transfer
 * delivery's). The transfers listed beside them: worker/features/returns/routes/tracker.ts.
 */
import { Hono } from "hono";
import { resumeDeliveriesSchema } from "../../../../src/features/transfers/schemas/delivery-pauses";
import type { SignedInBindings } from "../../../env";
import { validateJson } from "../../../validation";
import { pauseDeliveries, resumeDeliveries } from "../delivery-pauses";
import { listTrackerOrders } from "../tracker";

/** Mounted in the buyer sub-app (worker/api.ts). */
export const tracker = new Hono<SignedInBindings>()
  .get("/tracker/orders", async (c) => c.json(await listTrackerOrders(c.var.deps, c.get("user").id)))
  .post("/tracker/orders/:orderId/pause", async (c) =>
    c.json(await pauseDeliveries(c.var.deps, c.get("user").id, c.req.param("orderId"))),
  )
  // A bare request resumes the buyer's own pause; a system pause needs `{ transferPhone }` (409 says so).
  .post("/tracker/orders/:orderId/resume", validateJson(resumeDeliveriesSchema), async (c) =>
    c.json(await resumeDeliveries(c.var.deps, c.get("user").id, c.req.param("orderId"), c.req.valid("json"))),
  );
