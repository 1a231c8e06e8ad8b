/** The buyer dashboard's API (product rules 8, 12, 14, 28): signed-in users only, their own data only. */
import { Hono } from "hono";
import { pageQuerySchema } from "../../src/domain/schemas/common";
import { agedLeadsQuerySchema, bulkPurchaseSchema, callTransferOrderSchema } from "../../src/domain/schemas/dashboard";
import type { SignedInBindings } from "../env";
import { listAvailableLeads } from "../features/aged-leads/lead-listing";
import { purchaseAgedLeads } from "../features/aged-leads/lead-purchases";
import { listOwnedLeads, myLeadsCsv } from "../features/aged-leads/owned-leads";
import { listBuyerOrders, resumeOrderPayment, startCallTransferOrder } from "../features/orders/buyer-orders";
import { paymentProvider } from "../features/orders/payments/provider";
import { clientAddress, rateLimit } from "../middleware/rate-limit";
import { validate, validateJson } from "../validation";

/** Mounted in the buyer sub-app (worker/api.ts). */
export const buyer = new Hono<SignedInBindings>()
  .get("/aged-leads", validate("query", agedLeadsQuerySchema), async (c) => {
    const { page, location, certified, callable } = c.req.valid("query");
    return c.json(await listAvailableLeads(c.var.deps, page, location, certified, callable));
  })
  .post(
    "/bulk-purchase-leads",
    rateLimit("reservation", (c) => c.get("user")?.id ?? clientAddress(c)),
    validateJson(bulkPurchaseSchema),
    async (c) => {
      const provider = paymentProvider(c.var.deps, c.req.url);
      return c.json(await purchaseAgedLeads(c.var.deps, provider, c.get("user"), c.req.valid("json").leadIds));
    },
  )
  .get("/my-leads", validate("query", pageQuerySchema), async (c) =>
    c.json(await listOwnedLeads(c.var.deps, c.get("user").id, c.req.valid("query").page)),
  )
  .get("/my-leads.csv", (c) => {
    c.header("Content-Type", "text/csv; charset=utf-8");
    c.header("Content-Disposition", 'attachment; filename="my-leads.csv"');
    return c.body(myLeadsCsv(c.var.deps, c.get("user").id));
  })
  .get("/my-orders", async (c) => c.json(await listBuyerOrders(c.var.deps, c.get("user").id)))
  // 'Pay now': the buyer's own pending order, on the payment intent it already has.
  .post("/my-orders/:orderId/payment", async (c) =>
    c.json(await resumeOrderPayment(c.var.deps, c.get("user").id, c.req.param("orderId"))),
  )
  .post("/call-transfer-order", validateJson(callTransferOrderSchema), async (c) => {
    const provider = paymentProvider(c.var.deps, c.req.url);
    return c.json(await startCallTransferOrder(c.var.deps, provider, c.get("user"), c.req.valid("json")));
  });
