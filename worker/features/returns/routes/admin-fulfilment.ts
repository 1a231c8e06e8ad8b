/**
 * The admin's Fulfilment tab: open orders, partners, call-back and bundle orders with the waiting
 * call-backs (placed by hand here: docs/decisions/0063), and the returns queue. Admins only.
 */
import { Hono } from "hono";
import { assignCallbackSchema } from "../../../../src/features/callbacks/index";
import { adminReturnsQuerySchema, returnDecisionSchema } from "../../../../src/features/returns/schemas/returns";
import type { SignedInBindings } from "../../../env";
import { siteOrigin } from "../../../services/mail";
import { validate, validateJson } from "../../../validation";
import { assignCallback, callbackFulfilment } from "../../callbacks/index";
import { liftSystemPause } from "../../transfers/index";
import { fulfilmentOverview } from "../fulfilment";
import { decideReturn, listAdminReturns } from "../returns";

/** Mounted in the admin sub-app (worker/api.ts). */
export const adminFulfilment = new Hono<SignedInBindings>()
  .get("/admin/fulfilment", async (c) => c.json(await fulfilmentOverview(c.var.deps)))
  .get("/admin/fulfilment/callbacks", async (c) => c.json(await callbackFulfilment(c.var.deps)))
  .post("/admin/callbacks/:id/assign", validateJson(assignCallbackSchema), async (c) =>
    c.json(await assignCallback(c.var.deps, c.get("user").id, c.req.param("id"), c.req.valid("json").orderId)),
  )
  // Lifts a pause the system set (the only way once it needs an admin: decision 0027).
  .post("/admin/orders/:orderId/lift-pause", async (c) =>
    c.json(await liftSystemPause(c.var.deps, c.get("user").id, c.req.param("orderId"))),
  )
  .get("/admin/returns", validate("query", adminReturnsQuerySchema), async (c) =>
    c.json(await listAdminReturns(c.var.deps, c.req.valid("query").status)),
  )
  .post("/admin/returns/:id/decision", validateJson(returnDecisionSchema), async (c) => {
    return c.json(
      await decideReturn(c.var.deps, c.get("user").id, c.req.param("id"), c.req.valid("json"), {
        siteOrigin: siteOrigin(c.var.deps, c.req.url),
      }),
    );
  });
