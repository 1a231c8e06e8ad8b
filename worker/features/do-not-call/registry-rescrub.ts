/**
 * What follows a registry swap (worker/features/do-not-call/registry-store.ts): the leads, call-backs and
 * sold items whose number lies in the swapped area code are checked again against that copy of the
 * registry (docs/decisions/0065, 0084). The loader runs the first slice after an area code's swap and
 * hands the rest to the Queue, a bounded slice a message (`registry-rescrub`, each with its declared D1
 * cost); `rescrubAreaCode` runs every slice in process (tests, the bench, an admin's move).
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
      ORDER BY phone_key LIMIT ?3`,
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
      WHERE phone_key > ?1 AND phone_key <= ?2 ORDER BY phone_key LIMIT ?3`,
    same: `SELECT id, phone_key, state, registry_listed_at AS listed, delivered_at AS sold
      FROM callback_opportunities INDEXED BY callback_opportunities_phone_delivered_idx WHERE phone_key = ?1`,
    flag: `UPDATE callback_opportunities SET registry_listed_at = ?2
      WHERE id IN (SELECT value FROM json_each(?1)) AND registry_listed_at IS NULL`,
    clear: `UPDATE callback_opportunities SET registry_listed_at = NULL
      WHERE id IN (SELECT value FROM json_each(?1)) AND registry_listed_at IS NOT NULL`,
  },
  // Billed transfers are only read for their revocations (their phone is text: ten digits only).
  transfer: {
    read: `SELECT id, CAST(phone AS INTEGER) AS phone_key, state, NULL AS listed, routed_at AS sold
      FROM transfers INDEXED BY transfers_phone_routed_idx
      WHERE phone > CAST(?1 AS TEXT) AND phone <= CAST(?2 AS TEXT) AND routed_at >= ?4 AND billable = 1
        AND phone GLOB '${"[0-9]".repeat(10)}'
      ORDER BY phone LIMIT ?3`,
    same: `SELECT id, CAST(phone AS INTEGER) AS phone_key, state, NULL AS listed, routed_at AS sold
      FROM transfers INDEXED BY transfers_phone_routed_idx
      WHERE phone = CAST(?1 AS TEXT) AND routed_at >= ?2 AND billable = 1`,
  },
} as const;

type Table = keyof typeof TABLES;

/**
 * One slice of an area code's re-scrub, a Queue message of its own (`kind: "registry-rescrub"`): at most
 * `RESCRUB_PAGES_PER_SLICE` pages of one table from the phone key `after` on, then the next slice's
 * message. Leads first, then call-backs, then billed transfers (read for their revocations only).
 */
export interface RegistryRescrubMessage {
  kind: "registry-rescrub";
  scope: RegistryScope;
  areaCode: number;
  table: Table;
  after: number;
}

export const isRegistryRescrubMessage = (body: unknown): body is RegistryRescrubMessage =>
  typeof body === "object" && body !== null && (body as { kind?: unknown }).kind === "registry-rescrub";

/** Pages one slice reads at most. */
const RESCRUB_PAGES_PER_SLICE = 5;

/**
 * D1 queries one slice costs at most: the copy's list row (a read, and at its first swap an insert and a
 * read again), per page a read, a re-read of its last number and two writes, and a revocation statement
 * per page's numbers (a page holds at most PAGE numbers, REVOCATION_CHUNK to a statement).
 */
export const rescrubSliceQueries = (pages: number) => 3 + pages * 5;
export const MAX_QUERIES_PER_RESCRUB_MESSAGE = rescrubSliceQueries(RESCRUB_PAGES_PER_SLICE);

/** A slice's size: the Queue's is fixed; a test may shrink it to cross slices with a few rows. */
export interface RescrubLimits {
  page: number;
  pages: number;
}
const SLICE: RescrubLimits = { page: PAGE, pages: RESCRUB_PAGES_PER_SLICE };

const bounds = (areaCode: number) => ({ low: areaCode * 10_000_000, high: areaCode * 10_000_000 + 9_999_999 });

/** The first slice of `areaCode`'s re-scrub against `scope`'s new version. */
export const firstRescrubMessage = (scope: RegistryScope, areaCode: number): RegistryRescrubMessage => ({
  kind: "registry-rescrub",
  scope,
  areaCode,
  table: "lead",
  after: bounds(areaCode).low - 1,
});

const NEXT_TABLE: Record<Table, Table | null> = { lead: "callback", callback: "transfer", transfer: null };

/**
 * Runs one slice; answers what it flagged and cleared and the next slice (null: the area code is done).
 * Delivered again, it changes nothing twice: flags are set and cleared only where they differ, and a
 * revocation is written once per (item, list).
 */
export async function rescrubSlice(
  deps: Deps,
  message: RegistryRescrubMessage,
  limits: RescrubLimits = SLICE,
): Promise<{ result: RescrubResult; next: RegistryRescrubMessage | null }> {
  const { high } = bounds(message.areaCode);
  const since = revocationSince(deps.now);
  const result: RescrubResult = { flagged: 0, cleared: 0 };
  // The copy's list row (what sales record and revocations name) exists from its first swap on.
  const listId = await registryListId(deps, message.scope);
  // Numbers of items sold in the last 5 years, with their state: the candidates for a revocation.
  const sold = new Map<number, string | null>();
  let after: number | null = message.after;
  for (let page = 0; page < limits.pages && after !== null; page++) {
    const read = await readPage(deps, message.table, after, high, since, limits.page);
    if (read.rows.length > 0) await settlePage(deps, message.table, read.rows, since, sold, result);
    after = read.last;
  }
  await revokeSold(deps, message.scope, listId, sold);
  if (after !== null) return { result, next: { ...message, after } };
  const table = NEXT_TABLE[message.table];
  return { result, next: table === null ? null : { ...firstRescrubMessage(message.scope, message.areaCode), table } };
}

/** The Queue's side: one slice, then the next slice's message when more remain. */
export async function continueRescrub(deps: Deps, message: RegistryRescrubMessage): Promise<void> {
  const { next } = await rescrubSlice(deps, message);
  if (next) await deps.env.IMPORT_QUEUE.send(next);
}

/** Re-checks every listed and sold item in `swap.areaCode` against `scope`'s new version, slice after slice. */
export async function rescrubAreaCode(
  deps: Deps,
  scope: RegistryScope,
  swap: Pick<RegistrySwap, "areaCode">,
  limits: RescrubLimits = SLICE,
): Promise<RescrubResult> {
  const total: RescrubResult = { flagged: 0, cleared: 0 };
  for (let message: RegistryRescrubMessage | null = firstRescrubMessage(scope, swap.areaCode); message; ) {
    const { result, next } = await rescrubSlice(deps, message, limits);
    total.flagged += result.flagged;
    total.cleared += result.cleared;
    message = next;
  }
  return total;
}

/** Flags and clears a page's leads or call-backs, and notes its sold numbers. */
async function settlePage(
  deps: Deps,
  table: Table,
  rows: ScrubRow[],
  since: number,
  sold: Map<number, string | null>,
  result: RescrubResult,
): Promise<void> {
  for (const row of rows) if (row.sold !== null && row.sold >= since) sold.set(row.phone_key, row.state);
  if (table === "transfer") return;
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
  }
  const statements = [
    ...(flag.length > 0 ? [deps.env.DB.prepare(TABLES[table].flag).bind(JSON.stringify(flag), deps.now)] : []),
    ...(clear.length > 0 ? [deps.env.DB.prepare(TABLES[table].clear).bind(JSON.stringify(clear))] : []),
  ];
  if (statements.length > 0) await deps.env.DB.batch(statements);
  result.flagged += flag.length;
  result.cleared += clear.length;
}

/**
 * One page of `table`'s rows with a phone key in (after, high], every row of a number in one page; `last`
 * is the key the next page starts after (null: none remain).
 */
async function readPage(
  deps: Deps,
  table: Table,
  after: number,
  high: number,
  since: number,
  page: number,
): Promise<{ rows: ScrubRow[]; last: number | null }> {
  const read = deps.env.DB.prepare(TABLES[table].read);
  const { results } = await (table === "transfer"
    ? read.bind(after, high, page, since)
    : read.bind(after, high, page)
  ).all<ScrubRow>();
  const last = results.at(-1)?.phone_key;
  if (last === undefined || results.length < page) return { rows: results, last: null };
  // The page may have cut the last number's items in two: that number is read whole.
  const same = deps.env.DB.prepare(TABLES[table].same);
  const { results: whole } = await (table === "transfer" ? same.bind(last, since) : same.bind(last)).all<ScrubRow>();
  return { rows: [...results.filter((row) => row.phone_key !== last), ...whole], last: last < high ? last : null };
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
