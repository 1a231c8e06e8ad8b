/**
 * Orders (product rule 8): created `pending` with their payment intent, `paid` only on the provider's own
 * confirmation of the right amount, each provider event processed once and in one transaction with what
 * it changes; refunds and disputes follow the provider's events.
 */
import { and, eq, inArray, lt, ne, sql } from "drizzle-orm";
import { formatUsd } from "../../../src/domain/format";
import { RESERVATION_MINUTES } from "../../../src/domain/schemas/dashboard";
import type { PaymentStart } from "../../../src/domain/schemas/payments";
import { CURRENCY } from "../../../src/features/orders/pricing";
import type { Database } from "../../db/client";
import { orders, paymentEvents } from "../../db/schema";
import type { Deps } from "../../deps";
import { sha256Hex } from "../../services/digest";
import { emails } from "../../services/email-templates";
import { sendMail } from "../../services/mail";
import { orderPaidFacts, webhookRecording } from "../webhook-outbox/index";
import { refundBalanceStatement } from "./balance";
import { refundNotCharged } from "./not-charged";
import { type NewOrder, type Order, orderProducts, type PaymentSale } from "./order-products";
import { type PaymentEvent, type PaymentProvider, providerOfIntent } from "./payments/provider";

/** The amount the card pays for an order: its total less what the balance paid. */
export const cardAmountCents = (order: Pick<Order, "totalCents" | "balanceAppliedCents">) =>
  order.totalCents - order.balanceAppliedCents;

/** The payment "intent" of an order the balance paid in full: no provider is involved. */
export const BALANCE_INTENT_PREFIX = "balance_";

/**
 * Creates the provider's intent and the pending order that owns it. An order the balance pays in full
 * gets no intent: it is confirmed at once through the same path as a provider's event.
 */
export async function startPayment(deps: Deps, provider: PaymentProvider, order: NewOrder): Promise<PaymentStart> {
  const orderId = order.id ?? crypto.randomUUID();
  const balanceAppliedCents = order.balanceAppliedCents ?? 0;
  const amountCents = order.quote.totalCents - balanceAppliedCents;
  const intent =
    amountCents > 0
      ? await provider.createIntent({
          amountCents,
          currency: CURRENCY,
          orderId,
          email: order.email,
          cardOnly: order.kind === "aged-leads" || order.kind === "callbacks",
        })
      : { id: `${BALANCE_INTENT_PREFIX}${orderId}`, clientSecret: "" };
  await deps.db.insert(orders).values({
    id: orderId,
    kind: order.kind,
    tier: order.tier,
    quantity: order.quote.quantity,
    unitPriceCents: order.quote.unitCents,
    totalCents: order.quote.totalCents,
    currency: CURRENCY,
    userId: order.userId,
    email: order.email,
    details: order.details,
    paymentIntentId: intent.id,
    clientSecretHash: intent.clientSecret ? await sha256Hex(intent.clientSecret) : null,
    balanceAppliedCents,
  });
  return {
    clientSecret: intent.clientSecret,
    orderId,
    amountCents,
    currency: CURRENCY,
    provider: provider.name,
    ...(provider.publishableKey ? { publishableKey: provider.publishableKey } : {}),
  };
}

async function sendOrderConfirmation(deps: Deps, order: Order) {
  if (!order.email) return;
  try {
    await sendMail(
      deps,
      order.email,
      emails.orderConfirmation({ orderId: order.id, quantity: order.quantity, totalCents: order.totalCents }),
    );
  } catch (error) {
    // The payment stands even when the e-mail cannot be sent; the outbox keeps the message.
    console.error("Order confirmation e-mail failed", error);
  }
}

export type EventOutcome = "processed" | "duplicate";
const recordEvent = (db: Database, event: PaymentEvent) =>
  db.insert(paymentEvents).values({ id: event.id, type: event.type, paymentIntentId: event.paymentIntentId });

/**
 * Gives the money back through the provider, then records the event and the order as refunded in one
 * batch (if the provider call fails, nothing is recorded and the provider's retry tries again).
 */
async function refundOrder(deps: Deps, order: Order, event: PaymentEvent, reason: string): Promise<void> {
  if (cardAmountCents(order) > 0) {
    await providerOfIntent(deps, order.paymentIntentId).refund(order.paymentIntentId, cardAmountCents(order));
  }
  const { db } = deps;
  const now = new Date();
  await db.batch([
    recordEvent(db, event),
    db
      .update(orders)
      .set({ status: "refunded", refundedAt: now, paymentError: reason, updatedAt: now })
      .where(eq(orders.id, order.id)),
    ...releaseStatements(deps, order.id),
    refundBalanceStatement(deps, order.id),
  ]);
  console.error(`Order ${order.id} refunded: ${reason}`);
}

/** The sale of the product the order bought (a product's registration), or null when it sells nothing. */
async function saleAtPayment(deps: Deps, order: Order): Promise<PaymentSale | null> {
  for (const product of orderProducts()) {
    const sale = await product.saleAtPayment?.(deps, order);
    if (sale) return sale;
  }
  return null;
}

/** What every product reserved for the order ends (a cancel, or a refund before it was paid). */
const releaseStatements = (deps: Deps, orderId: string) =>
  orderProducts().flatMap((product) => product.releaseStatements?.(deps, orderId) ?? []);

const PAID_AFTER_CANCEL = "Paid after the order was cancelled; refunded";
const LEADS_GONE = "The leads were sold to another buyer before the payment arrived; refunded";

async function paymentSucceeded(
  deps: Deps,
  order: Order,
  event: Extract<PaymentEvent, { type: "payment_intent.succeeded" }>,
  origin: string,
) {
  const { db, now } = deps;
  if (event.amountCents !== cardAmountCents(order) || event.currency.toLowerCase() !== order.currency) {
    // Never mark paid on a charge that is not this order's price: leave it pending, flagged for a person.
    const paid = `${formatUsd(event.amountCents)} ${event.currency.toUpperCase()}`;
    const message = `The payment (${paid}) does not match the order (${formatUsd(cardAmountCents(order))} ${order.currency.toUpperCase()}).`;
    console.error(`Order ${order.id}: ${message}`);
    await db.batch([
      recordEvent(db, event),
      db.update(orders).set({ paymentError: message }).where(eq(orders.id, order.id)),
    ]);
    return;
  }
  if (order.status === "cancelled") return refundOrder(deps, order, event, PAID_AFTER_CANCEL);
  if (order.status !== "pending") {
    await recordEvent(db, event);
    return;
  }
  const sale = await saleAtPayment(deps, order);
  const markPaid = db
    .update(orders)
    .set({
      status: "paid",
      paidAt: new Date(now),
      paymentError: null,
      updatedAt: new Date(now),
      ...(sale ? { details: sale.details } : {}),
    })
    .where(and(eq(orders.id, order.id), eq(orders.status, "pending"), sale?.allSellable));
  // Recorded only if the order did become paid at `now`: otherwise the leads are gone and it is refunded.
  const recordIfPaid = db.insert(paymentEvents).select(
    db
      .select({
        id: sql<string>`${event.id}`.as("id"),
        type: sql<string>`${event.type}`.as("type"),
        paymentIntentId: orders.paymentIntentId,
        receivedAt: sql<Date>`${now}`.as("received_at"),
      })
      .from(orders)
      .where(and(eq(orders.id, order.id), eq(orders.status, "paid"), eq(orders.paidAt, new Date(now)))),
  );
  // Buyer webhooks join the batch, recorded only if it sold; last, as `hooks.enqueue` reads from the end.
  const facts = orderPaidFacts(order, now).concat(sale?.facts ?? []);
  const hooks = await webhookRecording(deps, facts);
  const results = sale
    ? await db.batch([markPaid, sale.sell, sale.release, sale.checks, recordIfPaid, ...hooks.statements])
    : await db.batch([markPaid, recordIfPaid, ...hooks.statements]);
  await hooks.enqueue(deps, results);

  const [after] = await db.select().from(orders).where(eq(orders.id, order.id));
  if (after?.status === "paid" && after.paidAt?.getTime() === now) {
    // Leads on the buyer's private list were left out: their price goes back at once (decision 0049); a
    // bundle whose reservation ran out gives back what it could not deliver (decision 0057).
    const settled = await refundNotCharged(deps, after);
    for (const product of orderProducts()) await product.settlePaid?.(deps, settled);
    await Promise.all([sendOrderConfirmation(deps, settled), sale?.delivered?.()]);
    // After the confirmation: a live-transfer order gets its delivery settings (or e-mails the setup link), a
    // call-back order takes the waiting call-backs that fit it. If one fails, the payment still stands.
    for (const product of orderProducts()) {
      try {
        await product.afterPaid?.(deps, after, origin);
      } catch (error) {
        console.error(`Order ${order.id}: ${product.name} could not finish after the payment`, error);
      }
    }
    return;
  }
  if (after?.status === "pending") {
    // The sale was refused (a lead or call-back gone, on a Do Not Call list, or all on the private list).
    return refundOrder(deps, order, event, (await sale?.refusal?.()) ?? LEADS_GONE);
  }
  if (after?.status === "cancelled") {
    return refundOrder(deps, order, event, PAID_AFTER_CANCEL);
  }
  // Settled meanwhile by another event for the same payment.
  await recordEvent(db, event);
}

/**
 * Applies a provider event to its order exactly once, whichever way it arrived (webhook or simulated).
 * `origin` is where e-mailed links (delivery setup) point.
 */
export async function processPaymentEvent(deps: Deps, event: PaymentEvent, origin: string): Promise<EventOutcome> {
  const { db } = deps;
  const [seen] = await db.select().from(paymentEvents).where(eq(paymentEvents.id, event.id));
  if (seen) return "duplicate";
  const [order] = await db.select().from(orders).where(eq(orders.paymentIntentId, event.paymentIntentId));
  if (!order) {
    await recordEvent(db, event);
    return "processed";
  }
  const now = new Date(deps.now);
  switch (event.type) {
    case "payment_intent.succeeded":
      await paymentSucceeded(deps, order, event, origin);
      break;
    case "payment_intent.payment_failed":
      // A failure only matters while the order still waits for its money (events may arrive out of order).
      await db.batch([
        recordEvent(db, event),
        db
          .update(orders)
          .set({ paymentError: event.failureMessage ?? "Payment failed", updatedAt: now })
          .where(and(eq(orders.id, order.id), eq(orders.status, "pending"))),
      ]);
      break;
    case "charge.refunded":
      await db.batch([
        recordEvent(db, event),
        event.fullyRefunded
          ? db
              .update(orders)
              .set({ status: "refunded", refundedAt: now, updatedAt: now })
              .where(and(eq(orders.id, order.id), inArray(orders.status, ["paid", "completed"])))
          : db
              .update(orders)
              .set({ paymentError: `Partly refunded: ${formatUsd(event.amountRefundedCents)}`, updatedAt: now })
              .where(eq(orders.id, order.id)),
        // A fully refunded order gives back the balance it used, too (nothing for a live order) …
        refundBalanceStatement(deps, order.id),
        // … its leads and call-backs are marked refunded, its pending returns denied: no credit on top.
        ...orderProducts().flatMap((product) => product.refundStatements?.(deps, order) ?? []),
      ]);
      break;
    case "charge.dispute.created":
      await db.batch([
        recordEvent(db, event),
        db
          .update(orders)
          .set({ disputedAt: now, disputeReason: event.reason, updatedAt: now })
          .where(eq(orders.id, order.id)),
      ]);
      break;
  }
  return "processed";
}

/**
 * Cancels a pending order: its intent first (so it can no longer be paid), then the order and its
 * reserved leads together. False when the provider says the intent is no longer open (its event settles it).
 */
export async function cancelPendingOrder(deps: Deps, order: Pick<Order, "id" | "paymentIntentId">, reason: string) {
  const balanceOnly = order.paymentIntentId.startsWith(BALANCE_INTENT_PREFIX);
  if (!balanceOnly && !(await providerOfIntent(deps, order.paymentIntentId).cancelIntent(order.paymentIntentId))) {
    return false;
  }
  const { db } = deps;
  const now = new Date();
  await db.batch([
    db
      .update(orders)
      .set({ status: "cancelled", paymentError: reason, updatedAt: now })
      .where(and(eq(orders.id, order.id), eq(orders.status, "pending"))),
    ...releaseStatements(deps, order.id),
    // The balance the order held goes back to the buyer (once, whichever path cancels it).
    refundBalanceStatement(deps, order.id),
  ]);
  return true;
}

export async function paymentIntentOf(deps: Deps, orderId: string): Promise<string> {
  const [order] = await deps.db
    .select({ paymentIntentId: orders.paymentIntentId })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order) throw new Error(`Order ${orderId} does not exist`);
  return order.paymentIntentId;
}

/** Pending aged-lead orders: the buyer's other ones, or everyone's run out (call-backs too, decision 0061). */
export async function pendingLeadOrders(deps: Deps, filter: { userId: string; except: string } | { before: number }) {
  const where =
    "userId" in filter
      ? and(eq(orders.userId, filter.userId), ne(orders.id, filter.except), eq(orders.kind, "aged-leads"))
      : and(lt(orders.createdAt, new Date(filter.before)), inArray(orders.kind, ["aged-leads", "callbacks"]));
  return deps.db
    .select({ id: orders.id, paymentIntentId: orders.paymentIntentId })
    .from(orders)
    .where(and(eq(orders.status, "pending"), where))
    .limit(50);
}

/** The scheduled sweep: cancels the payment of every aged-lead reservation that ran out unpaid. */
export async function expireReservations(deps: Deps): Promise<number> {
  const expired = await pendingLeadOrders(deps, { before: deps.now - RESERVATION_MINUTES * 60_000 });
  let cancelled = 0;
  for (const order of expired) {
    try {
      if (await cancelPendingOrder(deps, order, "The reservation ended before payment")) cancelled += 1;
    } catch (error) {
      console.error(`Could not cancel the payment of order ${order.id}`, error);
    }
  }
  return cancelled;
}
