/**
 * The suppression rule as SQL, in one place (product rule 40, docs/decisions/0042): which lists
 * count, for whom. A number is suppressed for everyone while an *active shared* list holds it (every kind
 * but `buyer_private`); a buyer's private list counts for that buyer only, and for aged leads only when
 * an order is paid (docs/decisions/0049: before payment it changes nothing the buyer can see). Leads carry
 * the shared verdict (`aged_leads.suppressed_at`, kept by the list changes and by the insert trigger of
 * migration 0018); a sale, pings and imports ask `suppression_numbers` directly, one seek by number, beside
 * the registry copies in R2 (registry-checks.ts, docs/decisions/0084).
 *
 * Raw SQL fragments (strings for D1 statements that bind by position, drizzle `sql` for the services that
 * build with it): the statements that use them bulk-apply JSON lists or must stay one statement.
 */
import { type SQL, sql } from "drizzle-orm";

/** A list that scrubs every buyer, as the alias `l` of suppression_lists. */
const SHARED_ACTIVE = "l.owner_user_id IS NULL AND l.status = 'active'";

/** SQL text: an active shared list holds the number `number` (an SQL expression). */
export const sharedListHolds = (number: string) =>
  `EXISTS (SELECT 1 FROM suppression_numbers n JOIN suppression_lists l ON l.id = n.list_id
    WHERE n.number = ${number} AND ${SHARED_ACTIVE})`;

/** drizzle: an active shared list holds `number`. */
const sharedListHoldsSql = (number: SQL | number) =>
  sql`EXISTS (SELECT 1 FROM suppression_numbers n JOIN suppression_lists l ON l.id = n.list_id
    WHERE n.number = ${number} AND l.owner_user_id IS NULL AND l.status = 'active')`;

/**
 * drizzle: the number is suppressed for everyone (docs/decisions/0084): a registry copy that applies holds it
 * (`registry`: registry-checks.ts's answer, asked before the statement, or the item's `registry_listed_at`
 * column) or an active shared list does.
 */
export const suppressedSql = (number: SQL | number, registry: boolean | SQL) =>
  sql`(${typeof registry === "boolean" ? sql.raw(registry ? "1" : "0") : sql`${registry} IS NOT NULL`} OR ${sharedListHoldsSql(number)})`;

/**
 * SQL text: the row `n` of suppression_numbers is on its list `l` now (docs/decisions/0066). A private list's
 * full upload writes its numbers beside the list (`staged_by` above the list's version: not yet on it)
 * and, once swapped in, hides the old version's numbers until they are deleted (`sweeping_upload_id`).
 * Always true for a shared list, which is changed in place.
 */
export const onListNow = (n: string, l: string) =>
  `(${n}.staged_by IS NULL OR ${n}.staged_by <= ${l}.version_upload_id)
    AND (${l}.sweeping_upload_id IS NULL OR ${n}.last_upload_id = ${l}.sweeping_upload_id)`;

/** drizzle: the active private list of the buyer `userId` (an expression, e.g. `o.user_id`) holds `number`. */
export const privateListHoldsSql = (number: SQL | number, userId: SQL | string) =>
  sql`EXISTS (SELECT 1 FROM suppression_numbers pn JOIN suppression_lists pl ON pl.id = pn.list_id
    WHERE pn.number = ${number} AND pl.owner_user_id = ${userId} AND pl.status = 'active'
      AND ${sql.raw(onListNow("pn", "pl"))})`;

/**
 * The lists that apply to a buyer's purchase: every active shared list, and the buyer's own; of the state
 * lists, only those of `states` (the states of the numbers sold, as a list or a subquery;
 * docs/decisions/0084) when given, and a state list that names no state.
 */
export const listsForBuyer = (userId: SQL | string | null, states?: readonly string[] | SQL) => {
  const inStates = Array.isArray(states) ? sql`SELECT value FROM json_each(${JSON.stringify(states)})` : states;
  return sql`status = 'active' AND (owner_user_id IS NULL OR owner_user_id = ${userId ?? ""})${
    inStates ? sql` AND (kind <> 'state_dnc' OR state IS NULL OR state IN (${inStates}))` : sql``
  }`;
};

/** Now as D1 stores times (epoch milliseconds). */
export const NOW_MS = "CAST(unixepoch('subsec') * 1000 AS INTEGER)";
