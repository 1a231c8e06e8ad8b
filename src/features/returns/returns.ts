/**
 * Lead Tracker, returns and the buyer's balance (product rules 24-26): the rules shared by the Worker and the
 * browser, and the shapes of the API's answers. Pure: no I/O, no zod (the request schemas are in
 * ./schemas/returns, loaded lazily by the islands).
 */

import type { TrackerTransferStatus } from "../../domain/masking";
import type { ConsentSummary } from "../consent/index";
import type { TrackerOrder } from "../transfers/index";

/** What can be returned: a delivered live transfer, a purchased aged lead, or a call-back or appointment (decision 0062). */
export const RETURN_KINDS = ["transfer", "aged_lead", "callback"] as const;
export type ReturnKind = (typeof RETURN_KINDS)[number];

export const RETURN_STATUSES = ["pending", "approved", "denied"] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

/** Why a buyer returns an item; `other` needs a text. */
export const RETURN_REASONS = [
  { value: "wrong_state", label: "Wrong state" },
  { value: "duplicate", label: "Duplicate" },
  { value: "disconnected", label: "Disconnected or wrong number" },
  { value: "not_interested", label: "Not interested in final expense" },
  { value: "underage_or_not_decision_maker", label: "Under age / not the decision maker" },
  { value: "other", label: "Other" },
] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number]["value"];
export const RETURN_REASON_VALUES = RETURN_REASONS.map((reason) => reason.value) as [ReturnReason, ...ReturnReason[]];
/** The reason that needs the buyer's own words. */
export const OTHER_REASON: ReturnReason = "other";
export const RETURN_TEXT_MAX = 500;
export const DECISION_NOTE_MAX = 500;

export function returnReasonLabel(reason: string): string {
  return RETURN_REASONS.find((entry) => entry.value === reason)?.label ?? reason;
}

/** A billable transfer can be returned for this long after it was delivered (routed). */
export const TRANSFER_RETURN_WINDOW_HOURS = 72;
/** A purchased aged lead can be returned for this long after its purchase. */
export const AGED_LEAD_RETURN_WINDOW_DAYS = 7;
/** At most this share of a buyer's deliveries in the cap window can be returned. */
export const RETURN_CAP_PERCENT = 20;
export const RETURN_CAP_WINDOW_DAYS = 14;
export const TRACKER_PAGE_SIZE = 25;

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
export const RETURN_CAP_WINDOW_MS = RETURN_CAP_WINDOW_DAYS * DAY_MS;

/** How long after delivery an item of this kind can be returned (ms). */
export function returnWindowMs(kind: ReturnKind): number {
  return kind === "transfer" ? TRANSFER_RETURN_WINDOW_HOURS * HOUR_MS : AGED_LEAD_RETURN_WINDOW_DAYS * DAY_MS;
}

/** The last moment (epoch ms) an item delivered at `deliveredAt` can be returned. */
export function returnBy(kind: ReturnKind, deliveredAt: number): number {
  return deliveredAt + returnWindowMs(kind);
}

/** Whether an item delivered at `deliveredAt` is still within its return window at `now`. */
export function withinReturnWindow(kind: ReturnKind, deliveredAt: number, now: number): boolean {
  return now >= deliveredAt && now <= returnBy(kind, deliveredAt);
}

/** How many returns the cap allows for this many deliveries in the window (rounded down). */
export function returnCap(deliveries: number): number {
  return Math.floor((Math.max(0, deliveries) * RETURN_CAP_PERCENT) / 100);
}

/** Returns still allowed: the cap less the returns already asked for in the window (never below 0). */
export function returnsRemaining(deliveries: number, returned: number): number {
  return Math.max(0, returnCap(deliveries) - Math.max(0, returned));
}

export const RETURN_MESSAGES = {
  transferWindow: `A transfer can be returned within ${TRANSFER_RETURN_WINDOW_HOURS} hours of its delivery.`,
  agedLeadWindow: `An aged lead can be returned within ${AGED_LEAD_RETURN_WINDOW_DAYS} days of its purchase.`,
  notBillable: "Only a billable transfer can be returned; this one was not charged.",
  alreadyReturned: "This item was already returned.",
  capReached: `You can return at most ${RETURN_CAP_PERCENT}% of your deliveries in the last ${RETURN_CAP_WINDOW_DAYS} days; 0 returns remain.`,
  alreadyDecided: "This return was already decided.",
  orderClosed: "This order was refunded or cancelled, so nothing on it can be returned.",
  refundedNote: "The order was refunded in full, so nothing on it is left to return.",
  noteRequired: "A note is required to deny a return.",
  otherTextRequired: "Please describe the reason.",
} as const;

/** The part of an order total a balance pays: never more than either. */
export function balanceToApply(balanceCents: number, totalCents: number): number {
  return Math.max(0, Math.min(balanceCents, totalCents));
}

// ——— API answers (times are epoch ms, money integer cents) ———

export interface TrackerTransfer {
  id: string;
  orderId: string;
  routedAt: number;
  endedAt: number | null;
  firstName: string;
  /** Masked ('J.') unless `contactShown`. */
  lastName: string;
  /** Masked ('(214) ***-****') unless `contactShown`. */
  phone: string;
  /** Whether the call connected, so the name and phone are shown in full. */
  contactShown: boolean;
  state: string;
  durationSeconds: number | null;
  billable: boolean;
  status: TrackerTransferStatus;
  recordingUrl: string | null;
  /** The order's agent who took the call (docs/decisions/0072), or null (an order without agents). */
  agentName: string | null;
  /** The order's delivery time zone, else America/New_York. */
  timeZone: string;
  /** Billable, within the window, not returned yet. */
  returnable: boolean;
  returnStatus: ReturnStatus | null;
  returnNote: string | null;
  /** Opt-in time and page; the certificate only with `contactShown` (product rule 39). The whole record: GET …/consent. */
  consent: ConsentSummary;
  /** The day ('YYYY-MM-DD') the caller's number was added to a Do Not Call list after the transfer, or null. */
  suppressedOn: string | null;
}

export interface TrackerPage {
  items: TrackerTransfer[];
  page: number;
  pageSize: number;
  total: number;
}

export interface BuyerReturn {
  id: string;
  kind: ReturnKind;
  itemId: string;
  /** Prospect name and state. */
  itemLabel: string;
  reason: ReturnReason;
  reasonText: string | null;
  status: ReturnStatus;
  adminNote: string | null;
  createdAt: number;
  decidedAt: number | null;
}

export interface ReturnsOverview {
  remaining: number;
  cap: number;
  deliveriesInWindow: number;
  returns: BuyerReturn[];
}

interface ReturnCandidate {
  id: string;
  label: string;
  deliveredAt: number;
  returnBy: number;
}

export interface EligibleReturns {
  remaining: number;
  transfers: ReturnCandidate[];
  agedLeads: ReturnCandidate[];
}

/** An open live-transfer order on the admin's Fulfilment tab. */
export interface FulfilmentOrder extends Omit<TrackerOrder, "createdAt" | "setupStatus"> {
  /** The buyer's username, else e-mail. */
  buyer: string;
}

export interface FulfilmentPartner {
  id: string;
  businessName: string;
  todayCalls: number;
  dailyCallCap: number;
  /** Pings answered today (the partner's local day): routed ones (todayCalls) and refused ones. */
  todayPings: number;
  /** Of those, answered `suppressed` (docs/decisions/0050). */
  todaySuppressed: number;
  /** todaySuppressed / todayPings (0..1), null without any ping today. */
  suppressedShare: number | null;
  /** Billable share of completed transfers (0..1), null without any. */
  billableRate: number | null;
  averageDurationSeconds: number | null;
}

export interface FulfilmentOverview {
  orders: FulfilmentOrder[];
  partners: FulfilmentPartner[];
}

export interface AdminReturn extends BuyerReturn {
  buyerUsername: string | null;
  buyerEmail: string | null;
  /** The partner that made the transfer; null for aged leads. */
  partnerBusinessName: string | null;
}

/** The prospect shown for a returned item: "Mary Johnson (TX)". */
export function itemLabel(name: string, state: string): string {
  return `${name.trim()} (${state})`;
}

// ——— How the returns form states the rules, from their constants ———

export const RETURN_WINDOWS_TEXT = `Transfers can be returned within ${TRANSFER_RETURN_WINDOW_HOURS} hours of delivery, aged leads within ${AGED_LEAD_RETURN_WINDOW_DAYS} days of purchase.`;

/**
 * "You can return 3 more this period (up to 20% of your deliveries in the last 14 days)." While the count
 * loads (undefined), the same sentence with "…" for it, so the line keeps its length.
 */
export function remainingText(remaining: number | undefined): string {
  const rule = `up to ${RETURN_CAP_PERCENT}% of your deliveries in the last ${RETURN_CAP_WINDOW_DAYS} days`;
  if (remaining === undefined) return `You can return … more this period (${rule}).`;
  return remaining > 0
    ? `You can return ${remaining} more this period (${rule}).`
    : `You cannot return more this period: returns are limited to ${rule}.`;
}
