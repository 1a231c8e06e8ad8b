/** The buyer dashboard's API (spec §7; PRODUCT.md D2, D5, D6): signed-in users only, their own data only. */
import { Hono } from "hono";
import { CALL_TRANSFER_UNIT_CENTS, dollarsToCents, formatUsd, quoteCallTransfer } from "../../src/domain/pricing";
import {
  agedLeadsQuerySchema,
  bulkPurchaseSchema,
  callTransferOrderSchema,
  pageQuerySchema,
  parseStates,
} from "../../src/domain/schemas/dashboard";
import type { AppBindings } from "../env";
import { errorJson } from "../http";
import { requireBuyer } from "../middleware/auth";
import { clientAddress, rateLimit } from "../middleware/rate-limit";
import { listAvailableLeads, listOwnedLeads, myLeadsCsv } from "../services/lead-listing";
import { purchaseAgedLeads } from "../services/lead-purchases";
import { startPayment } from "../services/orders";
import { paymentProvider } from "../services/payments/provider";
import { validate, validateJson } from "../validation";

function signedInUser(c: { get(key: "user"): AppBindings["Variables"]["user"] }) {
  const user = c.get("user");
  if (!user) throw new Error("requireBuyer must run first");
  return user;
}

export const buyer = new Hono<AppBindings>()
  .use("/aged-leads", requireBuyer)
  .use("/bulk-purchase-leads", requireBuyer)
  .use("/my-leads", requireBuyer)
  .use("/my-leads.csv", requireBuyer)
  .use("/my-orders", requireBuyer)
  .use("/call-transfer-order", requireBuyer)
  .get("/aged-leads", validate("query", agedLeadsQuerySchema), async (c) => {
    const { page, location } = c.req.valid("query");
    return c.json(await listAvailableLeads(c.env.DB, page, location));
  })
  .post(
    "/bulk-purchase-leads",
    rateLimit("reservation", (c) => c.get("user")?.id ?? clientAddress(c)),
    validateJson(bulkPurchaseSchema),
    async (c) => {
      const provider = paymentProvider(c.env, c.req.url);
      return c.json(await purchaseAgedLeads(c.env, provider, signedInUser(c), c.req.valid("json").leadIds));
    },
  )
  .get("/my-leads", validate("query", pageQuerySchema), async (c) =>
    c.json(await listOwnedLeads(c.env.DB, signedInUser(c).id, c.req.valid("query").page)),
  )
  .get("/my-leads.csv", (c) => {
    c.header("Content-Type", "text/csv; charset=utf-8");
    c.header("Content-Disposition", 'attachment; filename="my-leads.csv"');
    return c.body(myLeadsCsv(c.env.DB, signedInUser(c).id));
  })
  .get("/my-orders", async (c) => {
    const { results } = await c.env.DB.prepare(
      `SELECT id, kind, tier, quantity, total_cents, status, created_at, paid_at FROM orders
       WHERE user_id = ? ORDER BY created_at DESC LIMIT 200`,
    )
      .bind(signedInUser(c).id)
      .all<{
        id: string;
        kind: string;
        tier: string | null;
        quantity: number;
        total_cents: number;
        status: string;
        created_at: number;
        paid_at: number | null;
      }>();
    return c.json(
      results.map((order) => ({
        id: order.id,
        kind: order.kind,
        tier: order.tier,
        quantity: order.quantity,
        totalCents: order.total_cents,
        status: order.status,
        createdAt: new Date(order.created_at).toISOString(),
        paidAt: order.paid_at === null ? null : new Date(order.paid_at).toISOString(),
      })),
    );
  })
  .post("/call-transfer-order", validateJson(callTransferOrderSchema), async (c) => {
    const user = signedInUser(c);
    const { price, leadType, ...form } = c.req.valid("json");
    const quote = quoteCallTransfer(form.totalTransfers);
    if (!quote.ok) return errorJson(c, 400, quote.message);
    const sentCents = dollarsToCents(price);
    if (sentCents !== quote.totalCents && sentCents !== CALL_TRANSFER_UNIT_CENTS) {
      return errorJson(c, 400, `The price does not match this order (${formatUsd(quote.totalCents)}).`);
    }
    return c.json(
      await startPayment(c.env, paymentProvider(c.env, c.req.url), {
        kind: "transfer",
        tier: null,
        quote,
        userId: user.id,
        email: user.email,
        details: {
          ...form,
          leadType,
          selectedStates: parseStates(form.workingStates),
          firstName: user.firstName,
          lastName: user.lastName,
          phone: user.phone,
        },
      }),
    );
  });
