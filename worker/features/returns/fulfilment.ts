/**
 * The admin's Fulfilment tab: open live-transfer orders with their progress, and the
 * partners with today's calls against their cap, suppressed share of today's pings (docs/decisions/0050),
 * billable rate and average duration.
 */
import { and, asc, eq, gte, inArray, sql } from "drizzle-orm";
import { localTime, US_TIME_ZONES } from "../../../src/domain/time-zones";
import type { FulfilmentOrder, FulfilmentOverview, FulfilmentPartner } from "../../../src/features/returns/returns";
import { orderDelivery, orders, partnerDayCalls, partners, transfers } from "../../db/schema";
import type { Deps } from "../../deps";
import { orderProgressSelect, refusalsOn, todayCounts, toTrackerOrder } from "../transfers/index";

/** Open orders shown at once, oldest paid first (the order routing serves them in). */
const ORDER_LIMIT = 200;
/** Billable rate and average duration are over this many recent days. */
const PARTNER_STATS_DAYS = 30;

export async function fulfilmentOverview(deps: Deps): Promise<FulfilmentOverview> {
  const { db } = deps;
  const openOrder = eq(orders.status, "paid");
  const orderRows = await orderProgressSelect(deps)
    .where(openOrder)
    .orderBy(asc(orders.paidAt), asc(orders.id))
    .limit(ORDER_LIMIT);
  const openIds = db
    .select({ id: orderDelivery.orderId })
    .from(orderDelivery)
    .innerJoin(orders, eq(orders.id, orderDelivery.orderId))
    .where(openOrder);
  const today = await todayCounts(deps, sql`${openIds}`);
  const fulfilmentOrders: FulfilmentOrder[] = orderRows.map((row) => {
    const {
      createdAt: _createdAt,
      setupStatus: _setupStatus,
      ...progress
    } = toTrackerOrder(row, today.get(row.orderId) ?? 0);
    return { ...progress, buyer: row.buyer };
  });
  return { orders: fulfilmentOrders, partners: await partnerOverview(deps) };
}

async function partnerOverview(deps: Deps): Promise<FulfilmentPartner[]> {
  const { db, now } = deps;
  const days = [...new Set(US_TIME_ZONES.map((zone) => localTime(now, zone).day))];
  const [rows, calls, refusals, stats] = await Promise.all([
    db
      .select({
        id: partners.id,
        businessName: partners.businessName,
        dailyCallCap: partners.dailyCallCap,
        timeZone: partners.timeZone,
      })
      .from(partners)
      .orderBy(asc(partners.businessName))
      .limit(500),
    db
      .select({ partnerId: partnerDayCalls.partnerId, day: partnerDayCalls.day, calls: partnerDayCalls.calls })
      .from(partnerDayCalls)
      .where(inArray(partnerDayCalls.day, days)),
    refusalsOn(deps, days),
    db
      .select({
        partnerId: transfers.partnerId,
        completed: sql<number>`count(*)`,
        billable: sql<number>`coalesce(sum(${transfers.billable}), 0)`,
        averageDuration: sql<number | null>`avg(${transfers.durationSeconds})`,
      })
      .from(transfers)
      .where(
        and(
          eq(transfers.status, "completed"),
          gte(transfers.routedAt, new Date(now - PARTNER_STATS_DAYS * 24 * 60 * 60 * 1000)),
        ),
      )
      .groupBy(transfers.partnerId),
  ]);
  const callsOn = new Map(calls.map((row) => [`${row.partnerId} ${row.day}`, row.calls]));
  const statsOf = new Map(stats.map((row) => [row.partnerId, row]));
  return rows.map((partner) => {
    const stat = statsOf.get(partner.id);
    const completed = Number(stat?.completed ?? 0);
    const today = `${partner.id} ${localTime(now, partner.timeZone).day}`;
    const todayCalls = callsOn.get(today) ?? 0;
    const refused = refusals.get(today) ?? { refused: 0, suppressed: 0 };
    const todayPings = todayCalls + refused.refused;
    return {
      id: partner.id,
      businessName: partner.businessName,
      dailyCallCap: partner.dailyCallCap,
      todayCalls,
      todayPings,
      todaySuppressed: refused.suppressed,
      suppressedShare: todayPings > 0 ? refused.suppressed / todayPings : null,
      billableRate: completed > 0 ? Number(stat?.billable ?? 0) / completed : null,
      averageDurationSeconds: stat?.averageDuration == null ? null : Math.round(stat.averageDuration),
    };
  });
}
