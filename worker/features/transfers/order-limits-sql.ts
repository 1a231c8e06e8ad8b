/**
 * Routing's SQL for an order's own limits (docs/decisions/0068): its closure, its cap per 60 minutes and
 * its cap on calls at once, beside the hours, weekdays and per-day cap in transfer-routing.ts. The pure
 * rule is `ineligibility` (src/features/transfers/transfers.ts); these say the same in the candidate read and the claim.
 */
import { type SQL, sql } from "drizzle-orm";
import { HOUR_MS } from "../../../src/features/transfers/delivery-limits";
import type { RoutingCandidate } from "../../../src/features/transfers/transfers";

/** The limit columns of `order_delivery d`, for the candidate reads. */
export const LIMIT_COLUMNS = sql.raw("d.closed_from, d.closed_until, d.per_hour_cap, d.max_concurrent");

/** What the candidate reads answer for the limits. */
export interface LimitRow {
  closed_from: string | null;
  closed_until: string | null;
  per_hour_cap: number | null;
  max_concurrent: number | null;
  delivered_last_hour: number;
}

export function limitsOf(
  row: LimitRow,
): Pick<RoutingCandidate, "closedFrom" | "closedUntil" | "perHourCap" | "maxConcurrent" | "deliveredLastHour"> {
  return {
    closedFrom: row.closed_from,
    closedUntil: row.closed_until,
    perHourCap: row.per_hour_cap,
    maxConcurrent: row.max_concurrent,
    deliveredLastHour: row.delivered_last_hour,
  };
}

/**
 * Transfers sent to order `orderId` in the 60 minutes before `now`, counted as the per-day cap counts
 * (deliveredOnDay: connected, completed, or routed and not expired), read through
 * transfers_order_routed_idx (order_id, routed_at). 0 for an order without a cap per hour, so only
 * capped orders count.
 */
export const deliveredLastHour = (orderId: SQL, perHourCap: SQL, now: number) =>
  sql`(CASE WHEN ${perHourCap} IS NULL THEN 0 ELSE (SELECT count(*) FROM transfers p WHERE p.order_id = ${orderId}
      AND p.routed_at > ${now - HOUR_MS}
      AND (p.status IN ('connected', 'completed') OR (p.status = 'routed' AND p.expires_at > ${now}))) END)`;

/** `order_delivery d` is not closed on local day `day` (a day the SQL cannot read passes; the rule decides). */
export const notClosedOn = (day: SQL) =>
  sql`(d.closed_from IS NULL OR d.closed_until IS NULL OR ${day} IS NULL OR ${day} NOT BETWEEN d.closed_from AND d.closed_until)`;

/** The claim's check of `order_delivery d`'s caps per hour and at once; `held` counts its live holds. */
export const withinOrderCaps = (held: SQL, now: number) =>
  sql`(d.per_hour_cap IS NULL OR ${deliveredLastHour(sql`d.order_id`, sql`d.per_hour_cap`, now)} < d.per_hour_cap)
      AND (d.max_concurrent IS NULL OR ${held} < d.max_concurrent)`;
