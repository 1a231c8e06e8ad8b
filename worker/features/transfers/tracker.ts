/**
 * The Lead Tracker's orders: the progress of a buyer's live-transfer orders, today's counts against their
 * caps, and the check that an order is the buyer's (pausing and resuming them: ./delivery-pauses). Live-transfer
 * delivery's, as the pauses and the admins' fulfilment read it too; the transfers listed beside them are the
 * returns feature's (worker/features/returns/tracker.ts).
 */
import { and, count, desc, eq, gt, inArray, isNotNull, or, type SQL, sql } from "drizzle-orm";
import { localTime, US_TIME_ZONES } from "../../../src/domain/time-zones";
import { limitsText } from "../../../src/features/transfers/delivery-limits";
import { pauseView } from "../../../src/features/transfers/delivery-pauses";
import { packageName, type TrackerOrder } from "../../../src/features/transfers/order-progress";
import { orderDelivery, orders, transfers, users } from "../../db/schema";
import type { Deps } from "../../deps";
import { NotFoundError } from "../../errors";

/** A transfer or an order without a delivery zone is shown in this one. */
export const DEFAULT_TRACKER_TIME_ZONE = "America/New_York";

/** 404 unless the order is the buyer's. */
export async function buyersOrder(deps: Deps, userId: string, orderId: string) {
  const [order] = await deps.db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!order) throw new NotFoundError("No such order.");
  return order;
}

// ——— Orders: progress, today's count ———

/** Today's local day in each US zone (at most two different days at any moment). */
function todayByZone(now: number): Map<string, string> {
  return new Map(US_TIME_ZONES.map((zone) => [zone, localTime(now, zone).day]));
}

/**
 * Transfers routed to each order on its buyer's current local day, except expired or unanswered ones
 * (the count the order's daily cap is checked against in routing).
 */
export async function todayCounts(deps: Deps, orderIds: SQL | string[]): Promise<Map<string, number>> {
  const { db, now } = deps;
  const days = todayByZone(now);
  if (Array.isArray(orderIds) && orderIds.length === 0) return new Map();
  const rows = await db
    .select({ orderId: transfers.orderId, day: transfers.buyerLocalDay, n: count(), timeZone: orderDelivery.timeZone })
    .from(transfers)
    .innerJoin(orderDelivery, eq(orderDelivery.orderId, transfers.orderId))
    .where(
      and(
        inArray(transfers.orderId, orderIds),
        inArray(transfers.buyerLocalDay, [...new Set(days.values())]),
        or(
          inArray(transfers.status, ["connected", "completed"]),
          and(eq(transfers.status, "routed"), gt(transfers.expiresAt, new Date(now))),
        ),
      ),
    )
    .groupBy(transfers.orderId, transfers.buyerLocalDay);
  const counts = new Map<string, number>();
  for (const row of rows) {
    if (days.get(row.timeZone ?? DEFAULT_TRACKER_TIME_ZONE) === row.day) counts.set(row.orderId, row.n);
  }
  return counts;
}

const orderColumns = {
  orderId: orders.id,
  kind: orders.kind,
  tier: orders.tier,
  quantity: orders.quantity,
  createdAt: orders.createdAt,
  transfersTotal: orderDelivery.transfersTotal,
  delivered: orderDelivery.transfersBillable,
  notCharged: orderDelivery.transfersNotCharged,
  perDayCap: orderDelivery.perDayCap,
  days: orderDelivery.days,
  closedFrom: orderDelivery.closedFrom,
  closedUntil: orderDelivery.closedUntil,
  perHourCap: orderDelivery.perHourCap,
  maxConcurrent: orderDelivery.maxConcurrent,
  paused: orderDelivery.paused,
  pauseKind: orderDelivery.pauseKind,
  pausedReason: orderDelivery.pausedReason,
  pauseNeedsAdmin: orderDelivery.pauseNeedsAdmin,
  transferPhone: orderDelivery.transferPhone,
  setupStatus: orderDelivery.setupStatus,
  /** Who bought it (the admin's Fulfilment tab): the username, else the order's e-mail. */
  buyer: sql<string>`coalesce(${users.username}, ${orders.email}, '')`,
};

type OrderRow = Awaited<ReturnType<typeof orderProgressSelect>>[number];

export function toTrackerOrder(row: OrderRow, today: number): TrackerOrder {
  return {
    orderId: row.orderId,
    packageName: packageName(row.kind, row.tier, row.quantity),
    createdAt: row.createdAt.getTime(),
    transfersTotal: row.transfersTotal,
    delivered: row.delivered,
    notCharged: row.notCharged,
    remaining: Math.max(0, row.transfersTotal - row.delivered),
    todayCount: today,
    perDayCap: row.perDayCap,
    limits: limitsText(row),
    paused: row.paused,
    pause: pauseView(row),
    transferPhone: row.transferPhone,
    setupStatus: row.setupStatus,
  };
}

export function orderProgressSelect(deps: Deps) {
  return deps.db
    .select(orderColumns)
    .from(orders)
    .innerJoin(orderDelivery, eq(orderDelivery.orderId, orders.id))
    .leftJoin(users, eq(users.id, orders.userId));
}

/** The buyer's live-transfer orders (those with delivery settings), newest first. */
export async function listTrackerOrders(deps: Deps, userId: string): Promise<TrackerOrder[]> {
  const rows = await orderProgressSelect(deps)
    .where(and(eq(orders.userId, userId), isNotNull(orders.paidAt)))
    .orderBy(desc(orders.createdAt))
    .limit(200);
  const today = await todayCounts(
    deps,
    rows.map((row) => row.orderId),
  );
  return rows.map((row) => toTrackerOrder(row, today.get(row.orderId) ?? 0));
}
