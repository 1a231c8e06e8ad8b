/**
 * What each sale and routed transfer was checked against, and what a buyer learns afterwards
 * (product rule 40; docs/decisions/0042). A sale or a claim writes one `suppression_checks` row per list that
 * applied (every active shared list and the buyer's private list), in its own transaction, copying the
 * list's kind, name, refreshed-on day and size; a registry copy is recorded as its list (the national_dnc
 * list, and the state_dnc list of the number's state: docs/decisions/0084). A number that reaches a list after the purchase is flagged
 * in My Leads and the Lead Tracker ("Added to Do Not Call on …").
 */
import { and, type SQL, sql } from "drizzle-orm";
import {
  dayNumber,
  dayOfNumber,
  phoneKey,
  type SuppressionCheckSubject,
} from "../../../src/features/do-not-call/suppression";
import { suppressionChecks, suppressionLists } from "../../db/schema";
import type { Deps } from "../../deps";
import { listedOnRegistry, type RegistryScope } from "./registry-store";
import { listsForBuyer, onListNow } from "./suppression-rules";

/**
 * The statement that records a subject's checks, for the batch that sells or claims it: written only when
 * `when` holds in that batch (the order became paid, the transfer was inserted).
 */
export function recordChecksStatement(
  deps: Pick<Deps, "db">,
  subject: { type: SuppressionCheckSubject; id: string; userId: string | null; states?: readonly string[] | SQL },
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
        .where(and(listsForBuyer(subject.userId, subject.states), when)),
    )
    .onConflictDoNothing();
}

/**
 * For a buyer's purchased numbers (phones as stored), the day each was added to a list that applies to
 * that buyer, when that was on or after the purchase day: `purchasedAt` per phone. One query for a page.
 */
export async function suppressedAfterPurchase(
  deps: Deps,
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
  const phones = [...new Set(items.map((item) => item.phone))];
  for (const [key, day] of await registryAddedOn(deps, userId, phones)) {
    addedOn.set(key, Math.min(addedOn.get(key) ?? day, day));
  }
  const flags = new Map<string, string>();
  for (const item of items) {
    const day = addedOn.get(phoneKey(item.phone) ?? 0);
    // A number on a list the day of the purchase or later: it was checked clean then, so it came after.
    if (day !== undefined && day >= Math.floor(item.purchasedAt / 86_400_000)) flags.set(item.phone, dayOfNumber(day));
  }
  return flags;
}

/**
 * The registry copies keep no day per number: a number this buyer bought that a copy holds now is flagged
 * from the day its revocation was written (registry-rescrub.ts feeds revocations.ts; docs/decisions/0084).
 */
async function registryAddedOn(deps: Deps, userId: string, phones: readonly string[]): Promise<Map<number, number>> {
  const rows = await deps.db.all<{ phone: string; scope: string; created_at: number }>(sql`
    SELECT r.phone, coalesce(l.state, 'national') AS scope, min(r.created_at) AS created_at
    FROM suppression_revocations r JOIN suppression_lists l ON l.id = r.list_id
    WHERE r.user_id = ${userId} AND l.kind IN ('national_dnc', 'state_dnc') AND l.status = 'active'
      AND r.phone IN (SELECT value FROM json_each(${JSON.stringify(phones)}))
    GROUP BY 1, 2`);
  const days = new Map<number, number>();
  for (const [scope, own] of Map.groupBy(rows, (row) => row.scope as RegistryScope)) {
    const keyed = own.flatMap((row) => {
      const key = phoneKey(row.phone);
      return key === null ? [] : [{ key, day: dayNumber(row.created_at) }];
    });
    const held = await listedOnRegistry(
      deps,
      keyed.map((row) => row.key),
      undefined,
      scope,
    );
    for (const { key, day } of keyed) if (held.has(key)) days.set(key, Math.min(days.get(key) ?? day, day));
  }
  return days;
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
