/**
 * A live-transfer order's own limits beside its hours and per-day cap (docs/decisions/0068): the
 * weekdays it takes calls, one closure (a range of its local days), a cap per 60 minutes and a cap on
 * calls at once. What they mean, their maxima and messages, and how they read in a summary. Routing
 * applies them through src/features/transfers/transfers.ts (and the same conditions in its SQL). Pure: no I/O.
 */
import { formatDay } from "../../domain/format.ts";

/** A cap per 60 minutes above this is no cap a call center can answer. */
export const MAX_TRANSFERS_PER_HOUR = 500;
/** Calls ringing or connected at once, at most. */
export const MAX_CONCURRENT_TRANSFERS = 100;
export const HOUR_MS = 60 * 60 * 1000;

export const WEEKDAY_NAMES = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;

/** One sentence each, as the delivery form explains its fields. */
export const LIMIT_HINTS = {
  days: "The weekdays transfers may ring. Choose none to take calls every day.",
  closure: "Days with no transfers at all (first and last day included, in your time zone). Leave empty for none.",
  perHourCap: "At most this many calls put through in any 60 minutes. Leave empty for no hourly cap.",
  maxConcurrent: "At most this many calls ringing or connected at the same time. Leave empty for no limit.",
} as const;

export const LIMIT_MESSAGES = {
  day: "Choose weekdays from Sunday to Saturday",
  date: "Enter the date as YYYY-MM-DD",
  closureBoth: "Give both the first and the last day of the closure (the same day for one day)",
  closureOrder: "The closure's last day cannot be before its first day",
  perHour: `Transfers per hour must be a whole number from 1 to ${MAX_TRANSFERS_PER_HOUR}`,
  perHourOverDay: "Transfers per hour cannot be more than transfers per day",
  concurrent: `Calls at once must be a whole number from 1 to ${MAX_CONCURRENT_TRANSFERS}`,
} as const;

/** The limits as an order stores them; null = no such limit. */
export interface DeliveryLimits {
  /** Weekdays (0 = Sunday … 6); null = every day. */
  days: number[] | null;
  /** The closure's first and last local day (YYYY-MM-DD), both or neither. */
  closedFrom: string | null;
  closedUntil: string | null;
  perHourCap: number | null;
  maxConcurrent: number | null;
}

/** Chosen weekdays as stored: sorted, once each; none or all seven = every day (null). */
export function normalizeDays(days: readonly number[] | null | undefined): number[] | null {
  const unique = [...new Set(days ?? [])].sort((a, b) => a - b);
  return unique.length === 0 || unique.length === 7 ? null : unique;
}

/** Whether `value` is a calendar day written YYYY-MM-DD (2026-02-30 is not). */
export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** Whether local day `day` (YYYY-MM-DD) falls in the closure, first and last day included. */
export function isClosedOn(day: string, closedFrom: string | null, closedUntil: string | null): boolean {
  if (!closedFrom || !closedUntil) return false;
  return day >= closedFrom && day <= closedUntil;
}

/** The first problem of a form's limits (field and message), or null. The per-day cap is already valid. */
export function limitsProblem(limits: {
  closedFrom: string | null;
  closedUntil: string | null;
  perHourCap: number | null;
  perDayCap: number;
}): { field: "closedFrom" | "closedUntil" | "perHourCap"; message: string } | null {
  const { closedFrom, closedUntil } = limits;
  if (Boolean(closedFrom) !== Boolean(closedUntil)) {
    return { field: closedFrom ? "closedUntil" : "closedFrom", message: LIMIT_MESSAGES.closureBoth };
  }
  if (closedFrom && closedUntil && closedUntil < closedFrom) {
    return { field: "closedUntil", message: LIMIT_MESSAGES.closureOrder };
  }
  if (limits.perHourCap !== null && limits.perHourCap > limits.perDayCap) {
    return { field: "perHourCap", message: LIMIT_MESSAGES.perHourOverDay };
  }
  return null;
}

const wholeUpTo = (value: unknown, max: number) =>
  typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= max ? value : null;

/**
 * The limits an order's own form gave (the dashboard's order form, validated when ordered), as stored;
 * anything unreadable is no limit (as the other settings read from a form, src/features/transfers/delivery-setup.ts).
 */
export function limitsFromDetails(details: Record<string, unknown>): DeliveryLimits {
  const days = Array.isArray(details.days)
    ? details.days.filter((day) => Number.isInteger(day) && day >= 0 && day <= 6)
    : [];
  const from = typeof details.closedFrom === "string" && isCalendarDay(details.closedFrom) ? details.closedFrom : null;
  const until =
    typeof details.closedUntil === "string" && isCalendarDay(details.closedUntil) ? details.closedUntil : null;
  const closed = from !== null && until !== null && from <= until;
  return {
    days: normalizeDays(days),
    closedFrom: closed ? from : null,
    closedUntil: closed ? until : null,
    perHourCap: wholeUpTo(details.perHourCap, MAX_TRANSFERS_PER_HOUR),
    maxConcurrent: wholeUpTo(details.maxConcurrent, MAX_CONCURRENT_TRANSFERS),
  };
}

/** "Mon–Fri" for a run of days, "Mon, Wed, Fri" otherwise. */
export function daysText(days: number[]): string {
  const run = days.every((day, i) => i === 0 || day === (days[i - 1] ?? 0) + 1);
  const names = days.map((day) => WEEKDAY_NAMES[day] ?? String(day));
  return run && days.length > 2 ? `${names[0]}–${names[names.length - 1]}` : names.join(", ");
}

/**
 * The limits in one line for order summaries, or null when the order has none:
 * "Mon–Fri · closed Dec 24, 2026 – Dec 26, 2026 · 20 an hour · 3 at once".
 */
export function limitsText(limits: Partial<DeliveryLimits>): string | null {
  const parts: string[] = [];
  const days = normalizeDays(limits.days);
  if (days) parts.push(daysText(days));
  if (limits.closedFrom && limits.closedUntil) {
    parts.push(
      limits.closedFrom === limits.closedUntil
        ? `closed ${formatDay(limits.closedFrom)}`
        : `closed ${formatDay(limits.closedFrom)} – ${formatDay(limits.closedUntil)}`,
    );
  }
  if (limits.perHourCap != null) parts.push(`${limits.perHourCap} an hour`);
  if (limits.maxConcurrent != null) parts.push(`${limits.maxConcurrent} at once`);
  return parts.length > 0 ? parts.join(" · ") : null;
}
