/**
 * The registry copies in every check (docs/decisions/0084): a number on the National Registry, or on the
 * own list of the state it belongs to (src/features/do-not-call/registry-scopes.ts), is suppressed exactly
 * like a number on a D1 shared list. The copies live in R2 (registry-store.ts), so a check asks them here,
 * before the statement that sells or routes, and hands the answer to its SQL (suppression-rules.ts's
 * `suppressedSql`). Leads and call-backs carry the answer (`registry_listed_at`), kept by
 * registry-rescrub.ts after each swap and by `scrubNewItems` when they arrive.
 */
import areaCodes from "areacodes/lib/data.json" with { type: "json" };
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { isAreaCode } from "../../../src/features/do-not-call/registry-bitmap";
import {
  NATIONAL_SCOPE,
  numberState,
  registryListOf,
  registryScopesFor,
} from "../../../src/features/do-not-call/registry-scopes";
import { suppressionLists } from "../../db/schema";
import type { Deps } from "../../deps";
import { listedOnRegistry, type RegistryScope } from "./registry-store";

const AREA_CODES = areaCodes as Record<string, { stateCode?: string | null }>;

/** The state of a phone key's area code (the `areacodes` table), or null when it names none. */
const areaCodeStateOf = (key: number): string | null =>
  AREA_CODES[String(Math.floor(key / 10_000_000))]?.stateCode ?? null;

/** The state whose own list applies to a number: its lead's or prospect's state, else its area code's. */
export const stateOfNumber = (key: number, state: string | null | undefined) =>
  numberState(state, () => areaCodeStateOf(key));

/** A number to check, with the state of the lead, call-back or prospect it belongs to (when known). */
export interface RegistryItem {
  key: number;
  state: string | null | undefined;
}

/** Which registry copy holds each of a set of numbers: `scopeOf` answers per item (null: none does). */
export interface RegistryAnswer {
  scopeOf(item: RegistryItem): RegistryScope | null;
}

/**
 * Asks the registry copies that apply to each item (national first, then each item's state's own list),
 * one read per copy and area code at most (the store's cache answers the rest).
 */
export async function registryAnswer(deps: Deps, items: readonly RegistryItem[]): Promise<RegistryAnswer> {
  const byScope = new Map<RegistryScope, number[]>([[NATIONAL_SCOPE, []]]);
  for (const item of items) {
    if (!isAreaCode(Math.floor(item.key / 10_000_000))) continue;
    for (const scope of registryScopesFor(stateOfNumber(item.key, item.state)) as RegistryScope[]) {
      const keys = byScope.get(scope);
      if (keys) keys.push(item.key);
      else byScope.set(scope, [item.key]);
    }
  }
  // The copies are read side by side: a Texan's first check reads the national and the Texas copy at once.
  const listed = new Map<RegistryScope, Set<number>>(
    await Promise.all(
      [...byScope]
        .filter(([, keys]) => keys.length > 0)
        .map(async ([scope, keys]) => [scope, await listedOnRegistry(deps, keys, undefined, scope)] as const),
    ),
  );
  return {
    scopeOf(item) {
      for (const scope of registryScopesFor(stateOfNumber(item.key, item.state)) as RegistryScope[]) {
        if (listed.get(scope)?.has(item.key)) return scope;
      }
      return null;
    },
  };
}

/** The registry copy that holds one number of `state`, or null. */
export async function registryHolds(
  deps: Deps,
  key: number | null,
  state: string | null | undefined,
): Promise<RegistryScope | null> {
  if (key === null) return null;
  return (await registryAnswer(deps, [{ key, state }])).scopeOf({ key, state });
}

/**
 * A ping's registry verdict, asked once before routing: whether a copy that applies holds the number
 * (docs/decisions/0084). Whether a stale copy covers the prospect (docs/decisions/0085) is asked in the
 * routing statement itself (list-freshness.ts's `pingRegistryStaleSql`).
 */
export async function pingRegistryHeld(deps: Deps, phone: string, state: string): Promise<boolean> {
  return (await registryHolds(deps, Number(phone), state)) !== null;
}

/**
 * The suppression list a registry copy is recorded as (the sale's checks, the revocations): the oldest
 * active national_dnc list, or the state's state_dnc list; made when the copy is first stored (refreshed
 * on that day until the loader records the download date).
 */
export async function registryListId(deps: Pick<Deps, "db" | "now">, scope: RegistryScope): Promise<number> {
  const list = registryListOf(scope);
  const where = and(
    eq(suppressionLists.kind, list.kind),
    isNull(suppressionLists.ownerUserId),
    eq(suppressionLists.status, "active"),
    list.state === null ? sql`1` : eq(suppressionLists.state, list.state),
  );
  const find = () =>
    deps.db.select({ id: suppressionLists.id }).from(suppressionLists).where(where).orderBy(asc(suppressionLists.id));
  const [found] = await find();
  if (found) return found.id;
  await deps.db.insert(suppressionLists).values({
    kind: list.kind,
    name: list.name,
    state: list.state,
    refreshedOn: new Date(deps.now).toISOString().slice(0, 10),
  });
  const [made] = await find();
  if (!made) throw new Error(`The ${scope} registry list could not be made.`);
  return made.id;
}

/** The keys of `items` a registry copy that applies holds (a new lead batch's verdict, asked before its insert). */
async function registryHeldKeys(deps: Deps, items: readonly RegistryItem[]): Promise<number[]> {
  const answer = await registryAnswer(deps, items);
  return [...new Set(items.filter((item) => answer.scopeOf(item) !== null).map((item) => item.key))];
}

/** `registryHeldKeys` of an import batch's rows, given as their JSON text (`phoneKey` and `state` per row). */
export function registryHeldKeysOfRows(deps: Deps, rows: string): Promise<number[]> {
  const parsed = JSON.parse(rows) as { phoneKey?: number | null; state?: string | null }[];
  return registryHeldKeys(
    deps,
    parsed.flatMap((row) => (typeof row.phoneKey === "number" ? [{ key: row.phoneKey, state: row.state }] : [])),
  );
}
