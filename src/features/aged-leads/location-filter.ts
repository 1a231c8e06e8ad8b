/**
 * The aged-lead location filter (product rule 13): comma-separated terms,
 * case-insensitive. A lead matches when its state contains a term, or a term of exactly 3 digits equals
 * its area code, or a term is exactly 5 digits (a ZIP: leads carry no ZIP, so every lead is taken to
 * serve it and the term matches all). A term never matches a part of the phone beyond the area code, so
 * masked numbers cannot be rebuilt through the filter.
 *
 * The Worker expands the terms into exact keys (`locationKeys`: the matching states among those that
 * exist, and the area codes) and looks them up in indexes; `leadMatchesLocation` states the rule for a
 * single lead.
 */
export interface LocationTerm {
  /** Lower-cased term, matched inside the state. */
  text: string;
  /** The term is exactly 3 digits: also equal to an area code. */
  areaCode: string | null;
  /** The term is exactly 5 digits: matches every lead. */
  matchesAll: boolean;
}

const MAX_LOCATION_TERMS = 20;

const AREA_CODE = /^\d{3}$/;
const ZIP = /^\d{5}$/;

export function parseLocationFilter(filter: string | null | undefined): LocationTerm[] {
  return (filter ?? "")
    .split(",")
    .map((term) => term.trim().toLowerCase())
    .filter((term) => term.length > 0)
    .slice(0, MAX_LOCATION_TERMS)
    .map((text) => ({ text, areaCode: AREA_CODE.test(text) ? text : null, matchesAll: ZIP.test(text) }));
}

export function leadMatchesLocation(lead: { state: string; areaCode: string }, terms: readonly LocationTerm[]) {
  if (terms.length === 0) return true;
  return terms.some(
    (term) => term.matchesAll || lead.state.toLowerCase().includes(term.text) || term.areaCode === lead.areaCode,
  );
}

/** What a filter selects, as exact index keys: everything, or these states or these area codes. */
export type LocationKeys = { all: true } | { all: false; states: string[]; areaCodes: string[] };

/** Expands the terms against the states that exist (each kept as stored) into exact keys. */
export function locationKeys(terms: readonly LocationTerm[], knownStates: Iterable<string>): LocationKeys {
  if (terms.length === 0 || terms.some((term) => term.matchesAll)) return { all: true };
  const states = [...new Set(knownStates)].filter((state) => {
    const lower = state.toLowerCase();
    return terms.some((term) => lower.includes(term.text));
  });
  const areaCodes = [...new Set(terms.flatMap((term) => (term.areaCode ? [term.areaCode] : [])))];
  return { all: false, states, areaCodes };
}

/** Whether a lead with this state and area code is selected by the keys (same answer as the rule above). */
export function keysMatch(keys: LocationKeys, lead: { state: string; areaCode: string }): boolean {
  return keys.all || keys.states.includes(lead.state) || keys.areaCodes.includes(lead.areaCode);
}
