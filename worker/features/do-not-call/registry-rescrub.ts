/**
 * What follows a registry swap (worker/features/do-not-call/registry-store.ts): the leads, call-backs and
 * sold items whose number lies in the swapped area code are checked again against that copy of the
 * registry (docs/decisions/0065, 0084). The loader calls this once per applied file, after the swap.
 *
 * Leads and call-backs carry the registry's verdict (`registry_listed_at`; an unsold lead's
 * `suppressed_at` with it), so the marketplace stays one indexed query. Every lead and call-back whose
 * phone key lies in AAA0000000..AAA9999999 is read a page at a time (the phone-key indexes), checked
 * against every copy that applies to it (the national one and its state's: the verdict is recomputed
 * whole, so a swap of one copy never clears what another holds), and its flags set or cleared; a D1
 * shared list still holding a cleared number keeps the lead suppressed. Numbers sold in the last 5 years
 * (aged leads, billed transfers, delivered call-backs) that the swapped copy now holds go through the
 * revocation path (revocations.ts, docs/decisions/0082): each buyer is told once per item and list.
 *
 * Raw D1 statements: a full list re-scrubs every lead of an area code (a million leads within two
 * minutes, docs/decisions/0084), one read and at most two writes per page.
 */
import { revocationSince } from "../../../src/features/do-not-call/revocations";
import type { Deps } from "../../deps";
import { registryAnswer, registryListId, stateOfNumber } from "./registry-checks";
import { listedOnRegistry, type RegistryScope, type RegistrySwap } from "./registry-store";
import { revocationsStatement } from "./revocations";
import { sharedListHolds } from "./suppression-rules";

/** How many items the re-check flagged and cleared. */
export interface RescrubResult {
  flagged: number;
  cleared: number;
}

/** Items read per page: a page's ids travel as one JSON value, well under D1's statement size. */
const PAGE = 2_000;
/** Numbers per revocation statement (revocations.ts: a batch's 2,000). */
const REVOCATION_CHUNK = 2_000;

interface ScrubRow {
  id: string;
  phone_key: number;
  state: string | null;
  listed: number | null;
  sold: number | null;
}

/** The two tables whose rows carry the verdict, and how a cleared lead may be listed again. */
const TABLES = {
  lead: {
    read: `SELECT id, phone_key, state, registry_listed_at AS listed, sold_at AS sold
      FROM aged_leads INDEXED BY aged_leads_phone_key_idx WHERE phone_key > ?1 AND phone_key <= ?2
      ORDER BY phone_key LIMIT ${PAGE}`,
    same: `SELECT id, phone_key, state, registry_listed_at AS listed, sold_at AS sold
      FROM aged_leads INDEXED BY aged_leads_phone_key_idx WHERE phone_key = ?1`,
    flag: `UPDATE aged_leads SET registry_listed_at = ?2,
        suppressed_at = CASE WHEN sold_at IS NULL THEN coalesce(suppressed_at, ?2) ELSE suppressed_at END
      WHERE id IN (SELECT value FROM json_each(?1)) AND registry_listed_at IS NULL`,
    clear: `UPDATE aged_leads SET registry_listed_at = NULL,
        suppressed_at = CASE WHEN sold_at IS NULL AND NOT ${sharedListHolds("aged_leads.phone_key")} THEN NULL
          ELSE suppressed_at END
      WHERE id IN (SELECT value FROM json_each(?1)) AND registry_listed_at IS NOT NULL`,
  },
  callback: {
    read: `SELECT id, phone_key, state, registry_listed_at AS listed, delivered_at AS sold
      FROM callback_opportunities INDEXED BY callback_opportunities_phone_delivered_idx
      WHERE phone_key > ?1 AND phone_key <= ?2 ORDER BY phone_key LIMIT ${PAGE}`,
    same: `SELECT id, phone_key, state, registry_listed_at AS listed, delivered_at AS sold
      FROM callback_opportunities INDEXED BY callback_opportunities_phone_delivered_idx WHERE phone_key = ?1`,
    flag: `UPDATE callback_opportunities SET registry_listed_at = ?2
      WHERE id IN (SELECT value FROM json_each(?1)) AND registry_listed_at IS NULL`,
    clear: `UPDATE callback_opportunities SET registry_listed_at = NULL
      WHERE id IN (SELECT value FROM json_each(?1)) AND registry_listed_at IS NOT NULL`,
  },
} as const;

/** Re-checks every listed and sold item in `swap.areaCode` against `scope`'s new version. */
export async function rescrubAreaCode(deps: Deps, scope: RegistryScope, swap: RegistrySwap): Promise<RescrubResult> {
  const low = swap.areaCode * 10_000_000;
  const high = low + 9_999_999;
  const since = revocationSince(deps.now);
  const result: RescrubResult = { flagged: 0, cleared: 0 };
  // The copy's list row (what sales record and revocations name) exists from its first swap on.
  const listId = await registryListId(deps, scope);
  // Numbers of items sold in the last 5 years, with their state: the candidates for a revocation.
  const sold = new Map<number, string | null>();
  for (const table of ["lead", "callback"] as const) {
    await scanRange(deps, table, low, high, async (rows) => {
      const answer = await registryAnswer(
        deps,
        rows.map((row) => ({ key: row.phone_key, state: row.state })),
      );
      const flag: string[] = [];
      const clear: string[] = [];
      for (const row of rows) {
        const held = answer.scopeOf({ key: row.phone_key, state: row.state }) !== null;
        if (held && row.listed === null) flag.push(row.id);
        if (!held && row.listed !== null) clear.push(row.id);
        if (row.sold !== null && row.sold >= since) sold.set(row.phone_key, row.state);
      }
      const statements = [
        ...(flag.length > 0 ? [deps.env.DB.prepare(TABLES[table].flag).bind(JSON.stringify(flag), deps.now)] : []),
        ...(clear.length > 0 ? [deps.env.DB.prepare(TABLES[table].clear).bind(JSON.stringify(clear))] : []),
      ];
      if (statements.length > 0) await deps.env.DB.batch(statements);
      result.flagged += flag.length;
      result.cleared += clear.length;
    });
  }
  const transfers = await deps.env.DB.prepare(
    `SELECT DISTINCT phone, state FROM transfers INDEXED BY transfers_phone_routed_idx
     WHERE phone >= ?1 AND phone <= ?2 AND routed_at >= ?3 AND billable = 1`,
  )
    .bind(String(low), String(high), since)
    .all<{ phone: string; state: string | null }>();
  for (const row of transfers.results) {
    const key = Number(row.phone);
    if (Number.isInteger(key) && key >= low && key <= high) sold.set(key, row.state);
  }
  await revokeSold(deps, scope, listId, sold);
  return result;
}

/** Reads `table`'s rows with a phone key in [low, high] a page at a time (every row of a key in one page). */
async function scanRange(
  deps: Deps,
  table: keyof typeof TABLES,
  low: number,
  high: number,
  each: (rows: ScrubRow[]) => Promise<void>,
): Promise<void> {
  for (let after = low - 1; after < high; ) {
    const { results } = await deps.env.DB.prepare(TABLES[table].read).bind(after, high).all<ScrubRow>();
    if (results.length === 0) return;
    const last = results.at(-1)?.phone_key ?? high;
    let rows = results;
    if (results.length === PAGE) {
      // The page may have cut the last number's items in two: that number is read whole.
      const { results: same } = await deps.env.DB.prepare(TABLES[table].same).bind(last).all<ScrubRow>();
      rows = [...results.filter((row) => row.phone_key !== last), ...same];
    }
    await each(rows);
    if (results.length < PAGE) return;
    after = last;
  }
}

/**
 * The sold numbers (`sold`: key → the item's state) that `scope`'s new version holds, for numbers it
 * applies to, go through the revocation path: one row per (item, list), written once (its unique index).
 */
async function revokeSold(
  deps: Deps,
  scope: RegistryScope,
  listId: number,
  sold: Map<number, string | null>,
): Promise<void> {
  const keys = [...sold]
    .filter(([key, state]) => scope === "national" || stateOfNumber(key, state) === scope)
    .map(([key]) => key);
  if (keys.length === 0) return;
  const held = [...(await listedOnRegistry(deps, keys, undefined, scope))];
  if (held.length === 0) return;
  const statements = [];
  for (let start = 0; start < held.length; start += REVOCATION_CHUNK) {
    const chunk = held.slice(start, start + REVOCATION_CHUNK);
    statements.push(revocationsStatement(deps, JSON.stringify(chunk), { id: listId }));
  }
  await deps.env.DB.batch(statements);
}
