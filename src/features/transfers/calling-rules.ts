/**
 * When a live transfer may lawfully be taken (docs/decisions/0064): the calling rules as data, federal and
 * per state, each row with its source and the day it took effect, and the pure arithmetic over them. A
 * transfer continues a telemarketing call, so it is allowed only within every rule in force at the
 * prospect's location. Pure: no I/O, no packages (holidays and time zones are looked up by the Worker,
 * worker/features/transfers/calling-window.ts), so views may show the table.
 */

/** [start, end) in minutes after local midnight; null = no calls that day. */
export type DayHours = readonly [start: number, end: number] | null;

export interface CallingRule {
  /** "US" for the federal rule, else the two-letter state code it applies to. */
  jurisdiction: string;
  /** The statute or regulation the row comes from. */
  source: string;
  /** The local day (YYYY-MM-DD) from which the row applies. */
  effectiveFrom: string;
  /** Allowed hours per weekday, Sunday (0) first. */
  hours: readonly DayHours[];
  /** No calls at all on the state's public holidays (date-holidays' `public` type). */
  noCallsOnHolidays: boolean;
  /** At most this many calls to one number on the same subject in 24 hours; null = no such limit. */
  maxCallsPer24Hours: number | null;
}

/** The federal jurisdiction's code in the table. */
export const FEDERAL = "US";

const h = (hour: number) => hour * 60;
const everyDay = (start: number, end: number): DayHours[] => Array.from({ length: 7 }, () => [h(start), h(end)]);
const noSundays = (start: number, end: number): DayHours[] => [null, ...everyDay(start, end).slice(1)];

/**
 * The rule table. Every boundary is on a whole local hour (worker/features/transfers/test/calling-rules.test.ts checks it), so
 * whether a call is allowed changes only at a quarter hour of UTC in every US zone.
 */
export const CALLING_RULES: readonly CallingRule[] = [
  {
    jurisdiction: FEDERAL,
    source: "Telephone Consumer Protection Act, 47 CFR § 64.1200(c)(1); Telemarketing Sales Rule, 16 CFR § 310.4(c)",
    effectiveFrom: "1992-12-20",
    hours: everyDay(8, 21),
    noCallsOnHolidays: false,
    maxCallsPer24Hours: null,
  },
  {
    jurisdiction: "FL",
    source: "Florida Telephone Solicitation Act, Fla. Stat. § 501.059(8) (as amended 2021)",
    effectiveFrom: "2021-07-01",
    hours: everyDay(8, 20),
    noCallsOnHolidays: false,
    maxCallsPer24Hours: 3,
  },
  {
    jurisdiction: "OK",
    source: "Oklahoma Telephone Solicitation Act of 2022, 15 O.S. § 775C.4",
    effectiveFrom: "2022-11-01",
    hours: everyDay(8, 20),
    noCallsOnHolidays: false,
    maxCallsPer24Hours: 3,
  },
  {
    jurisdiction: "MD",
    source: "Maryland Stop the Spam Calls Act of 2023, Md. Code, Com. Law § 14-4503",
    effectiveFrom: "2024-01-01",
    hours: everyDay(8, 20),
    noCallsOnHolidays: false,
    maxCallsPer24Hours: 3,
  },
  {
    jurisdiction: "TX",
    source: "Texas Business and Commerce Code § 301.051, as amended by S.B. 140 (2025)",
    effectiveFrom: "2025-09-01",
    hours: [[h(12), h(21)], ...everyDay(9, 21).slice(1)],
    noCallsOnHolidays: false,
    maxCallsPer24Hours: null,
  },
  {
    jurisdiction: "AL",
    source: "Alabama Public Service Commission telephone solicitation rule, Ala. Admin. Code r. 770-X-5-.16",
    effectiveFrom: "2004-01-01",
    hours: noSundays(8, 21),
    noCallsOnHolidays: true,
    maxCallsPer24Hours: null,
  },
  {
    jurisdiction: "LA",
    source: "Louisiana Telephone Solicitation Relief Act, La. R.S. 45:844.11 et seq.; LPSC General Order R-29617",
    effectiveFrom: "2004-01-01",
    hours: noSundays(8, 21),
    noCallsOnHolidays: true,
    maxCallsPer24Hours: null,
  },
];

/** The rows in force on local day `day` for a prospect in (or numbered in) `states`: federal first. */
export function rulesInForce(states: readonly string[], day: string): CallingRule[] {
  return CALLING_RULES.filter(
    (rule) => (rule.jurisdiction === FEDERAL || states.includes(rule.jurisdiction)) && rule.effectiveFrom <= day,
  );
}

/** The states among `states` whose rules in force on `day` keep holidays free of calls. */
export function holidayStates(states: readonly string[], day: string): string[] {
  return rulesInForce(states, day)
    .filter((rule) => rule.noCallsOnHolidays)
    .map((rule) => rule.jurisdiction);
}

/**
 * The hours allowed on one local day under every rule in force: the intersection of each row's hours for
 * the weekday, or null when no call is allowed that day (a closed weekday, a holiday of a state whose row
 * says so, or hours that do not overlap). `isHoliday(state)` answers for that local day.
 */
export function allowedHours(
  states: readonly string[],
  local: { day: string; weekday: number },
  isHoliday: (state: string) => boolean,
): DayHours {
  let start = 0;
  let end = 24 * 60;
  for (const rule of rulesInForce(states, local.day)) {
    const hours = rule.hours[local.weekday];
    if (!hours) return null;
    if (rule.noCallsOnHolidays && isHoliday(rule.jurisdiction)) return null;
    start = Math.max(start, hours[0]);
    end = Math.min(end, hours[1]);
  }
  return start < end ? [start, end] : null;
}

/** Whether minute `minute` of a day with `hours` allows a call. */
export function withinAllowedHours(hours: DayHours, minute: number): boolean {
  return hours !== null && minute >= hours[0] && minute < hours[1];
}

/** The strictest limit on calls to one number in 24 hours among the rows in force, or null. */
export function callLimit(states: readonly string[], day: string): number | null {
  let limit: number | null = null;
  for (const rule of rulesInForce(states, day)) {
    if (rule.maxCallsPer24Hours !== null) limit = Math.min(limit ?? Number.POSITIVE_INFINITY, rule.maxCallsPer24Hours);
  }
  return limit;
}
