/**
 * The pure part of `npm run simulate:calls`' call-backs (docs/decisions/0058-call-backs-and-appointments.md):
 * which refused pings become call-backs, and the window each one asks for. Kept apart from the script,
 * which dials on import, so the unit tests can load it; Node runs it without tsx (types stripped only).
 */
// Types only from callbacks.ts: its imports do not load without tsx.

import { defaultTimeZone, localTime, type UsTimeZone } from "../../src/domain/time-zones.ts";
import type { CallbackKind, CallbackPreference } from "../../src/features/callbacks/callbacks.ts";
import type { NoRouteReason } from "../../src/features/transfers/transfers.ts";

/**
 * The ping refusals that mean no order could take the caller now, so a dialer offers a call-back. Not
 * `suppressed` (the number must not be called), `duplicate` (every open buyer had the caller already) or
 * `partner_cap_reached` (the partner's own cap, not the buyers').
 */
export const CALLBACK_REASONS: readonly NoRouteReason[] = ["no_open_order", "outside_hours", "caps_reached"];

/** Whether a ping's answer (status, `reason`) should be posted again as a call-back. */
export function becomesCallback(status: number, reason: unknown): boolean {
  return status === 409 && CALLBACK_REASONS.some((known) => known === reason);
}

/**
 * The day parts a simulated prospect picks from, as local minutes [from, to): the hours of the buyers'
 * callback preferences (PREFERENCE_MINUTES in src/features/callbacks/callbacks.ts; a unit test keeps them equal).
 */
export const SLOT_MINUTES = {
  morning: [8 * 60, 12 * 60],
  afternoon: [12 * 60, 17 * 60],
  evening: [17 * 60, 21 * 60],
} as const satisfies Partial<Record<CallbackPreference, readonly [number, number]>>;
export type Slot = keyof typeof SLOT_MINUTES;
const SLOTS = Object.keys(SLOT_MINUTES) as Slot[];

/** Every this-many-th call-back is posted as an appointment. */
const APPOINTMENT_EVERY = 4;

export interface PlannedCallback {
  kind: CallbackKind;
  timeZone: UsTimeZone;
  window: { date: string; from: string; to?: string };
}

const clock = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;

/** The local day after `now` in a zone, YYYY-MM-DD. */
export function tomorrowIn(now: number, timeZone: string): string {
  const [year, month, day] = localTime(now, timeZone).day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
}

/**
 * The `ordinal`-th call-back (from 1) for a caller in `state`: tomorrow in the state's main zone, within
 * `slot`; every APPOINTMENT_EVERY-th one an appointment at the slot's start.
 */
export function planCallback(now: number, state: string, slot: Slot, ordinal: number): PlannedCallback {
  const timeZone = defaultTimeZone(state);
  const date = tomorrowIn(now, timeZone);
  const [from, to] = SLOT_MINUTES[slot];
  return ordinal % APPOINTMENT_EVERY === 0
    ? { kind: "appointment", timeZone, window: { date, from: clock(from) } }
    : { kind: "callback", timeZone, window: { date, from: clock(from), to: clock(to) } };
}

/** A slot drawn with `random` (Math.random in the script; a fixed value in tests). */
export function drawSlot(random: () => number): Slot {
  return SLOTS[Math.min(SLOTS.length - 1, Math.floor(random() * SLOTS.length))] as Slot;
}
