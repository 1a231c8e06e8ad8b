/** Aged leads, buyer side (product rules 8, 12, 14): the marketplace, buying a selection, and My Leads. */
import { Hono } from "hono";
import { pageQuerySchema } from "../../../../src/domain/schemas/common";
import { agedLeadsQuerySchema, bulkPurchaseSchema } from "../../../../src/domain/schemas/dashboard";
import type { SignedInBindings } from "../../../env";
import { clientAddress, rateLimit } from "../../../middleware/rate-limit";
import { validate, validateJson } from "../../../validation";
import { paymentProvider } from "../../orders/index";
import { listAvailableLeads } from "../lead-listing";
import { purchaseAgedLeads } from "../lead-purchases";
import { listOwnedLeads, myLeadsCsv } from "../owned-leads";

/** Mounted in the buyer sub-app (worker/api.ts). */
export const buyerLeads = new Hono<SignedInBindings>()
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
  });
