/**
 * Which copies of a Do Not Call registry apply to a number (docs/decisions/0084; product rule 40): the
 * National Registry to every US number, and a state's own list to the numbers of that state. The eleven
 * states that keep their own list load it as a registry copy of its own (scope: the state's two letters),
 * stored like the National Registry (worker/features/do-not-call/registry-store.ts). Pure: no I/O.
 */

/** The registry copy every US number is checked against. */
export const NATIONAL_SCOPE = "national";

/** The states that keep their own Do Not Call list (Colorado … Wyoming), by two-letter code. */
export const STATE_DNC_STATES = ["CO", "FL", "IN", "LA", "MA", "MO", "OK", "PA", "TN", "TX", "WY"] as const;
export type StateDncState = (typeof STATE_DNC_STATES)[number];

export const isStateDncState = (state: string | null | undefined): state is StateDncState =>
  (STATE_DNC_STATES as readonly string[]).includes(state ?? "");

/**
 * A number's state for the state lists: the lead's or prospect's own state when it is a two-letter code,
 * else the state of its area code (`areaCodeState`, which the caller supplies from the area-code table),
 * else none (then only the National Registry applies).
 */
export function numberState(state: string | null | undefined, areaCodeState: () => string | null): string | null {
  const own = state?.trim().toUpperCase() ?? "";
  return /^[A-Z]{2}$/.test(own) ? own : areaCodeState();
}

/** The registry copies that apply to a number of `state`: the national one, and the state's own list if it keeps one. */
export const registryScopesFor = (state: string | null): string[] =>
  isStateDncState(state) ? [NATIONAL_SCOPE, state] : [NATIONAL_SCOPE];

/** The suppression list a registry copy is recorded as (suppression_lists.kind and .state). */
export const registryListOf = (scope: string) =>
  scope === NATIONAL_SCOPE
    ? { kind: "national_dnc" as const, state: null, name: "National Do Not Call Registry" }
    : { kind: "state_dnc" as const, state: scope, name: `${scope} state Do Not Call list` };

/** A national or state list's move from D1 rows into the registry store (suppression_lists.registry_move). */
export const REGISTRY_MOVES = ["pending", "done"] as const;

/** The list kinds kept as registry copies in R2, never as D1 rows (loaded by the registry upload). */
export const REGISTRY_LIST_KINDS = ["national_dnc", "state_dnc"] as const;

/** The old list upload refuses a national or state list: they load through the registry upload. */
export const REGISTRY_UPLOAD_MESSAGE =
  "National and state Do Not Call lists are loaded as registry copies: use the registry upload in the Do Not Call tab (or npm run dnc:load).";
