/**
 * US time zones: the zones a buyer's deliveries and a partner's day follow, each state's default zone, the
 * partner application's zone names, and a moment's local day, weekday and minute in a zone. Pure: no I/O.
 */
import type { ApplicationTimeZone } from "../features/partners/partner.ts";

/** The US time zones a buyer's deliveries can follow (IANA names). */
export const US_TIME_ZONES = [
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Phoenix",
  "America/Los_Angeles",
  "America/Anchorage",
  "Pacific/Honolulu",
] as const;
export type UsTimeZone = (typeof US_TIME_ZONES)[number];

/** The zone each state's deliveries default to (its most populous zone). */
const ZONE_STATES: Record<UsTimeZone, string> = {
  "America/New_York": "CT DC DE FL GA IN KY MA MD ME MI NC NH NJ NY OH PA RI SC VA VT WV",
  "America/Chicago": "AL AR IA IL KS LA MN MO MS ND NE OK SD TN TX WI",
  "America/Denver": "CO ID MT NM UT WY",
  "America/Phoenix": "AZ",
  "America/Los_Angeles": "CA NV OR WA",
  "America/Anchorage": "AK",
  "Pacific/Honolulu": "HI",
};

export function defaultTimeZone(state: string | undefined): UsTimeZone {
  const code = state?.trim().toUpperCase() ?? "";
  for (const zone of US_TIME_ZONES) if (ZONE_STATES[zone].split(" ").includes(code)) return zone;
  return "America/New_York";
}

/** The partner application's zone names → IANA zones. */
export const APPLICATION_TIME_ZONES: Record<ApplicationTimeZone, UsTimeZone> = {
  PST: "America/Los_Angeles",
  MST: "America/Denver",
  CST: "America/Chicago",
  EST: "America/New_York",
};

/**
 * One en-US `Intl.DateTimeFormat` per time zone with `options`, built on first use (building one is slow);
 * no zone is the reader's own.
 */
export function formatterPerZone(
  options: Omit<Intl.DateTimeFormatOptions, "timeZone">,
): (timeZone: string | undefined) => Intl.DateTimeFormat {
  const byZone = new Map<string | undefined, Intl.DateTimeFormat>();
  return (timeZone) => {
    let format = byZone.get(timeZone);
    if (!format) {
      format = new Intl.DateTimeFormat("en-US", { ...options, timeZone });
      byZone.set(timeZone, format);
    }
    return format;
  };
}

const formatter = formatterPerZone({
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  weekday: "short",
});

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

type LocalTime = Readonly<{ day: string; weekday: number; minute: number }>;

/**
 * localTime's answers for the minute last asked, per zone. A zone's local day, weekday and minute change
 * only from one minute to the next (every zone's offset is whole minutes), and routing asks for them for
 * each candidate order of each ping: formatting each time was a measured part of a ping's CPU.
 */
let memoMinute = Number.NaN;
const memo = new Map<string, LocalTime>();

/** The local calendar day (YYYY-MM-DD), weekday (0 = Sunday) and minute of the day at `now` in a zone. */
export function localTime(now: number, timeZone: string): LocalTime {
  const minute = Math.floor(now / 60_000);
  if (minute !== memoMinute) {
    memo.clear();
    memoMinute = minute;
  }
  const known = memo.get(timeZone);
  if (known) return known;
  const parts: Record<string, string> = {};
  for (const part of formatter(timeZone).formatToParts(now)) parts[part.type] = part.value;
  const local = Object.freeze({
    day: `${parts.year}-${parts.month}-${parts.day}`,
    weekday: WEEKDAYS.indexOf(parts.weekday ?? ""),
    minute: Number(parts.hour) * 60 + Number(parts.minute),
  });
  memo.set(timeZone, local);
  return local;
}
