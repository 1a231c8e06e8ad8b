/**
 * How the shop writes dates, times, counts, money and phone numbers: one module for every island, page and
 * e-mail, so a screen and the mail about it say the same thing the same way (en-US, the shop's only locale).
 * Pure: no I/O; each `Intl` formatter is built once (building one is slow), marked pure so a page that uses
 * one formatter does not load the others. Times in a given zone (a buyer's delivery zone, a prospect's) use
 * `formatterPerZone` in src/domain/time-zones.ts.
 */
import { formatterPerZone } from "./time-zones.ts";

type Instant = number | Date | string;

const dateFormat = /* @__PURE__ */ new Intl.DateTimeFormat("en-US", { dateStyle: "medium" });
const dateTimeFormat = /* @__PURE__ */ new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });
const utcDayFormat = /* @__PURE__ */ new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
const exactUtcFormat = /* @__PURE__ */ new Intl.DateTimeFormat("en-US", {
  dateStyle: "medium",
  timeStyle: "medium",
  timeZone: "UTC",
});

const asDate = (instant: Instant) => (instant instanceof Date ? instant : new Date(instant));

/** "Nov 27, 2026" in the reader's own zone. */
export const formatDate = (instant: Instant) => dateFormat.format(asDate(instant));

/** "Nov 27, 2026, 9:05 AM" in the reader's own zone. */
export const formatDateTime = (instant: Instant) => dateTimeFormat.format(asDate(instant));

/** A calendar day kept as text ("2026-11-27") → "Nov 27, 2026", whatever the reader's zone. */
export const formatDay = (day: string) => utcDayFormat.format(new Date(`${day}T00:00:00Z`));

/** "Nov 27, 2026, 9:05:07 AM" in UTC: evidence (consent records) states the exact moment, the same for everyone. */
export const formatExactUtc = (instant: Instant) => exactUtcFormat.format(asDate(instant));

const zonedDayTime = /* @__PURE__ */ formatterPerZone({
  weekday: "short",
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZoneName: "short",
});
const zonedWeekday = /* @__PURE__ */ formatterPerZone({ weekday: "short" });
const zonedClock = /* @__PURE__ */ formatterPerZone({ hour: "numeric", minute: "2-digit", timeZoneName: "short" });
const logTimeFormat = /* @__PURE__ */ new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  second: "2-digit",
});

/** "Fri, Nov 27, 9:00 AM EST" as a zone's clock reads it (the reader's own zone when none is given). */
export const formatDayTimeIn = (instant: number, timeZone?: string) => zonedDayTime(timeZone).format(instant);

/** "Thu 9:00 AM CST": a moment within the coming week as a zone's clock reads it. */
export const formatWeekdayTimeIn = (instant: number, timeZone?: string) =>
  `${zonedWeekday(timeZone).format(instant)} ${zonedClock(timeZone).format(instant)}`;

/** A call-back's window, "Fri, Nov 27, 9:00 AM EST – 11:00 AM EST", in a zone (the reader's own when none). */
export const formatWindowIn = (start: number, end: number, timeZone?: string) =>
  `${formatDayTimeIn(start, timeZone)} – ${zonedClock(timeZone).format(end)}`;

/** "Nov 27, 9:05:07 AM": a log line's moment, to the second. */
export const formatLogTime = (instant: Instant) => logTimeFormat.format(asDate(instant));

/** 1234567 → "1,234,567". */
export const formatCount = (value: number) => value.toLocaleString("en-US");

/** '$1950.00' (two decimals, as the shop's payloads and receipts carry them); `cents: false` drops them for whole-dollar rates ('$30'). */
export function formatUsd(cents: number, options: { cents?: boolean } = {}): string {
  const dollars = cents / 100;
  return options.cents === false && Number.isInteger(dollars) ? `$${dollars}` : `$${dollars.toFixed(2)}`;
}

/** 10 digits as (305) 555-0100. */
export const formatPhoneKey = (digits: string) => `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
