/**
 * Whether a bought lead or call-back may be called now, and from when (docs/decisions/0070): the line My
 * Leads, My Call-Backs, their CSVs and the aged-lead marketplace show. The Worker decides it with the
 * calling rules (worker/features/transfers/calling-window.ts, decision 0064); this module only words the answer, so
 * views show the server's text and never load holiday data. Pure.
 */
import { formatDayTimeIn, formatWeekdayTimeIn } from "./format.ts";

/** A lead's calling status at the moment the server answered. */
export interface Callable {
  /** The prospect's local time zone (IANA name; the first candidate when a state spans several). */
  timeZone: string;
  /** Whether the calling rules allow a call at the server's clock. */
  now: boolean;
  /** The next allowed moment (ISO 8601) when not now; null when callable now or none within 14 days. */
  from: string | null;
  /** "Callable now", "Callable from Thu 9:00 AM CST". */
  label: string;
}

/** How a call-back's own window lies within the legal calling hours. */
export type WindowFit = "inside" | "partly" | "outside";

export const WINDOW_FIT_LABELS: Record<WindowFit, string> = {
  inside: "Window within legal calling hours",
  partly: "Window partly outside legal calling hours",
  outside: "Window outside legal calling hours: call within the legal hours only",
};

export const CALLABLE_NOW = "Callable now";
export const NOT_CALLABLE_SOON = "Not callable within 14 days";

/** Within this much of now the weekday alone names the day ("Thu 9:00 AM CST"); later, the date too. */
const WEEKDAY_ONLY_MS = 6 * 24 * 60 * 60_000;

/** The line for a lead: callable now, or from the next allowed moment in its own zone. */
export function callableLabel(open: boolean, nextAllowedAt: number | null, timeZone: string, now: number): string {
  if (open) return CALLABLE_NOW;
  if (nextAllowedAt === null) return NOT_CALLABLE_SOON;
  const when =
    nextAllowedAt - now < WEEKDAY_ONLY_MS
      ? formatWeekdayTimeIn(nextAllowedAt, timeZone)
      : formatDayTimeIn(nextAllowedAt, timeZone);
  return `Callable from ${when}`;
}

/** The marketplace's checkbox. */
export const CALLABLE_NOW_FILTER_LABEL = "Callable now only (the prospect's legal calling hours)";
