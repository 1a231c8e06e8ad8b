/**
 * What each sale and routed transfer was checked against, and what a buyer learns afterwards
 * (product rule 40; docs/decisions/0042). A sale or a claim writes one `suppression_checks` row per list that
 * applied (every active shared list and the buyer's private list), in its own transaction, copying the
 * list's kind, name, refreshed-on day and size. A number that reaches a list after the purchase is flagged
 * in My Leads and the Lead Tracker ("Added to Do Not Call on …").
 */
import { and, type SQL, sql } from "drizzle-orm";
import { dayOfNumber, phoneKey, type SuppressionCheckSubject } from "../../../src/features/do-not-call/suppression";
import { suppressionChecks, suppressionLists } from "../../db/schema";
import type { Deps } from "../../deps";
import { listsForBuyer, onListNow } from "./suppression-rules";

/**
 * The statement that records a subject's checks, for the batch that sells or claims it: written only when
 * `when` holds in that batch (the order became paid, the transfer was inserted).
 */
export function recordChecksStatement(
  deps: Pick<Deps, "db">,
  subject: { type: SuppressionCheckSubject; id: string; userId: string | null },
  now: number,
  when: SQL,
) {
  const { db } = deps;
  return db
    .insert(suppressionChecks)
    .select(
      db
        .select({
          subjectType: sql<SuppressionCheckSubject>`${subject.type}`.as("subject_type"),
          subjectId: sql<string>`${subject.id}`.as("subject_id"),
          listId: suppressionLists.id,
          listKind: suppressionLists.kind,
          listName: suppressionLists.name,
          refreshedOn: suppressionLists.refreshedOn,
          listNumbers: suppressionLists.numbers,
          checkedAt: sql<Date>`${now}`.as("checked_at"),
        })
        .from(suppressionLists)
        .where(and(listsForBuyer(subject.userId), when)),
    )
    .onConflictDoNothing();
}

/**
 * For a buyer's purchased numbers (phones as stored), the day each was added to a list that applies to
 * that buyer, when that was on or after the purchase day: `purchasedAt` per phone. One query for a page.
 */
export async function suppressedAfterPurchase(
  deps: Pick<Deps, "db">,
  userId: string,
  items: readonly { phone: string; purchasedAt: number }[],
): Promise<Map<string, string>> {
  const keys = [...new Set(items.map((item) => phoneKey(item.phone)).filter((key) => key !== null))];
  if (keys.length === 0) return new Map();
  const rows = await deps.db.all<{ number: number; added_on: number }>(sql`
    SELECT n.number, min(n.added_on) AS added_on FROM suppression_numbers n
    JOIN suppression_lists l ON l.id = n.list_id
    WHERE n.number IN (SELECT value FROM json_each(${JSON.stringify(keys)})) AND l.status = 'active'
      AND (l.owner_user_id IS NULL OR l.owner_user_id = ${userId}) AND ${sql.raw(onListNow("n", "l"))}
    GROUP BY n.number`);
  const addedOn = new Map(rows.map((row) => [row.number, row.added_on]));
  const flags = new Map<string, string>();
  for (const item of items) {
    const day = addedOn.get(phoneKey(item.phone) ?? 0);
    // A number on a list the day of the purchase or later: it was checked clean then, so it came after.
    if (day !== undefined && day >= Math.floor(item.purchasedAt / 86_400_000)) flags.set(item.phone, dayOfNumber(day));
  }
  return flags;
}

/**
 * Which of these leads nobody may have now: an active shared list holds their number. Never the buyer's
 * private list: a reservation's answer must not depend on it (docs/decisions/0049).
 */
export async function suppressedLeadIds(deps: Pick<Deps, "db">, leadIds: readonly string[]): Promise<Set<string>> {
  if (leadIds.length === 0) return new Set();
  const rows = await deps.db.all<{ id: string }>(sql`
    SELECT id FROM aged_leads WHERE id IN (SELECT value FROM json_each(${JSON.stringify(leadIds)}))
      AND suppressed_at IS NOT NULL`);
  return new Set(rows.map((row) => row.id));
}
