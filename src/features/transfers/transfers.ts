/**
 * Live transfers: the rules shared by the Worker and the browser. Pure: no I/O.
 * Enums named here are the values stored in D1 (worker/db/schema/).
 */

import { localTime, type UsTimeZone } from "../../domain/time-zones.ts";
import { REGISTRY_STALE_NO_ROUTE, SUPPRESSED_NO_ROUTE } from "../do-not-call/index.ts";
import { agentIneligibility, availableAgents, type RoutingAgent } from "./agent-routing.ts";
import { type DeliveryLimits, isClosedOn } from "./delivery-limits.ts";
import { withinHours } from "./hours.ts";

/** A live-transfer order's delivery settings are either still missing or complete. */
export const DELIVERY_SETUP_STATUSES = ["awaiting_setup", "ready"] as const;
export type DeliverySetupStatus = (typeof DELIVERY_SETUP_STATUSES)[number];

/** `order_delivery_states.state` for an order that takes callers from every state. */
export const ALL_STATES = "ALL";

/** A transfer's life: routed (answer given, slot held) → connected → completed, or an end without a call. */
export const TRANSFER_STATUSES = ["routed", "connected", "completed", "no_answer", "failed", "expired"] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** Events a partner's dialer reports (`POST /api/v1/transfers/:id/events`). */
export const TRANSFER_EVENT_TYPES = ["connected", "completed", "no-answer", "failed"] as const;
export type TransferEventType = (typeof TRANSFER_EVENT_TYPES)[number];

/** An order's delivery settings; none of its limits (delivery-limits.ts) is needed before it can be delivered to. */
export interface DeliverySettings extends DeliveryLimits {
  /** Ten digits. */
  transferPhone: string | null;
  /** State codes; [] = every state. */
  states: string[];
  /** Minutes since local midnight; end < start spans midnight. */
  hoursStartMinute: number | null;
  hoursEndMinute: number | null;
  timeZone: UsTimeZone | null;
  perDayCap: number | null;
}

/** True when an order knows where and when to deliver (its setup is 'ready'). */
export function isDeliveryComplete(settings: DeliverySettings): boolean {
  return (
    settings.transferPhone !== null &&
    settings.hoursStartMinute !== null &&
    settings.hoursEndMinute !== null &&
    settings.timeZone !== null &&
    settings.perDayCap !== null &&
    settings.perDayCap > 0
  );
}

// ——— Billing by the buffer (product rule 2: a transfer is charged when the caller stays longer than 2 minutes) ———

/** The buffer: a completed transfer is billable only when it lasted longer than this. */
export const TRANSFER_BUFFER_SECONDS = 120;

export function isBillable(durationSeconds: number): boolean {
  return durationSeconds > TRANSFER_BUFFER_SECONDS;
}

/** The buffer as the marketing pages state it ('120-second'). */
export const BUFFER_LABEL = `${TRANSFER_BUFFER_SECONDS}-second`;
/** How a completed transfer within the buffer is shown. */
export const NOT_CHARGED_LABEL = `under ${TRANSFER_BUFFER_SECONDS / 60} minutes — not charged`;

// ——— Routing ———

/** How long a ping's answer (the buyer's number) stays valid; the routed transfer holds a slot meanwhile. */
export const ROUTE_ANSWER_TTL_SECONDS = 60;
/** A connected call holds its slot until it ends, but no longer than this (a lost `completed` event). */
export const CONNECTED_HOLD_SECONDS = 4 * 60 * 60;
/** The same prospect phone is not delivered to the same buyer twice within this many days. */
export const DUPLICATE_WINDOW_DAYS = 30;
/** This many `no-answer` events for one order within the window pause its deliveries. */
export const NO_ANSWER_PAUSE_COUNT = 3;
export const NO_ANSWER_PAUSE_WINDOW_MS = 60 * 60 * 1000;
export const NO_ANSWER_PAUSE_REASON = `${NO_ANSWER_PAUSE_COUNT} transfers went unanswered within an hour`;

/**
 * Transfers that never reached the buyer, as the dialer reported: the only ones the 30-day duplicate rule
 * ignores. Every other transfer is a contact, including an answer left to expire, until one of these
 * events ends it.
 */
export const NO_CONTACT_STATUSES = ["no_answer", "failed"] as const satisfies readonly TransferStatus[];

/**
 * Why a `connected` or `completed` event is refused (the `reason` of its 409): the transfer no longer held
 * a slot on its order, so it is recorded and never billed (decision 0026).
 */
export const EVENT_REFUSALS = {
  expired: `This transfer's answer expired ${ROUTE_ANSWER_TTL_SECONDS} seconds after the ping, before the call was reported. The event is recorded; the transfer is never billed. Ping again for a new number.`,
  hold_expired: `This call was reported more than ${CONNECTED_HOLD_SECONDS / 3600} hours after it connected, when its slot had been released. The event is recorded; the transfer is never billed.`,
} as const;
export type EventRefusal = keyof typeof EVENT_REFUSALS;

/** Why a ping found no order (the `reason` of a 409). */
export const NO_ROUTE_REASONS = {
  partner_cap_reached: "Your daily call cap is reached.",
  no_open_order: "No open order takes callers from this state.",
  duplicate: `This caller was already delivered to every buyer open for this state in the last ${DUPLICATE_WINDOW_DAYS} days.`,
  caps_reached: "Every order open for this state has reached its transfers for now.",
  outside_hours: "Every order open for this state is outside its transfer hours.",
  // The prospect's legal calling hours and calls per 24 hours (docs/decisions/0064); `nextAllowedAt` says when.
  calling_window:
    "The prospect may not be called now: it is outside the legal calling hours at their location (federal and state rules). Ping again at nextAllowedAt.",
  call_limit:
    "This number has had as many calls in 24 hours as the prospect's state allows. Ping again at nextAllowedAt.",
  // The caller's number is on a Do Not Call list (product rule 40).
  ...SUPPRESSED_NO_ROUTE,
  // The registry copy covering the caller is stale (docs/decisions/0085): nothing is routed until it is refreshed.
  ...REGISTRY_STALE_NO_ROUTE,
} as const;
export type NoRouteReason = keyof typeof NO_ROUTE_REASONS;

/** Most specific first: when orders fail for different reasons, the answer names the first of these. */
const REASON_PRIORITY: NoRouteReason[] = ["caps_reached", "outside_hours", "duplicate"];

/** An open order as routing sees it at the moment of a ping (counts already taken for the buyer's day). */
export interface RoutingCandidate {
  orderId: string;
  buyerKey: string;
  paidAt: number;
  timeZone: string;
  hoursStartMinute: number;
  hoursEndMinute: number;
  days: number[] | null;
  /** The order's closure (local days, inclusive) and caps per 60 minutes and at once (docs/decisions/0068). */
  closedFrom: string | null;
  closedUntil: string | null;
  perHourCap: number | null;
  maxConcurrent: number | null;
  perDayCap: number;
  transfersTotal: number;
  transfersBillable: number;
  /** Live holds: routed answers not yet expired and connected calls. */
  held: number;
  /** Transfers routed to the order on the buyer's current local day (except expired or unanswered ones). */
  deliveredToday: number;
  /** Transfers routed to the order in the last 60 minutes, counted as `deliveredToday` is. */
  deliveredLastHour: number;
  /**
   * The order's agents, not removed (docs/decisions/0072): [] = none, the call rings the order's own phone;
   * absent or null = not read yet (the rule passes the order; the claim reads them).
   */
  agents?: RoutingAgent[] | null;
}

export interface RoutingContext {
  now: number;
  /** Buyers who got this prospect phone within DUPLICATE_WINDOW_DAYS. */
  recentBuyerKeys: ReadonlySet<string>;
  /** The prospect's state: an order with agents needs one licensed in it (absent: agents not checked). */
  state?: string;
}

/** The one place that says whether an order can take a ping now, and if not, why. */
export function ineligibility(order: RoutingCandidate, context: RoutingContext): NoRouteReason | null {
  if (context.recentBuyerKeys.has(order.buyerKey)) return "duplicate";
  const local = localTime(context.now, order.timeZone);
  if (order.days && !order.days.includes(local.weekday)) return "outside_hours";
  if (isClosedOn(local.day, order.closedFrom, order.closedUntil)) return "outside_hours";
  if (!withinHours(local.minute, order.hoursStartMinute, order.hoursEndMinute)) return "outside_hours";
  if (order.transfersBillable + order.held >= order.transfersTotal) return "caps_reached";
  if (order.deliveredToday >= order.perDayCap) return "caps_reached";
  if (order.perHourCap !== null && order.deliveredLastHour >= order.perHourCap) return "caps_reached";
  if (order.maxConcurrent !== null && order.held >= order.maxConcurrent) return "caps_reached";
  return agentsIneligibility(order, context);
}

/**
 * An order with agents takes the call only if one of them may take it now (docs/decisions/0072): none
 * licensed in the state reads as an order not open for it; licensed ones all off or outside their hours
 * as outside hours; the others all on calls as a full order. The claim checks who is free again.
 */
function agentsIneligibility(order: RoutingCandidate, context: RoutingContext): NoRouteReason | null {
  const { state, now } = context;
  if (!order.agents || order.agents.length === 0 || state === undefined) return null;
  if (availableAgents(order.agents, state, now).length > 0) return null;
  if (order.agents.some((agent) => agent.onCall && agentIneligibility(agent, state, now) === null)) {
    return "caps_reached";
  }
  return order.agents.some((agent) => agent.states.includes(state)) ? "outside_hours" : "no_open_order";
}

/**
 * The routing rule: among eligible orders, the oldest paid goes first (then the order id, so the choice
 * is stable). Answers the orders to try in turn, or why there is none.
 */
export function rankEligible(
  candidates: RoutingCandidate[],
  context: RoutingContext,
): { orders: RoutingCandidate[] } | { reason: NoRouteReason } {
  if (candidates.length === 0) return { reason: "no_open_order" };
  const reasons = new Set<NoRouteReason>();
  const eligible: RoutingCandidate[] = [];
  for (const order of candidates) {
    const reason = ineligibility(order, context);
    if (reason) reasons.add(reason);
    else eligible.push(order);
  }
  if (eligible.length === 0) {
    return { reason: REASON_PRIORITY.find((reason) => reasons.has(reason)) ?? "no_open_order" };
  }
  eligible.sort((a, b) => a.paidAt - b.paidAt || (a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : 0));
  return { orders: eligible };
}

/** Ten digits of a US phone number, or null: the rule lives in phone.ts (suppression.ts keys numbers by it too). */
export { normalizeUsPhone } from "../../domain/phone.ts";
