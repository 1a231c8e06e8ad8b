/**
 * The aged-lead location filter (spec §5): comma-separated terms, case-insensitive. A lead matches when
 * its state contains a term, or a 3-character term is contained in its phone (area code), or a term is
 * exactly 5 digits (a ZIP, which every lead is taken to serve). The worker turns the same parsed terms
 * into SQL; `leadMatchesLocation` states the rule in code for the tests.
 */
export interface LocationTerm {
  /** Lower-cased term, matched inside the state. */
  text: string;
  /** The term is 3 characters long: also matched inside the phone. */
  matchesPhone: boolean;
  /** The term is exactly 5 digits: matches every lead. */
  matchesAll: boolean;
}

export const MAX_LOCATION_TERMS = 20;

export function parseLocationFilter(filter: string | null | undefined): LocationTerm[] {
  return (filter ?? "")
    .split(",")
    .map((term) => term.trim().toLowerCase())
    .filter((term) => term.length > 0)
    .slice(0, MAX_LOCATION_TERMS)
    .map((text) => ({ text, matchesPhone: text.length === 3, matchesAll: /^\d{5}$/.test(text) }));
}

export function leadMatchesLocation(lead: { state: string; phone: string }, terms: readonly LocationTerm[]): boolean {
  if (terms.length === 0) return true;
  return terms.some(
    (term) =>
      term.matchesAll ||
      lead.state.toLowerCase().includes(term.text) ||
      (term.matchesPhone && lead.phone.includes(term.text)),
  );
}
