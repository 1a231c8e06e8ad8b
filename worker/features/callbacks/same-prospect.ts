/**
 * The call-backs' 30-day rule as SQL, in one place (src/features/callbacks/callbacks.ts `SAME_PROSPECT_WINDOW_MS`): a
 * prospect's number never goes to the same buyer twice within 30 days, whether placed in the buyer's
 * call-back order (callbacks.ts) or bought from the marketplace (callback-market.ts, callback-sale.ts,
 * docs/decisions/0075). Raw SQL fragment: it sits inside the conditional UPDATEs that place, reserve and
 * sell, so the rule is checked in the statement that writes. One seek on callback_opportunities_buyer_phone_idx.
 */
import { type SQL, sql } from "drizzle-orm";
import { SAME_PROSPECT_WINDOW_MS } from "../../../src/features/callbacks/callbacks";

/** The buyer `userId` got a call-back of number `phoneKey` (an SQL expression or a value) within 30 days of `now`. */
export const hadProspectSql = (userId: SQL | string, phoneKey: SQL | number, now: number) =>
  sql`EXISTS (SELECT 1 FROM callback_opportunities sp WHERE sp.buyer_user_id = ${userId}
    AND sp.phone_key = ${phoneKey} AND sp.delivered_at > ${now - SAME_PROSPECT_WINDOW_MS})`;
