/** The buyer dashboard's API (spec §7; PRODUCT.md D2, D5, D6): signed-in users only, their own data only. */
import { Hono } from "hono";
import { CALL_TRANSFER_UNIT_CENTS, dollarsToCents, formatUsd, quoteCallTransfer } from "../../src/domain/pricing";
import {
  agedLeadsQuerySchema,
  bulkPurchaseSchema,
  callTransferOrderSchema,
  parseStates,
} from "../../src/domain/schemas/dashboard";
import type { AppBindings } from "../env";
import { errorJson } from "../http";
import { requireBuyer } from "../middleware/auth";
import { listAvailableLeads, listOwnedLeads, releaseLeads, reserveLeads } from "../services/leads";
import { startPayment } from "../services/orders";
import { PaymentsUnavailableError } from "../services/payments/provider";
import { validate, validateJson } from "../validation";

const csvCell = (value: string | null) => {
  const text = value ?? "";
  // Quote every cell; a leading =, +, - or @ would run as a formula in spreadsheets.
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return `"${safe.replaceAll('"', '""')}"`;
};

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
  .post("/bulk-purchase-leads", validateJson(bulkPurchaseSchema), async (c) => {
    const user = signedInUser(c);
    const orderId = crypto.randomUUID();
    const reservation = await reserveLeads(c.env.DB, orderId, c.req.valid("json").leadIds);
    if (!reservation.ok) {
      return c.json({ message: reservation.message, unavailable: reservation.unavailable }, reservation.status);
    }
    const totalCents = reservation.prices.reduce((sum, lead) => sum + lead.priceCents, 0);
    const count = reservation.prices.length;
    try {
      const payment = await startPayment(c.env, {
        id: orderId,
        kind: "aged-leads",
        tier: null,
        quote: { ok: true, quantity: count, unitCents: Math.round(totalCents / count), totalCents },
        userId: user.id,
        email: user.email,
        details: { leadIds: reservation.prices.map((lead) => lead.id), prices: reservation.prices },
      });
      return c.json({ ...payment, count });
    } catch (error) {
      await releaseLeads(c.env.DB, orderId);
      if (error instanceof PaymentsUnavailableError) return errorJson(c, 503, error.message);
      throw error;
    }
  })
  .get("/my-leads", async (c) => c.json(await listOwnedLeads(c.env.DB, signedInUser(c).id)))
  .get("/my-leads.csv", async (c) => {
    const leads = await listOwnedLeads(c.env.DB, signedInUser(c).id);
    const header = ["Name", "Phone", "Email", "State", "Form fill time", "Purchased at", "Order"];
    const lines = leads.map((lead) =>
      [lead.name, lead.phone, lead.email, lead.state, lead.formFillTime, lead.purchasedAt, lead.orderId]
        .map(csvCell)
        .join(","),
    );
    c.header("Content-Type", "text/csv; charset=utf-8");
    c.header("Content-Disposition", 'attachment; filename="my-leads.csv"');
    return c.body([header.join(","), ...lines].join("\r\n"));
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
    try {
      const payment = await startPayment(c.env, {
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
      });
      return c.json(payment);
    } catch (error) {
      if (error instanceof PaymentsUnavailableError) return errorJson(c, 503, error.message);
      throw error;
    }
  });
