/**
 * The SQL pieces transfer routing shares between its routing read and its claim (transfer-routing.ts):
 * raw, because they are correlated counts drizzle's builder cannot say, on the measured routing path.
 */
import { type SQL, sql } from "drizzle-orm";
import { localTime, US_TIME_ZONES } from "../../../src/domain/time-zones";
import { DUPLICATE_WINDOW_DAYS, NO_CONTACT_STATUSES } from "../../../src/features/transfers/transfers";

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Transfers holding a slot on order `orderId`: routed answers not yet expired and connected calls. */
export const heldCount = (orderId: unknown, now: number) =>
  sql`(SELECT count(*) FROM transfers h WHERE h.order_id = ${orderId} AND h.status IN ('routed', 'connected') AND h.expires_at > ${now})`;

/** Transfers sent to order `orderId` on local day `day`, except those that expired or went unanswered. */
export const deliveredOnDay = (orderId: unknown, day: unknown, now: number) =>
  sql`(SELECT count(*) FROM transfers p WHERE p.order_id = ${orderId} AND p.buyer_local_day = ${day}
      AND (p.status IN ('connected', 'completed') OR (p.status = 'routed' AND p.expires_at > ${now})))`;

/**
 * What a partner used of its daily call cap on its local day `day`: its transfers (the counter the
 * triggers keep) and its `suppressed` and `call_limit` answers (counted by ping-refusals.ts), each given
 * only where an order would have taken the call (docs/decisions/0050, 0064). Two primary-key seeks.
 */
export const partnerCallsOn = (partnerId: string, day: string) =>
  sql`(coalesce((SELECT calls FROM partner_day_calls WHERE partner_id = ${partnerId} AND day = ${day}), 0)
    + coalesce((SELECT suppressed + call_limit FROM partner_day_refusals WHERE partner_id = ${partnerId} AND day = ${day}), 0))`;

/** The buyer's key for the duplicate rule: the user id, else the order's e-mail. */
export const buyerKeyOf = sql`coalesce(o.user_id, 'email:' || lower(o.email))`;

/**
 * The duplicate rule's one condition, for transfer alias `t`: a transfer of this phone routed within the
 * window that is a contact (every status but those in NO_CONTACT_STATUSES: an answer left to expire
 * counts until the dialer reports it unanswered or failed). The candidate read, the full read and the
 * claim all use it.
 */
export const recentContact = (phone: string, now: number) =>
  sql`t.phone = ${phone} AND t.routed_at > ${now - DUPLICATE_WINDOW_DAYS * DAY_MS}
    AND t.status NOT IN (${sql.join(
      NO_CONTACT_STATUSES.map((status) => sql`${status}`),
      sql`, `,
    )})`;

/** Local day, weekday and minute of the day in every US zone at `now`, as JSON for json_extract by an order's zone. */
export function localTimes(now: number): string {
  return JSON.stringify(Object.fromEntries(US_TIME_ZONES.map((zone) => [zone, localTime(now, zone)])));
}
/**
 * One field of localTimes for the zone in column `zoneColumn` (e.g. d.time_zone). `times` is localTimes'
 * text, bound here, or SQL that names it once bound (`TIMES_IN_CTE`, for a statement that asks many times).
 */
export const inZone = (times: string | SQL, zoneColumn: string, field: "day" | "weekday" | "minute") =>
  sql`json_extract(${times}, '$."' || ${sql.raw(zoneColumn)} || '".${sql.raw(field)}')`;

/**
 * localTimes bound once for a whole statement, as a common table (`timesTable`), and read by `inZone`
 * through `TIMES_IN_CTE`: a routing read asks a zone's time a dozen times, and binding the text each time
 * sent it a dozen times with every ping.
 */
export const timesTable = (now: number) => sql`tz AS (SELECT ${localTimes(now)} AS j)`;
export const TIMES_IN_CTE = sql`(SELECT j FROM tz)`;

/**
 * `minute` (of the day) is within the hours `start`-`end` as `withinHours` (src/features/transfers/hours.ts)
 * says: equal ends are all day, and hours may run past midnight. A minute the SQL cannot read (null) passes.
 */
export const withinHoursSql = (minute: SQL, start: SQL, end: SQL) =>
  sql`(${minute} IS NULL OR ${start} = ${end} OR (${start} < ${end} AND ${minute} >= ${start} AND ${minute} < ${end})
    OR (${start} > ${end} AND (${minute} >= ${start} OR ${minute} < ${end})))`;

/**
 * `weekday` is one of `days` (a JSON array of weekdays, 0 = Sunday), as the pure rules say (`days.includes`):
 * no days (null) is every day, and a weekday the SQL cannot read (null) passes.
 */
export const onWeekdaySql = (days: SQL, weekday: SQL) =>
  sql`(${days} IS NULL OR ${weekday} IS NULL OR EXISTS (SELECT 1 FROM json_each(${days}) WHERE value = ${weekday}))`;
