/**
 * The rules a return is checked against in SQL: the cap (deliveries and
 * returns in the window, counted by the statements that use them) and the order's state (nothing on a
 * refunded or cancelled order can be returned: the card got the money back).
 */
import { type AnyColumn, and, eq, type SQL, sql } from "drizzle-orm";
import {
  RETURN_CAP_WINDOW_MS,
  RETURN_MESSAGES,
  returnCap,
  returnsRemaining,
} from "../../../src/features/returns/returns";
import { agedLeads, callbackOpportunities, orders, returns, transfers, users } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError } from "../../errors";

// ——— The cap: deliveries and returns in the window, counted in SQL ———

/**
 * Billable transfers, purchased aged leads and delivered call-backs and appointments of the buyer since
 * `since` (returned ones included, leads and call-backs of a refunded order not: the refund took them
 * back, docs/decisions/0075). Call-backs count by their delivery, like the others (docs/decisions/0062).
 */
export const deliveriesSince = (userId: string, since: number) =>
  sql<number>`((SELECT count(*) FROM ${transfers} WHERE ${transfers.buyerUserId} = ${userId}
      AND ${transfers.billable} = 1 AND ${transfers.routedAt} > ${since})
    + (SELECT count(*) FROM ${agedLeads} WHERE ${agedLeads.soldToUserId} = ${userId}
      AND ${agedLeads.soldAt} > ${since} AND ${agedLeads.refundedAt} IS NULL)
    + (SELECT count(*) FROM ${callbackOpportunities} WHERE ${callbackOpportunities.buyerUserId} = ${userId}
      AND ${callbackOpportunities.deliveredAt} > ${since} AND ${callbackOpportunities.refundedAt} IS NULL))`;

/** Returns the buyer asked for since `since` that use the allowance (pending or approved). */
export const returnsSince = (userId: string, since: number) =>
  sql<number>`(SELECT count(*) FROM ${returns} WHERE ${returns.buyerUserId} = ${userId}
    AND ${returns.createdAt} > ${since} AND ${returns.status} <> 'denied')`;

export async function capState(deps: Deps, userId: string) {
  const since = deps.now - RETURN_CAP_WINDOW_MS;
  const [row] = await deps.db
    .select({ deliveries: deliveriesSince(userId, since), returned: returnsSince(userId, since) })
    .from(users)
    .where(eq(users.id, userId));
  const deliveries = Number(row?.deliveries ?? 0);
  const returned = Number(row?.returned ?? 0);
  return { deliveries, cap: returnCap(deliveries), remaining: returnsRemaining(deliveries, returned) };
}

// ——— Refunded and cancelled orders: nothing on them can be returned ———

const CLOSED_ORDER_STATUSES = ["refunded", "cancelled"] as const;

/** True in SQL while order `orderId` is neither refunded nor cancelled. */
export const orderOpen = (orderId: string | SQL | AnyColumn) =>
  sql`NOT EXISTS (SELECT 1 FROM ${orders} WHERE ${orders.id} = ${orderId}
    AND ${orders.status} IN (${sql.join(
      CLOSED_ORDER_STATUSES.map((status) => sql`${status}`),
      sql`, `,
    )}))`;

/**
 * For a full refund's batch: the order's pending returns are denied, as nothing is left to return once the
 * card got its money back. Only if that batch left the order refunded.
 */
export function denyReturnsOfRefundedOrderStatement(deps: Deps, orderId: string) {
  return deps.db
    .update(returns)
    .set({ status: "denied", adminNote: RETURN_MESSAGES.refundedNote, decidedAt: new Date(deps.now) })
    .where(
      and(
        eq(returns.orderId, orderId),
        eq(returns.status, "pending"),
        sql`EXISTS (SELECT 1 FROM ${orders} WHERE ${orders.id} = ${orderId} AND ${orders.status} = 'refunded')`,
      ),
    );
}

/** 409 when the order is refunded or cancelled. */
export async function assertOrderOpen(deps: Deps, orderId: string) {
  const [order] = await deps.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
  if (order && (CLOSED_ORDER_STATUSES as readonly string[]).includes(order.status)) {
    throw new ConflictError(RETURN_MESSAGES.orderClosed);
  }
}
