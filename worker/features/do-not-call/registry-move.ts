/**
 * The move off the old storage (docs/decisions/0084): the national and state lists kept as D1 rows
 * (`suppression_numbers`) move into the registry store, area code by area code. Migration 0047 marked them
 * (`suppression_lists.registry_move = 'pending'`); the 5-minute cron moves a few area codes a run:
 *
 * 1. the list's lowest area code still in D1, read a page at a time (suppression_numbers_list_idx);
 * 2. stored in the list's registry copy (national, or the list's state) all at once: as the full list
 *    when the copy has no version for that area code yet, else added to it by a change list (a copy the
 *    loader stored since keeps its numbers, and gains the old ones: nothing leaves);
 * 3. the area code re-scrubbed (leads and call-backs get their `registry_listed_at`), then its rows deleted.
 *
 * Until an area code's rows are deleted both the rows and the copy hold its numbers, so no check ever
 * sees a moved number unsuppressed. A list with no rows left is `done`. Raw D1 on the list's index: a
 * national area code holds up to about 720,000 numbers.
 */
import type { Deps } from "../../deps";
import { registryListId } from "./registry-checks";
import { rescrubAreaCode } from "./registry-rescrub";
import {
  applyRegistryChangeList,
  hasRegistryVersion,
  type RegistryScope,
  storeRegistryFullList,
} from "./registry-store";

/** Area codes moved per cron run at most: each is up to a megabyte of bits and a few hundred thousand rows. */
const AREA_CODES_PER_RUN = 4;
/** Numbers read, and rows deleted, per statement. */
const PAGE = 50_000;

interface MovingList {
  id: number;
  kind: string;
  state: string | null;
}

/** Moves up to `budget` area codes of the pending lists; answers how many it moved. */
export async function moveListsToRegistry(deps: Deps, budget = AREA_CODES_PER_RUN): Promise<number> {
  const db = deps.env.DB;
  let moved = 0;
  while (moved < budget) {
    const list = await db
      .prepare(
        `SELECT id, kind, state FROM suppression_lists WHERE registry_move = 'pending' AND status = 'active'
         ORDER BY id LIMIT 1`,
      )
      .first<MovingList>();
    if (!list) break;
    const first = await db
      .prepare(
        `SELECT number FROM suppression_numbers INDEXED BY suppression_numbers_list_idx WHERE list_id = ?1
         ORDER BY number LIMIT 1`,
      )
      .bind(list.id)
      .first<{ number: number }>();
    if (!first) {
      await db.prepare("UPDATE suppression_lists SET registry_move = 'done' WHERE id = ?1").bind(list.id).run();
      continue;
    }
    await moveAreaCode(deps, list, Math.floor(first.number / 10_000_000));
    moved += 1;
  }
  return moved;
}

async function moveAreaCode(deps: Deps, list: MovingList, areaCode: number): Promise<void> {
  const db = deps.env.DB;
  const scope = (list.kind === "national_dnc" ? "national" : (list.state ?? "").toUpperCase()) as RegistryScope;
  const low = areaCode * 10_000_000;
  const high = low + 9_999_999;
  const numbers: number[] = [];
  for (let after = low - 1; ; ) {
    const { results } = await db
      .prepare(
        `SELECT number FROM suppression_numbers INDEXED BY suppression_numbers_list_idx
         WHERE list_id = ?1 AND number > ?2 AND number <= ?3 ORDER BY number LIMIT ${PAGE}`,
      )
      .bind(list.id, after, high)
      .all<{ number: number }>();
    for (const row of results) numbers.push(row.number);
    if (results.length < PAGE) break;
    after = results.at(-1)?.number ?? high;
  }
  // A number outside the dialable area codes (the store's 200-999 hold every phone key) cannot occur; the
  // rows are deleted only once the copy holds them.
  const swap = (await hasRegistryVersion(deps, scope, areaCode))
    ? await applyRegistryChangeList(deps, scope, areaCode, numbers.map((key) => `${key},A\n`).join(""))
    : await storeRegistryFullList(deps, scope, areaCode, numbers.map((key) => `${key}\n`).join(""));
  // The copy's list is this list when it is the oldest of its kind: revocations then see the rows and
  // revoke nothing already told (revocations.ts).
  await registryListId(deps, scope);
  await rescrubAreaCode(deps, scope, swap);
  for (;;) {
    const deleted = await db
      .prepare(
        `DELETE FROM suppression_numbers WHERE list_id = ?1 AND number IN (
           SELECT number FROM suppression_numbers INDEXED BY suppression_numbers_list_idx
           WHERE list_id = ?1 AND number BETWEEN ?2 AND ?3 LIMIT ${PAGE})`,
      )
      .bind(list.id, low, high)
      .run();
    if (deleted.meta.changes < PAGE) break;
  }
}
