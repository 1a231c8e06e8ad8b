/** Do Not Call lists with their numbers, straight into D1 (decision 0067): the upload's own rules are tested through its routes. */
import { insertInChunks } from "../../../worker/db/bulk-insert";
import { suppressionLists, suppressionNumbers } from "../../../worker/db/schema";
import type { Database } from "./db";

export type SuppressionListOverrides = Partial<typeof suppressionLists.$inferInsert>;

/**
 * An active list holding `numbers` (phone keys), added on day 0 unless `addedOn` says otherwise; by default
 * a litigator list. A buyer's private list needs `kind: "buyer_private"` and `ownerUserId`.
 */
export async function createSuppressionList(
  db: Database,
  numbers: readonly number[],
  overrides: SuppressionListOverrides = {},
  addedOn = 0,
) {
  const [list] = await db
    .insert(suppressionLists)
    .values({ kind: "litigator", name: "Test list", ...overrides, numbers: numbers.length })
    .returning();
  if (!list) throw new Error("the list was not inserted");
  const rows = numbers.map((number) => ({ number, listId: list.id, addedOn }));
  const [first, ...rest] = insertInChunks(db, suppressionNumbers, rows);
  if (first) await db.batch([first, ...rest]);
  return list;
}
