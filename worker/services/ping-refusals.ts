/**
 * Pings answered without a route, per partner and local day (docs/decisions/0050): every 409 of a ping
 * adds one to `refused`, a `suppressed` one also to `suppressed`. Routed pings are the partner's
 * transfers of the day (`partner_day_calls`), so the day's pings are calls + refused; the admin's
 * Fulfilment tab shows each partner's suppressed share of them. Written only when a ping is refused: the
 * routed path writes nothing more.
 */
import { inArray, sql } from "drizzle-orm";
import type { NoRouteReason } from "../../src/domain/transfers";
import { partnerDayRefusals } from "../db/schema";
import type { Deps } from "../deps";

/** Counts one refused ping of `partnerId` on its local day `day`. */
export async function recordRefusal(
  deps: Pick<Deps, "db">,
  partnerId: string,
  day: string,
  reason: NoRouteReason,
): Promise<void> {
  const suppressed = reason === "suppressed" ? 1 : 0;
  await deps.db
    .insert(partnerDayRefusals)
    .values({ partnerId, day, refused: 1, suppressed })
    .onConflictDoUpdate({
      target: [partnerDayRefusals.partnerId, partnerDayRefusals.day],
      set: {
        refused: sql`${partnerDayRefusals.refused} + 1`,
        suppressed: sql`${partnerDayRefusals.suppressed} + ${suppressed}`,
      },
    });
}

/** Refused and suppressed pings of partners on the given local days, keyed `${partnerId} ${day}`. */
export async function refusalsOn(
  deps: Pick<Deps, "db">,
  days: string[],
): Promise<Map<string, { refused: number; suppressed: number }>> {
  if (days.length === 0) return new Map();
  const rows = await deps.db
    .select({
      partnerId: partnerDayRefusals.partnerId,
      day: partnerDayRefusals.day,
      refused: partnerDayRefusals.refused,
      suppressed: partnerDayRefusals.suppressed,
    })
    .from(partnerDayRefusals)
    .where(inArray(partnerDayRefusals.day, days));
  return new Map(
    rows.map((row) => [`${row.partnerId} ${row.day}`, { refused: row.refused, suppressed: row.suppressed }]),
  );
}
