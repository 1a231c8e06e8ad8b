/** The Lead Tracker's API: the signed-in buyer's transfers, orders and pause/resume. */
import { Hono } from "hono";
import { trackerQuerySchema } from "../../src/features/returns/schemas/returns";
import { resumeDeliveriesSchema } from "../../src/features/transfers/schemas/delivery-pauses";
import type { SignedInBindings } from "../env";
import { pauseDeliveries, resumeDeliveries } from "../features/transfers/delivery-pauses";
import { listTrackerOrders, listTrackerTransfers, trackerCsv } from "../services/tracker";
import { validate, validateJson } from "../validation";

/** Mounted in the buyer sub-app (worker/api.ts). */
export const tracker = new Hono<SignedInBindings>()
  .get("/tracker/transfers", validate("query", trackerQuerySchema), async (c) =>
    c.json(await listTrackerTransfers(c.var.deps, c.get("user").id, c.req.valid("query"))),
  )
  .get("/tracker/transfers.csv", validate("query", trackerQuerySchema), async (c) => {
    const { page: _page, ...filters } = c.req.valid("query");
    const body = await trackerCsv(c.var.deps, c.get("user").id, filters);
    c.header("Content-Type", "text/csv; charset=utf-8");
    c.header("Content-Disposition", 'attachment; filename="lead-tracker.csv"');
    return c.body(body);
  })
  .get("/tracker/orders", async (c) => c.json(await listTrackerOrders(c.var.deps, c.get("user").id)))
  .post("/tracker/orders/:orderId/pause", async (c) =>
    c.json(await pauseDeliveries(c.var.deps, c.get("user").id, c.req.param("orderId"))),
  )
  // A bare request resumes the buyer's own pause; a system pause needs `{ transferPhone }` (409 says so).
  .post("/tracker/orders/:orderId/resume", validateJson(resumeDeliveriesSchema), async (c) =>
    c.json(await resumeDeliveries(c.var.deps, c.get("user").id, c.req.param("orderId"), c.req.valid("json"))),
  );
