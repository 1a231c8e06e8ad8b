/**
 * Call-backs and appointments (product rule 1; docs/decisions/0058): a prospect who asked to be called
 * back within a window, or at a set time (an appointment), in the prospect's own time zone. Pure rules:
 * the window as instants, whether it fits an order's callback preference, and which paid order a
 * call-back goes to. The Worker's allocation (worker/features/callbacks/callbacks.ts) applies `chooseOrder` inside
 * one conditional statement, so that the rules here hold under any order of arrivals and payments.
 */

import { formatWindowIn } from "../../domain/format.ts";
import type { CALLBACK_PREFERENCES } from "../../domain/survey.ts";
import { localTime } from "../../domain/time-zones.ts";
import { statesFromText } from "../transfers/index.ts";

export const CALLBACK_KINDS = ["callback", "appointment"] as const;
export type CallbackKind = (typeof CALLBACK_KINDS)[number];
export const CALLBACK_KIND_LABELS: Record<CallbackKind, string> = { callback: "Call-back", appointment: "Appointment" };
/** Where a call-back came from: the admin's form, a CSV upload, or a partner through the API. */
export const CALLBACK_SOURCES = ["admin", "import", "partner"] as const;
export type CallbackPreference = (typeof CALLBACK_PREFERENCES)[number];

/** An appointment holds this long from its set time: the buyer calls within it. */
export const APPOINTMENT_MINUTES = 30;
/** The same prospect never goes to the same buyer twice within this many days. */
export const SAME_PROSPECT_DAYS = 30;
/** The longest call-back window the shop takes, and how far ahead a window may start. */
export const MAX_WINDOW_MINUTES = 12 * 60;
export const MAX_DAYS_AHEAD = 30;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** Each preference's local hours, as minutes of the day [from, to). */
export const PREFERENCE_MINUTES: Record<CallbackPreference, readonly [number, number]> = {
  morning: [8 * 60, 12 * 60],
  afternoon: [12 * 60, 17 * 60],
  evening: [17 * 60, 21 * 60],
  anytime: [0, 24 * 60],
};

/**
 * The instant of a local day and minute in a zone. Found by correcting a UTC guess with the zone's offset
 * twice, which settles on the right instant on both sides of a daylight-saving change; a local time that a
 * change skips (02:30 on the spring-forward day) lands on the first instant after the gap.
 */
export function localToInstant(day: string, minute: number, timeZone: string): number {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const wanted = Date.UTC(year, month - 1, date) + minute * MINUTE_MS;
  let guess = wanted;
  for (let round = 0; round < 3; round++) {
    const local = localTime(guess, timeZone);
    const [y, m, d] = local.day.split("-").map(Number) as [number, number, number];
    const seen = Date.UTC(y, m - 1, d) + local.minute * MINUTE_MS;
    if (seen === wanted) return guess;
    guess += wanted - seen;
  }
  return guess;
}

/** "HH:MM" → minute of the day, or null. */
function minuteOfClock(clock: string): number | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(clock);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

export interface CallbackWindow {
  /** When the buyer may start calling (epoch ms). */
  windowStart: number;
  /** When the window closes (epoch ms). */
  windowEnd: number;
  /** The prospect's IANA time zone. */
  timeZone: string;
}

/** The window a call-back or an appointment asks for, as instants. */
export function windowOf(
  kind: CallbackKind,
  local: { date: string; from: string; to?: string | undefined },
  timeZone: string,
): CallbackWindow | null {
  const from = minuteOfClock(local.from);
  if (from === null) return null;
  const windowStart = localToInstant(local.date, from, timeZone);
  if (kind === "appointment")
    return { windowStart, windowEnd: windowStart + APPOINTMENT_MINUTES * MINUTE_MS, timeZone };
  const to = local.to === undefined ? null : minuteOfClock(local.to);
  if (to === null || to <= from) return null;
  return { windowStart, windowEnd: localToInstant(local.date, to, timeZone), timeZone };
}

/** Why a window cannot be taken at `now`, or null when it can. */
export function windowProblem(window: CallbackWindow, now: number): string | null {
  if (window.windowEnd <= window.windowStart) return "The window must end after it starts";
  if (window.windowEnd <= now) return "The window has already passed";
  if ((window.windowEnd - window.windowStart) / MINUTE_MS > MAX_WINDOW_MINUTES)
    return `A call-back window is at most ${MAX_WINDOW_MINUTES / 60} hours`;
  if (window.windowStart > now + MAX_DAYS_AHEAD * DAY_MS) return `A window starts at most ${MAX_DAYS_AHEAD} days ahead`;
  return null;
}

/** Whether the window overlaps the preference's local hours (on the window's own local day). */
export function fitsPreference(window: CallbackWindow, preference: CallbackPreference): boolean {
  if (preference === "anytime") return true;
  const [from, to] = PREFERENCE_MINUTES[preference];
  const start = localTime(window.windowStart, window.timeZone);
  const end = localTime(window.windowEnd - 1, window.timeZone);
  const endMinute = end.day === start.day ? end.minute + 1 : 24 * 60;
  return start.minute < to && endMinute > from;
}

/** A paid call-back order as the allocation sees it. */
export interface OpenCallbackOrder {
  id: string;
  userId: string;
  paidAt: number;
  /** How many call-backs were bought, and how many it has. */
  quantity: number;
  delivered: number;
  /** The states it takes; null takes every state. */
  states: readonly string[] | null;
  preference: CallbackPreference;
}

export interface CallbackToPlace extends CallbackWindow {
  id: string;
  state: string;
  /** The prospect's number as digits (the key the 30-day rule compares). */
  phoneKey: number;
}

/** The key of "this prospect went to this buyer" for the 30-day rule. */
export const prospectBuyerKey = (userId: string, phoneKey: number) => `${userId}|${phoneKey}`;

/**
 * Why a paid order cannot take a call-back (a sentence for the admin who picked it by hand), or null when
 * it can: room left, the prospect's state, the window's time of day, and the 30-day rule.
 */
export function orderMisfit(
  callback: CallbackToPlace,
  order: OpenCallbackOrder,
  recent: ReadonlySet<string>,
): string | null {
  if (order.delivered >= order.quantity) return "The order already has every call-back it bought.";
  if (order.states !== null && !order.states.includes(callback.state))
    return `The order does not take prospects in ${callback.state}.`;
  if (!fitsPreference(callback, order.preference))
    return `The window is outside the order's ${order.preference} hours.`;
  if (recent.has(prospectBuyerKey(order.userId, callback.phoneKey)))
    return `This buyer had this prospect within the last ${SAME_PROSPECT_DAYS} days.`;
  return null;
}

/**
 * The order a call-back goes to at `now`: one that still has room, takes the prospect's state and the
 * window's time of day, and has not had this prospect within 30 days (`recent` holds
 * `prospectBuyerKey`s); oldest paid first (then by id, so the choice is stable). None once the window
 * has passed.
 */
export function chooseOrder(
  callback: CallbackToPlace,
  orders: readonly OpenCallbackOrder[],
  recent: ReadonlySet<string>,
  now: number,
): OpenCallbackOrder | null {
  if (callback.windowEnd <= now) return null;
  const fitting = orders.filter((order) => orderMisfit(callback, order, recent) === null);
  fitting.sort((a, b) => a.paidAt - b.paidAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return fitting[0] ?? null;
}

/** The 30-day rule, in milliseconds. */
export const SAME_PROSPECT_WINDOW_MS = SAME_PROSPECT_DAYS * DAY_MS;

/**
 * What a paid order asks of its call-backs, from its kind and its form's answers; null when it is no
 * call-back order. The survey's "Call-Backs" takes every state at any time; ringcloud's "call_backs"
 * takes its working states (none listed: every state) at its callback preference.
 */
export function callbackOrderTerms(
  kind: string,
  details: Record<string, unknown>,
): { states: string[] | null; preference: CallbackPreference } | null {
  if (kind === "survey" && details.leadType === "Call-Backs") return { states: null, preference: "anytime" };
  if (kind !== "ringcloud" || details.leadType !== "call_backs") return null;
  const preference = (Object.keys(PREFERENCE_MINUTES) as CallbackPreference[]).find(
    (name) => name === details.callbackPreference,
  );
  const states = typeof details.workingStates === "string" ? statesFromText(details.workingStates) : [];
  return { states: states.length > 0 ? states : null, preference: preference ?? "anytime" };
}

/**
 * An unassigned call-back whose window starts within this many minutes (or has started) is "about to
 * expire unsold" on the admin's Fulfilment tab (docs/decisions/0063).
 */
export const EXPIRING_SOON_MINUTES: number = 120;
/** The same, as the admin reads it ("2 hours"). */
export const EXPIRING_SOON_TEXT =
  EXPIRING_SOON_MINUTES % 60 === 0
    ? `${EXPIRING_SOON_MINUTES / 60} hour${EXPIRING_SOON_MINUTES === 60 ? "" : "s"}`
    : `${EXPIRING_SOON_MINUTES} minutes`;

/** Whether an unassigned call-back's window starts within `EXPIRING_SOON_MINUTES` of `now`. */
export const expiresSoon = (windowStart: number, now: number) => windowStart <= now + EXPIRING_SOON_MINUTES * MINUTE_MS;

/** The buyer's reminder e-mail goes this many minutes before a delivered call-back's window opens. */
export const REMINDER_MINUTES_BEFORE = 15;

/** A window as the prospect's clock reads it: "Fri, Nov 27, 2:00 PM CST – 4:00 PM CST (America/Chicago)". */
export function windowLabel(window: CallbackWindow): string {
  return `${formatWindowIn(window.windowStart, window.windowEnd, window.timeZone)} (${window.timeZone})`;
}

/** The prospect's first name, from the name as stored ("Mary Johnson"). */
export const prospectFirstName = (name: string): string => name.trim().split(/\s+/)[0] ?? name;
