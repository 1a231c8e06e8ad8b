/**
 * Leads on the buyer's own private Do Not Call list are left out of an aged-lead sale when the order is
 * paid, and their price goes back at once (product rule 40, docs/decisions/0049). Before payment the
 * private list changes nothing the buyer can see (listing, counts, a reservation's answer, the amount), so
 * it cannot be used to learn a masked number; after payment the buyer is told how many were left out.
 * The sale's batch names them in the order's `details.notChargedLeadIds` (leads.ts); this file gives the
 * money back: to the card first, the rest to the balance the order used.
 */
import { and, eq, sql } from "drizzle-orm";
import { formatUsd } from "../../../src/domain/format";
import { notChargedMessage } from "../../../src/features/do-not-call/index";
import { balanceLedger, orders } from "../../db/schema";
import type { Deps } from "../../deps";
import { providerOfIntent } from "./payments/provider";

type Order = typeof orders.$inferSelect;

const idsOf = (details: Record<string, unknown>): string[] =>
  Array.isArray(details.notChargedLeadIds) ? details.notChargedLeadIds.filter((id) => typeof id === "string") : [];

/** SQL: how many of an order's leads were left out for the buyer's private list (null for none). */
export const notChargedCountSql = sql<number | null>`json_array_length(${orders.details}, '$.notChargedLeadIds')`;

/** What the buyer reads about it on the order (My Orders, the return page), or null. */
export const notChargedNotice = (count: number | null | undefined) => (count ? notChargedMessage(count) : null);

/** Names the leads left out, for an order refunded whole because every lead was on the private list. */
export async function recordNotCharged(deps: Deps, orderId: string, leadIds: readonly string[]) {
  await deps.db
    .update(orders)
    .set({ details: sql`json_set(${orders.details}, '$.notChargedLeadIds', json(${JSON.stringify(leadIds)}))` })
    .where(eq(orders.id, orderId));
}

/**
 * For an order that just became paid: refunds the price of its leads left out of the sale, and the order
 * then reads what was charged (quantity and total of the leads sold). Runs once per order (the order's
 * `details.notChargedCents` marks it done). Answers the order as it now stands.
 */
export async function refundNotCharged(deps: Deps, order: Order): Promise<Order> {
  const ids = new Set(idsOf(order.details));
  if (ids.size === 0 || order.details.notChargedCents !== undefined) return order;
  // A marketplace order keeps each lead's price; a bundle's leads each cost the order's unit price.
  const prices = new Map(
    ((order.details.prices as { id: string; priceCents: number }[] | undefined) ?? []).map((lead) => [
      lead.id,
      lead.priceCents,
    ]),
  );
  const amountCents = [...ids].reduce((sum, id) => sum + (prices.get(id) ?? order.unitPriceCents), 0);
  const cardCents = Math.min(amountCents, order.totalCents - order.balanceAppliedCents);
  const balanceCents = amountCents - cardCents;
  if (cardCents > 0) {
    try {
      await providerOfIntent(deps, order.paymentIntentId).refund(order.paymentIntentId, cardCents);
    } catch (error) {
      // The sale stands; the order says what is still owed so an admin can refund it by hand.
      console.error(`Order ${order.id}: refund of leads not charged failed`, error);
      await deps.db
        .update(orders)
        .set({ paymentError: `Refund due for ${ids.size} leads not charged: ${formatUsd(cardCents)} to the card` })
        .where(eq(orders.id, order.id));
      return order;
    }
  }
  const quantity = order.quantity - ids.size;
  const totalCents = order.totalCents - amountCents;
  const { db } = deps;
  await db.batch([
    db
      .update(orders)
      .set({
        quantity,
        totalCents,
        unitPriceCents: quantity > 0 ? Math.round(totalCents / quantity) : 0,
        balanceAppliedCents: order.balanceAppliedCents - balanceCents,
        details: sql`json_set(${orders.details}, '$.notChargedCents', ${amountCents})`,
        updatedAt: new Date(deps.now),
      })
      .where(and(eq(orders.id, order.id), sql`json_extract(${orders.details}, '$.notChargedCents') IS NULL`)),
    // The balance part is not taken: the order's debit shrinks (a refund row would be the order's one
    // `checkout_refund`, which a later full refund of the order needs).
    db
      .update(balanceLedger)
      .set({ amountCents: sql`${balanceLedger.amountCents} + ${balanceCents}` })
      .where(
        and(
          eq(balanceLedger.orderId, order.id),
          eq(balanceLedger.reason, "checkout_debit"),
          sql`${balanceCents} > 0`,
          // Only by the batch that marked the order just now.
          sql`EXISTS (SELECT 1 FROM ${orders} WHERE ${orders.id} = ${order.id} AND ${orders.updatedAt} = ${deps.now}
            AND json_extract(${orders.details}, '$.notChargedCents') = ${amountCents})`,
        ),
      ),
  ]);
  const [after] = await db.select().from(orders).where(eq(orders.id, order.id));
  return after ?? order;
}
