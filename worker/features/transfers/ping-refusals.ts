/**
 * Pings answered without a route, per partner and local day (docs/decisions/0050): every 409 of a ping
 * adds one to `refused`, and a `suppressed`, `calling_window` or `call_limit` one (docs/decisions/0064)
 * also to its own count. Routed pings are the partner's transfers of the day (`partner_day_calls`), so the
 * day's pings are calls + refused; the admin's Fulfilment tab shows each partner's suppressed share of
 * them and the partner portal today's refusals by those reasons. Written only when a ping is refused: the
 * routed path writes nothing more.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { NoRouteReason } from "../../../src/features/transfers/transfers";
import { partnerDayRefusals } from "../../db/schema";
import type { Deps } from "../../deps";

/** A day's refused pings, and those among them counted by reason. */
export interface DayRefusals {
  refused: number;
  suppressed: number;
  callingWindow: number;
  callLimit: number;
}

const NONE: DayRefusals = { refused: 0, suppressed: 0, callingWindow: 0, callLimit: 0 };

/** Counts one refused ping of `partnerId` on its local day `day`. */
export async function recordRefusal(
  deps: Pick<Deps, "db">,
  partnerId: string,
  day: string,
  reason: NoRouteReason,
): Promise<void> {
  const suppressed = reason === "suppressed" ? 1 : 0;
  const callingWindow = reason === "calling_window" ? 1 : 0;
  const callLimit = reason === "call_limit" ? 1 : 0;
  await deps.db
    .insert(partnerDayRefusals)
    .values({ partnerId, day, refused: 1, suppressed, callingWindow, callLimit })
    .onConflictDoUpdate({
      target: [partnerDayRefusals.partnerId, partnerDayRefusals.day],
      set: {
        refused: sql`${partnerDayRefusals.refused} + 1`,
        suppressed: sql`${partnerDayRefusals.suppressed} + ${suppressed}`,
        callingWindow: sql`${partnerDayRefusals.callingWindow} + ${callingWindow}`,
        callLimit: sql`${partnerDayRefusals.callLimit} + ${callLimit}`,
      },
    });
}

const columns = {
  partnerId: partnerDayRefusals.partnerId,
  day: partnerDayRefusals.day,
  refused: partnerDayRefusals.refused,
  suppressed: partnerDayRefusals.suppressed,
  callingWindow: partnerDayRefusals.callingWindow,
  callLimit: partnerDayRefusals.callLimit,
};
const countsOf = ({ refused, suppressed, callingWindow, callLimit }: DayRefusals) => ({
  refused,
  suppressed,
  callingWindow,
  callLimit,
});

/** Refused pings of partners on the given local days, by reason, keyed `${partnerId} ${day}`. */
export async function refusalsOn(deps: Pick<Deps, "db">, days: string[]): Promise<Map<string, DayRefusals>> {
  if (days.length === 0) return new Map();
  const rows = await deps.db.select(columns).from(partnerDayRefusals).where(inArray(partnerDayRefusals.day, days));
  return new Map(rows.map((row) => [`${row.partnerId} ${row.day}`, countsOf(row)]));
}

/** One partner's refused pings on its local day `day` (one primary-key seek). */
export async function partnerRefusalsOn(deps: Pick<Deps, "db">, partnerId: string, day: string): Promise<DayRefusals> {
  const [row] = await deps.db
    .select(columns)
    .from(partnerDayRefusals)
    .where(and(eq(partnerDayRefusals.partnerId, partnerId), eq(partnerDayRefusals.day, day)));
  return row ? countsOf(row) : { ...NONE };
}
