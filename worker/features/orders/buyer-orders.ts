/** A buyer's own orders (`/api/my-orders`, `/api/call-transfer-order`; product rules 8, 22). */
import { and, desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { formatUsd } from "../../../src/domain/format";
import { type callTransferOrderSchema, parseStates } from "../../../src/domain/schemas/dashboard";
import type { PaymentStart } from "../../../src/domain/schemas/payments";
import type { PublicUser } from "../../../src/domain/user";
import { CALL_TRANSFER_UNIT_CENTS, dollarsToCents, quoteCallTransfer } from "../../../src/features/orders/pricing";
import { orderDelivery, orders } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError, InvalidError, NotFoundError } from "../../errors";
import { notChargedCountSql, notChargedNotice } from "./not-charged";
import { BALANCE_INTENT_PREFIX, cardAmountCents, startPayment } from "./orders";
import { type PaymentProvider, providerOfIntent } from "./payments/provider";

/** The most orders My Orders lists. */
const MY_ORDERS_LIMIT = 200;

/** The buyer's latest orders, newest first. */
export async function listBuyerOrders(deps: Deps, userId: string) {
  const rows = await deps.db
    .select({
      id: orders.id,
      kind: orders.kind,
      tier: orders.tier,
      quantity: orders.quantity,
      totalCents: orders.totalCents,
      status: orders.status,
      createdAt: orders.createdAt,
      paidAt: orders.paidAt,
      notCharged: notChargedCountSql,
      // A paid live-transfer order (it has delivery settings): My Orders offers its agents (docs/decisions/0071).
      delivers: sql<number>`EXISTS (SELECT 1 FROM ${orderDelivery} WHERE ${orderDelivery.orderId} = ${orders.id})`,
    })
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt))
    .limit(MY_ORDERS_LIMIT);
  return rows.map((order) => ({
    ...order,
    createdAt: order.createdAt.toISOString(),
    paidAt: order.paidAt === null ? null : order.paidAt.toISOString(),
    // Said only once the order is paid (or refunded for it): product rule 40, decision 0049.
    notCharged: order.notCharged ?? 0,
    notice: notChargedNotice(order.notCharged),
    delivers: Boolean(order.delivers),
  }));
}

/**
 * Starts the payment of a live-transfer order from the dashboard. The server prices it; the form's
 * price must be that total (or the per-transfer rate the form shows).
 */
export async function startCallTransferOrder(
  deps: Deps,
  provider: PaymentProvider,
  user: PublicUser,
  { price, leadType, ...form }: z.output<typeof callTransferOrderSchema>,
) {
  const quote = quoteCallTransfer(form.totalTransfers);
  if (!quote.ok) throw new InvalidError(quote.message);
  const sentCents = dollarsToCents(price); // the spec's call-transfer-order `price` is in dollars
  if (sentCents !== quote.totalCents && sentCents !== CALL_TRANSFER_UNIT_CENTS) {
    throw new InvalidError(`The price does not match this order (${formatUsd(quote.totalCents)}).`);
  }
  return startPayment(deps, provider, {
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
}

/**
 * 'Pay now' in My Orders: the payment of the buyer's own pending order, resumed on the intent it already
 * has (no second order, no second charge). Someone else's order is NotFound; an order that is no longer
 * pending, or whose intent can no longer be paid, is a Conflict.
 */
export async function resumeOrderPayment(deps: Deps, userId: string, orderId: string): Promise<PaymentStart> {
  const [order] = await deps.db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!order) throw new NotFoundError("Order not found");
  if (order.status !== "pending") throw new ConflictError("This order is not waiting for payment.");
  const provider = providerOfIntent(deps, order.paymentIntentId);
  const clientSecret = order.paymentIntentId.startsWith(BALANCE_INTENT_PREFIX)
    ? null
    : await provider.openIntentSecret(order.paymentIntentId);
  if (!clientSecret) throw new ConflictError("This payment can no longer be made. Please place a new order.");
  return {
    clientSecret,
    orderId: order.id,
    amountCents: cardAmountCents(order),
    currency: order.currency,
    provider: provider.name,
    ...(provider.publishableKey ? { publishableKey: provider.publishableKey } : {}),
  };
}
