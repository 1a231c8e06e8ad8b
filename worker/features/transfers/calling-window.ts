/**
 * Whether a prospect may be called now, and if not, when (docs/decisions/0064): the calling rules of
 * src/features/transfers/calling-rules.ts in every zone the prospect may be in (prospect-zone.ts), with the states'
 * public holidays from date-holidays. A moment is allowed only when it is allowed in every candidate
 * zone. Pure computation, cached per states, zone and local day, so a ping pays a map lookup (the ping
 * hot path); only refusals search ahead for the next allowed moment.
 */
import Holidays from "date-holidays";
import { type Callable, callableLabel, type WindowFit } from "../../../src/domain/callable";
import { localTime } from "../../../src/domain/time-zones";
import {
  allowedHours,
  callLimit,
  type DayHours,
  holidayStates,
  withinAllowedHours,
} from "../../../src/features/transfers/calling-rules";
import type { Deps } from "../../deps";
import { type PlaceLookups, type ProspectPlace, placeLookups, prospectTimeZone, prospectZones } from "./prospect-zone";

const QUARTER_HOUR_MS = 15 * 60_000;
/** How far ahead the next allowed moment is searched (a weekend and a holiday fit many times over). */
const SEARCH_LIMIT_MS = 14 * 24 * 60 * 60_000;
/** Cached days before the caches are emptied (bounded memory in a long-lived isolate). */
const CACHE_LIMIT = 5000;

const holidayDays = new Map<string, ReadonlySet<string>>();

/** Whether local day `day` (YYYY-MM-DD) is a public holiday of `state` (date-holidays, type `public`). */
export function isStateHoliday(state: string, day: string): boolean {
  const year = day.slice(0, 4);
  const key = `${state} ${year}`;
  let days = holidayDays.get(key);
  if (!days) {
    const holidays = new Holidays("US", state, { types: ["public"] });
    const list = holidays.getHolidays(Number(year)) || [];
    days = new Set(list.filter((holiday) => holiday.type === "public").map((holiday) => holiday.date.slice(0, 10)));
    if (holidayDays.size >= CACHE_LIMIT) holidayDays.clear();
    holidayDays.set(key, days);
  }
  return days.has(day);
}

const hoursCache = new Map<string, DayHours>();

/** The allowed hours of one local day in one zone for a prospect under `states`' rules (cached). */
function hoursOn(states: readonly string[], local: { day: string; weekday: number }): DayHours {
  const key = `${states.join(",")} ${local.day}`;
  let hours = hoursCache.get(key);
  if (hours === undefined) {
    const keepsHolidays = holidayStates(states, local.day);
    hours = allowedHours(states, local, (state) => keepsHolidays.includes(state) && isStateHoliday(state, local.day));
    if (hoursCache.size >= CACHE_LIMIT) hoursCache.clear();
    hoursCache.set(key, hours);
  }
  return hours;
}

/** Whether moment `at` is allowed in every zone. */
function allowedAt(states: readonly string[], zones: readonly string[], at: number): boolean {
  return zones.every((zone) => {
    const local = localTime(at, zone);
    return withinAllowedHours(hoursOn(states, local), local.minute);
  });
}

/** The first moment at or after `from` allowed in every zone (rule boundaries fall on quarter hours of UTC). */
export function nextAllowedMoment(states: readonly string[], zones: readonly string[], from: number): number | null {
  if (allowedAt(states, zones, from)) return from;
  for (
    let at = Math.ceil(from / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
    at <= from + SEARCH_LIMIT_MS;
    at += QUARTER_HOUR_MS
  ) {
    if (allowedAt(states, zones, at)) return at;
  }
  return null;
}

export type CallingWindow =
  | { open: true; states: readonly string[]; zones: readonly string[]; callLimit: number | null }
  | { open: false; states: readonly string[]; zones: readonly string[]; nextAllowedAt: number | null };

/**
 * Whether the prospect may be called at `now`: open (with the 24-hour call limit, if any), or when next.
 * `lookups`: the place's area-code state and ZIP zone, when the caller has read them already.
 */
export function callingWindow(place: ProspectPlace, now: number, lookups?: PlaceLookups): CallingWindow {
  const { states, zones } = prospectZones(place, lookups);
  if (allowedAt(states, zones, now)) {
    const limits = zones.map((zone) => callLimit(states, localTime(now, zone).day));
    const limit = limits.reduce<number | null>(
      (min, value) => (value === null ? min : Math.min(min ?? value, value)),
      null,
    );
    return { open: true, states, zones, callLimit: limit };
  }
  return { open: false, states, zones, nextAllowedAt: nextAllowedMoment(states, zones, now) };
}

/**
 * The moment the calling rules are read at: the request's clock, or on a local test server the instant
 * `CALLING_RULES_AT` names (never in production: it needs development mode and simulated payments).
 */
export function callingRulesClock(deps: Pick<Deps, "env" | "now">): number {
  const { env, now } = deps;
  if (env.APP_ENV !== "development" || env.ALLOW_SIMULATED_PAYMENTS !== "true" || !env.CALLING_RULES_AT) return now;
  const at = Date.parse(env.CALLING_RULES_AT);
  return Number.isNaN(at) ? now : at;
}

/**
 * How a call-back's own window [start, end) lies within the legal calling hours (docs/decisions/0070): every
 * rule boundary falls on a quarter hour of UTC, so the window's start and each quarter hour inside it
 * decide it exactly.
 */
export function windowFit(place: ProspectPlace, start: number, end: number): WindowFit {
  const { states, zones } = prospectZones(place);
  let allowed = 0;
  let points = 0;
  for (
    let at = start;
    at < end && points < 4 * 24 * 14;
    at = Math.floor(at / QUARTER_HOUR_MS) * QUARTER_HOUR_MS + QUARTER_HOUR_MS
  ) {
    points++;
    if (allowedAt(states, zones, at)) allowed++;
  }
  return allowed === 0 ? "outside" : allowed === points ? "inside" : "partly";
}

/** The calling status line of one prospect at `now`, written in the prospect's own zone (`prospectTimeZone`). */
function callableAt(place: ProspectPlace, now: number, lookups: PlaceLookups): Callable {
  const window = callingWindow(place, now, lookups);
  const timeZone = prospectTimeZone(place, lookups);
  const next = window.open ? null : window.nextAllowedAt;
  return {
    timeZone,
    now: window.open,
    from: next === null ? null : new Date(next).toISOString(),
    label: callableLabel(window.open, next, timeZone, now),
  };
}

/**
 * `callableAt` remembered per distinct place for one request: a page of leads shares few states and area
 * codes, so it pays for each once (the aged-lead list is a measured hot path, decision 0012). The area
 * code's state and the ZIP's zone that make the key are read once and passed on to a miss's computation.
 */
export function callableMemo(now: number): (place: ProspectPlace) => Callable {
  const seen = new Map<string, Callable>();
  return (place) => {
    const lookups = placeLookups(place);
    const key = `${place.state} ${lookups.areaState ?? ""} ${lookups.zip ?? ""} ${place.timeZone ?? ""}`;
    let callable = seen.get(key);
    if (!callable) {
      callable = callableAt(place, now, lookups);
      seen.set(key, callable);
    }
    return callable;
  };
}
