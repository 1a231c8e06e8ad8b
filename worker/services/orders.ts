/**
 * Orders (PRODUCT.md D2): created `pending` with their payment intent, `paid` only on the provider's own
 * confirmation, each provider event processed once.
 */
import { site } from "../../src/config/site";
import { CURRENCY, formatUsd, type Quote } from "../../src/domain/pricing";
import type { PaymentStart } from "../../src/domain/schemas/payments";
import type { OrderKind } from "../db/schema";
import type { Env } from "../env";
import { prepareDelivery } from "./delivery-setup";
import { sellReservedLeads } from "./leads";
import { sendMail } from "./mail";
import { type PaymentEvent, paymentProvider } from "./payments/provider";

type PricedQuote = Extract<Quote, { ok: true }>;

export interface NewOrder {
  /** Given when something (a lead reservation) must point at the order before it exists. */
  id?: string;
  kind: OrderKind;
  tier: string | null;
  quote: PricedQuote;
  userId: string | null;
  email: string | null;
  details: Record<string, unknown>;
}

/** Creates the provider's intent and the pending order that owns it. */
export async function startPayment(env: Env, order: NewOrder): Promise<PaymentStart> {
  const provider = paymentProvider(env);
  const orderId = order.id ?? crypto.randomUUID();
  const intent = await provider.createIntent({
    amountCents: order.quote.totalCents,
    currency: CURRENCY,
    orderId,
    email: order.email,
  });
  await env.DB.prepare(
    `INSERT INTO orders (id, kind, tier, quantity, unit_price_cents, total_cents, currency, user_id, email, details, payment_intent_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(
      orderId,
      order.kind,
      order.tier,
      order.quote.quantity,
      order.quote.unitCents,
      order.quote.totalCents,
      CURRENCY,
      order.userId,
      order.email,
      JSON.stringify(order.details),
      intent.id,
    )
    .run();
  return {
    clientSecret: intent.clientSecret,
    orderId,
    amount: order.quote.totalCents,
    currency: CURRENCY,
    provider: provider.name,
    ...(provider.publishableKey ? { publishableKey: provider.publishableKey } : {}),
  };
}

interface PaidOrder {
  id: string;
  kind: OrderKind;
  user_id: string | null;
  email: string | null;
  quantity: number;
  total_cents: number;
  details: string;
}

async function fulfilAgedLeads(db: D1Database, order: PaidOrder): Promise<void> {
  const { leadIds = [] } = JSON.parse(order.details) as { leadIds?: string[] };
  const sold = await sellReservedLeads(db, { id: order.id, userId: order.user_id, leadIds });
  if (sold < leadIds.length) {
    // Paid for leads another buyer took after this reservation ran out: flag the order for a refund.
    console.error(`Order ${order.id}: ${leadIds.length - sold} paid leads could not be assigned`);
    await db
      .prepare("UPDATE orders SET payment_error = ? WHERE id = ?")
      .bind(`${leadIds.length - sold} of ${leadIds.length} leads were no longer available; refund due`, order.id)
      .run();
  }
}

async function sendOrderConfirmation(
  env: Env,
  order: { id: string; email: string; quantity: number; total_cents: number },
) {
  try {
    await sendMail(env, {
      to: order.email,
      subject: "Your order is confirmed",
      text: [
        "Thank you for your purchase!",
        "",
        `Order ${order.id}`,
        `Quantity: ${order.quantity}`,
        `Total paid: ${formatUsd(order.total_cents)}`,
        "",
        `We will call you ${site.supportWindow} to set up delivery. Questions: ${site.supportEmail}.`,
      ].join("\n"),
    });
  } catch (error) {
    // The payment stands even when the e-mail cannot be sent; the outbox keeps the message.
    console.error("Order confirmation e-mail failed", error);
  }
}

export type EventOutcome = "processed" | "duplicate";

/**
 * Applies a provider event to its order exactly once, whichever way it arrived (webhook or simulated).
 * `origin` is where e-mailed links (delivery setup) point.
 */
export async function processPaymentEvent(env: Env, event: PaymentEvent, origin: string): Promise<EventOutcome> {
  const db = env.DB;
  const recorded = await db
    .prepare("INSERT INTO payment_events (id, type, payment_intent_id) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING")
    .bind(event.id, event.type, event.paymentIntentId)
    .run();
  if (recorded.meta.changes === 0) return "duplicate";

  const now = Date.now();
  if (event.type === "payment_intent.succeeded") {
    const paid = await db
      .prepare(
        `UPDATE orders SET status = 'paid', paid_at = ?1, payment_error = NULL, updated_at = ?1
         WHERE payment_intent_id = ?2 AND status = 'pending'
         RETURNING id, kind, user_id, email, quantity, total_cents, details`,
      )
      .bind(now, event.paymentIntentId)
      .first<PaidOrder>();
    if (paid?.kind === "aged-leads") await fulfilAgedLeads(db, paid);
    if (paid?.email) await sendOrderConfirmation(env, { ...paid, email: paid.email });
    if (paid) {
      // After the confirmation: an order still missing its delivery settings e-mails the setup link next.
      const details = JSON.parse(paid.details) as Record<string, unknown>;
      await prepareDelivery(env, { ...paid, userId: paid.user_id, details }, origin);
    }
  } else {
    // A failure only matters while the order still waits for its money (events may arrive out of order).
    await db
      .prepare(
        "UPDATE orders SET payment_error = ?1, updated_at = ?2 WHERE payment_intent_id = ?3 AND status = 'pending'",
      )
      .bind(event.failureMessage ?? "Payment failed", now, event.paymentIntentId)
      .run();
  }
  return "processed";
}
