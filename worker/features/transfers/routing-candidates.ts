/**
 * Routing's first read (transfer-routing.ts): the oldest-paid open orders of a state that may take a ping
 * now, with their counts, and the row shape every routing read shares. Raw SQL on the measured routing path
 * (correlated counts and JSON lookups by zone that drizzle's builder cannot say).
 */
import { type SQL, sql } from "drizzle-orm";
import { ALL_STATES, type RoutingCandidate } from "../../../src/features/transfers/transfers";
import { privateListHoldsSql } from "../do-not-call/index";
import { agentsJson, agentsOf, mayHaveAgentFor } from "./agent-routing-sql";
import {
  deliveredLastHour,
  LIMIT_COLUMNS,
  type LimitRow,
  limitsOf,
  notClosedOn,
  withinOrderCaps,
} from "./order-limits-sql";
import {
  buyerKeyOf,
  deliveredOnDay,
  heldCount,
  inZone,
  onWeekdaySql,
  recentContact,
  TIMES_IN_CTE,
  timesTable,
  withinHoursSql,
} from "./routing-sql";

/** An order's own limits (and its count per hour) are in LimitRow (order-limits-sql.ts). */
export interface CandidateRow extends LimitRow {
  order_id: string;
  buyer_key: string;
  paid_at: number;
  time_zone: string;
  hours_start_minute: number;
  hours_end_minute: number;
  days: string | null;
  per_day_cap: number;
  transfers_total: number;
  transfers_billable: number;
  held: number;
  delivered_today: number;
  /** The order's agents as `agentsJson` (absent from the read of every open order). */
  agents?: string | null;
}

/**
 * The oldest-paid open orders for a state that may take the call now, with their counts: at most `limit`
 * rows, read through `order_delivery_states_routing_idx` in paid order (the state's and the every-state
 * orders merged), so a ping touches a handful of orders however many are open. The SQL only pre-filters
 * and never drops an eligible order (a zone it cannot read passes); `rankEligible` decides. Beside the
 * hours it passes over the orders that are full now (their total, today's and this hour's caps, their
 * calls at once) and those with agents none of whom could take the call: on a busy day the oldest orders
 * are the ones on calls, and a page of them would send every ping to the read of every open order.
 */
export function candidatesFor(state: string, phone: string, now: number, limit: number) {
  const times = TIMES_IN_CTE;
  const local = (field: "day" | "weekday" | "minute") => inZone(times, "d.time_zone", field);
  const open = (code: string) =>
    sql`SELECT * FROM (SELECT order_id, paid_at FROM order_delivery_states
      WHERE state = ${code} AND open = 1 ORDER BY paid_at, order_id)`;
  const held: SQL = heldCount(sql`d.order_id`, now);
  return sql`
    WITH ${timesTable(now)}, s AS (${open(state)} UNION ALL ${open(ALL_STATES)})
    SELECT c.*, ${heldCount(sql`c.order_id`, now)} AS held, ${agentsJson(sql`c.order_id`, now)} AS agents,
      ${deliveredOnDay(sql`c.order_id`, inZone(times, "c.time_zone", "day"), now)} AS delivered_today,
      ${deliveredLastHour(sql`c.order_id`, sql`c.per_hour_cap`, now)} AS delivered_last_hour
    FROM (
      SELECT s.order_id, ${buyerKeyOf} AS buyer_key, s.paid_at, d.time_zone, d.hours_start_minute, d.hours_end_minute,
        d.days, ${LIMIT_COLUMNS}, d.per_day_cap, d.transfers_total, d.transfers_billable
      FROM s JOIN order_delivery d ON d.order_id = s.order_id JOIN orders o ON o.id = s.order_id
      WHERE ${onWeekdaySql(sql`d.days`, local("weekday"))}
        AND ${notClosedOn(local("day"))}
        AND ${withinHoursSql(local("minute"), sql`d.hours_start_minute`, sql`d.hours_end_minute`)}
        AND NOT EXISTS (SELECT 1 FROM transfers t WHERE ${recentContact(phone, now)} AND t.buyer_key = ${buyerKeyOf})
        AND NOT ${privateListHoldsSql(Number(phone), sql`o.user_id`)}
        AND d.transfers_billable + ${held} < d.transfers_total
        AND ${deliveredOnDay(sql`d.order_id`, local("day"), now)} < d.per_day_cap
        AND ${withinOrderCaps(held, now)}
        AND ${mayHaveAgentFor(sql`d.order_id`, state, times, now)}
      ORDER BY s.paid_at, s.order_id LIMIT ${limit}
    ) c`;
}

export function toCandidate(row: CandidateRow): RoutingCandidate {
  return {
    orderId: row.order_id,
    buyerKey: row.buyer_key,
    paidAt: row.paid_at ?? 0,
    timeZone: row.time_zone,
    hoursStartMinute: row.hours_start_minute,
    hoursEndMinute: row.hours_end_minute,
    days: row.days ? (JSON.parse(row.days) as number[]) : null,
    perDayCap: row.per_day_cap,
    transfersTotal: row.transfers_total,
    transfersBillable: row.transfers_billable,
    held: row.held,
    deliveredToday: row.delivered_today,
    agents: agentsOf(row.agents),
    ...limitsOf(row),
  };
}
