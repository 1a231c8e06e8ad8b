/**
 * Delivery settings of live-transfer orders: which orders need them, what their forms
 * already said, and the one form (setup page, /admin-orders dialog, their APIs) that completes them. The
 * form's and APIs' zod schemas are in ./schemas/delivery-setup.ts, so a page that needs only these rules
 * does not load zod (decision 0032).
 */

import { parseStates } from "../../domain/dashboard";
import { normalizeUsPhone } from "../../domain/phone";
import { defaultTimeZone, US_TIME_ZONES, type UsTimeZone } from "../../domain/time-zones";
import { US_STATES } from "../../domain/us-states";
import { limitsFromDetails, normalizeDays } from "./delivery-limits";
import { formatMinute, parseTransferHours } from "./hours";
import type { DeliverySettings } from "./transfers";

export { limitsText } from "./delivery-limits";

/** A delivery-setup link works once, for this long. */
export const SETUP_LINK_TTL_DAYS = 7;
export const SETUP_LINK_INVALID = "This delivery setup link is invalid, expired or already used";
export const MAX_TRANSFERS_PER_DAY = 1000;

/** Readable names of the US zones, for selects and summaries. */
export const TIME_ZONE_LABELS: Record<UsTimeZone, string> = {
  "America/New_York": "Eastern",
  "America/Chicago": "Central",
  "America/Denver": "Mountain",
  "America/Phoenix": "Arizona",
  "America/Los_Angeles": "Pacific",
  "America/Anchorage": "Alaska",
  "Pacific/Honolulu": "Hawaii",
};

/** The zones as a select offers them (the delivery settings and the agents' forms). */
export const TIME_ZONE_OPTIONS = /* @__PURE__ */ US_TIME_ZONES.map((zone) => ({
  value: zone,
  label: TIME_ZONE_LABELS[zone],
}));

type Details = Record<string, unknown>;
const text = (value: unknown) => (typeof value === "string" ? value : "");

/** Live transfers, whichever of the five contexts sold them: pricing packages, dashboard, survey, ringcloud. */
export function isLiveTransferOrder(kind: string, details: Details): boolean {
  if (kind === "transfer" || kind === "package") return true;
  if (kind === "survey") return details.leadType === "Live Transfers";
  if (kind === "ringcloud") return details.packageType === "live_transfers" || details.leadType === "live_transfers";
  return false;
}

const STATE_BY_NAME = new Map<string, string>(US_STATES.map(([code, name]) => [name.toUpperCase(), code]));

/** 'TX, florida' → ['TX', 'FL']; words that name no state are kept (they match no caller). */
export function statesFromText(value: string): string[] {
  return parseStates(value).map((state) => STATE_BY_NAME.get(state) ?? state);
}

/**
 * What an order's own form already said about delivery (dashboard, surveys), normalised; what it did not
 * say stays null, so the order is 'awaiting setup' until the buyer or an admin completes it. The time
 * zone defaults from the first state.
 */
export function deliverySettingsFromDetails(details: Details): DeliverySettings {
  const states = Array.isArray(details.selectedStates)
    ? details.selectedStates.map(String)
    : statesFromText(text(details.workingStates));
  const hours = parseTransferHours(text(details.transferHours));
  const perDay = details.callsPerDay ?? details.transfersPerDay;
  return {
    transferPhone: normalizeUsPhone(text(details.transferPhone)),
    states,
    hoursStartMinute: hours?.startMinute ?? null,
    hoursEndMinute: hours?.endMinute ?? null,
    timeZone: states.length > 0 ? defaultTimeZone(states[0]) : null,
    perDayCap: typeof perDay === "number" && Number.isInteger(perDay) && perDay > 0 ? perDay : null,
    ...limitsFromDetails(details),
  };
}

/** "HH:MM", 24-hour. */
export const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)$/;
export const toMinute = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
export const toClock = (minute: number) =>
  `${String(Math.floor(minute / 60) % 24).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;

/** The form's values as validated by ./schemas/delivery-setup.ts (its DeliverySettingsValues), as read here. */
interface SettingsFormValues {
  transferPhone: string;
  states: readonly string[];
  hoursStart: string;
  hoursEnd: string;
  timeZone: DeliverySettings["timeZone"];
  perDayCap: DeliverySettings["perDayCap"];
  days: Parameters<typeof normalizeDays>[0];
  closedFrom?: DeliverySettings["closedFrom"] | undefined;
  closedUntil?: DeliverySettings["closedUntil"] | undefined;
  perHourCap?: DeliverySettings["perHourCap"] | undefined;
  maxConcurrent?: DeliverySettings["maxConcurrent"] | undefined;
}

export function settingsFromInput(input: SettingsFormValues): DeliverySettings {
  return {
    transferPhone: normalizeUsPhone(input.transferPhone),
    states: [...input.states],
    hoursStartMinute: toMinute(input.hoursStart),
    hoursEndMinute: toMinute(input.hoursEnd),
    timeZone: input.timeZone,
    perDayCap: input.perDayCap,
    days: normalizeDays(input.days),
    closedFrom: input.closedFrom ?? null,
    closedUntil: input.closedUntil ?? null,
    perHourCap: input.perHourCap ?? null,
    maxConcurrent: input.maxConcurrent ?? null,
  };
}

/** The form's starting values from what is known (blank where nothing is). */
export function inputFromSettings(
  settings: (Partial<Omit<DeliverySettings, "timeZone">> & { timeZone?: string | null }) | null,
): {
  transferPhone: string;
  states: string;
  hoursStart: string;
  hoursEnd: string;
  timeZone: UsTimeZone;
  perDayCap: string;
  /** Checked weekdays ("0" = Sunday); none = every day. */
  days: string[];
  closedFrom: string;
  closedUntil: string;
  perHourCap: string;
  maxConcurrent: string;
} {
  const states = settings?.states ?? [];
  return {
    transferPhone: settings?.transferPhone ?? "",
    states: states.join(", "),
    hoursStart: settings?.hoursStartMinute == null ? "09:00" : toClock(settings.hoursStartMinute),
    hoursEnd: settings?.hoursEndMinute == null ? "17:00" : toClock(settings.hoursEndMinute),
    timeZone: US_TIME_ZONES.find((zone) => zone === settings?.timeZone) ?? defaultTimeZone(states[0]),
    perDayCap: settings?.perDayCap == null ? "" : String(settings.perDayCap),
    days: (settings?.days ?? []).map(String),
    closedFrom: settings?.closedFrom ?? "",
    closedUntil: settings?.closedUntil ?? "",
    perHourCap: settings?.perHourCap == null ? "" : String(settings.perHourCap),
    maxConcurrent: settings?.maxConcurrent == null ? "" : String(settings.maxConcurrent),
  };
}

/** "9:00 AM – 5:00 PM Central" */
export function hoursLabel(start: number, end: number, timeZone: string): string {
  const zone = TIME_ZONE_LABELS[timeZone as UsTimeZone] ?? timeZone;
  return `${formatMinute(start)} – ${formatMinute(end)} ${zone}`;
}

/** A live-transfer order's delivery as /admin-orders and the setup page show it. */
export interface OrderDeliveryView {
  setupStatus: "awaiting_setup" | "ready";
  paused: boolean;
  pausedReason: string | null;
  transfersTotal: number;
  /** Billable deliveries (longer than the buffer). */
  delivered: number;
  /** Completed within the buffer: not charged. */
  notCharged: number;
  remaining: number;
  settings: ReturnType<typeof inputFromSettings>;
  hours: string | null;
  /** The order's own limits in one line (days, closure, hourly and concurrent caps), or null for none. */
  limits: string | null;
}

export const SETUP_PASSWORD_NEEDED = "Enter the password of the account this order belongs to";
export const SETUP_ACCOUNT_NEEDED = "Create an account for this order, or sign in to the one you have";
export const SETUP_SIGN_IN_FIRST =
  "This order belongs to an administrator account. Sign in first, then open the link again.";
export const SETUP_NOT_A_BUYER_ACCOUNT =
  "Orders can only belong to buyer accounts. Sign in with a buyer account, or create one for this order.";

/**
 * Who the setup page saves for:
 * - `signed-in`: the caller is signed in to the order's account; saving signs nobody in;
 * - `password`: the order's account (`username`) exists; its password is asked;
 * - `sign-in-first`: the order's account is an administrator's: a link never signs into one;
 * - `new`: the order has no account: create one, or sign in to an existing buyer account.
 */
export type SetupAccount =
  | { kind: "signed-in"; username: string }
  | { kind: "password"; username: string }
  | { kind: "sign-in-first" }
  | { kind: "new" };

/** What the setup page shows before saving. */
export type SetupLinkCheck =
  | { valid: false }
  | {
      valid: true;
      orderId: string;
      transfers: number;
      email: string;
      account: SetupAccount;
      settings: ReturnType<typeof inputFromSettings>;
    };
