/**
 * When to send a webhook again, when to give up, when to switch an endpoint off, and in which order the
 * events of one subject go out (docs/product-rules.md rule 41, decision 0037). Pure: the clock and the
 * random source are arguments, so tests run days of retries in microseconds.
 */
import {
  type AnyWebhookEventType,
  WEBHOOK_DISABLE_AFTER_MS,
  WEBHOOK_EVENT_RANK,
  WEBHOOK_RETRY_WINDOW_MS,
} from "../webhook-outbox/index.ts";

/** A number in [0, 1), like Math.random. */
export type RandomSource = () => number;

/** The first retry waits about this long after the first failure … */
const RETRY_BASE_DELAY_MS = 60 * 1000;
/** … each further one twice as long … */
const RETRY_BACKOFF_FACTOR = 2;
/** … but never longer than this (well under a Cloudflare Queues message delay's limit). */
export const RETRY_MAX_DELAY_MS = 6 * 60 * 60 * 1000;
/** Each delay is moved by up to this share either way, so retries of many events do not arrive at once. */
const RETRY_JITTER = 0.25;

/** The delay before retry `failedAttempts` (1 = after the first failure), without jitter. */
export function nominalRetryDelayMs(failedAttempts: number): number {
  if (!Number.isInteger(failedAttempts) || failedAttempts < 1) {
    throw new RangeError(`failedAttempts must be a whole number from 1, not ${failedAttempts}`);
  }
  // Past 2^30 the cap has long applied; stop the power from growing without bound.
  const exponent = Math.min(failedAttempts - 1, 30);
  return Math.min(RETRY_MAX_DELAY_MS, RETRY_BASE_DELAY_MS * RETRY_BACKOFF_FACTOR ** exponent);
}

/** The delay before retry `failedAttempts`, moved by jitter drawn from `random`. Whole milliseconds. */
export function retryDelayMs(failedAttempts: number, random: RandomSource): number {
  const draw = random();
  if (!(draw >= 0 && draw < 1)) throw new RangeError(`random() must return a number in [0, 1), not ${draw}`);
  const factor = 1 - RETRY_JITTER + 2 * RETRY_JITTER * draw;
  return Math.round(nominalRetryDelayMs(failedAttempts) * factor);
}

export type RetryDecision =
  | {
      action: "retry";
      /** When to try again (epoch ms); never after the window's end. */
      at: number;
      delayMs: number;
      /** The same delay in whole seconds, rounded up, as Queues' `delaySeconds` takes it. */
      delaySeconds: number;
    }
  | { action: "dead_letter" };

/**
 * What to do after an attempt failed. The window runs from the event's first attempt; the last retry
 * falls on its end at the latest, and a failure at or after the end dead-letters the event.
 */
export function afterFailedAttempt(
  attempt: { failedAttempts: number; firstAttemptAt: number; now: number },
  random: RandomSource,
): RetryDecision {
  const windowEnd = attempt.firstAttemptAt + WEBHOOK_RETRY_WINDOW_MS;
  if (attempt.now >= windowEnd) return { action: "dead_letter" };
  const at = Math.min(attempt.now + retryDelayMs(attempt.failedAttempts, random), windowEnd);
  const delayMs = at - attempt.now;
  return { action: "retry", at, delayMs, delaySeconds: Math.ceil(delayMs / 1000) };
}

/**
 * The attempts of an event that always fails, without jitter: offsets from its first attempt (the first
 * is 0). The docs' retry table is this list.
 */
export function nominalRetrySchedule(): number[] {
  const offsets = [0];
  for (let failed = 1; ; failed++) {
    const now = offsets[offsets.length - 1] ?? 0;
    const decision = afterFailedAttempt({ failedAttempts: failed, firstAttemptAt: 0, now }, () => 0.5);
    if (decision.action === "dead_letter") return offsets;
    offsets.push(decision.at);
  }
}

// ——— Switching a failing endpoint off ———

export interface EndpointHealth {
  /** The first failed attempt since the endpoint last answered 2xx (or was switched on); null when none. */
  failingSince: number | null;
}

/**
 * The endpoint's health after an attempt (any event, the test event included). A 2xx clears the streak;
 * a failure starts it or keeps it. `switchOff` is true when every attempt has failed for 3 days in a row.
 * Switching an endpoint back on starts from `{ failingSince: null }`.
 */
export function endpointHealthAfter(
  health: EndpointHealth,
  attempt: { delivered: boolean; at: number },
): EndpointHealth & { switchOff: boolean } {
  if (attempt.delivered) return { failingSince: null, switchOff: false };
  const failingSince = health.failingSince ?? attempt.at;
  return { failingSince, switchOff: attempt.at - failingSince >= WEBHOOK_DISABLE_AFTER_MS };
}

// ——— Order per subject ———

/** `pending` until the first attempt; `retrying` after a failure; then `delivered` or `dead_letter`. */
export const DELIVERY_STATUSES = ["pending", "retrying", "delivered", "dead_letter"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const isFinalDeliveryStatus = (status: DeliveryStatus): boolean =>
  status === "delivered" || status === "dead_letter";

/** One event's delivery to one endpoint, as the ordering rule sees it. */
export interface OrderedDelivery {
  eventId: string;
  type: AnyWebhookEventType;
  /** `webhookSubject(type, id)`. */
  subject: string;
  /** When the event happened (epoch ms). */
  createdAt: number;
  status: DeliveryStatus;
}

/** The order events of one subject go out in: by time, then the natural order of their types, then id. */
export function compareDeliveries(a: OrderedDelivery, b: OrderedDelivery): number {
  return (
    a.createdAt - b.createdAt ||
    WEBHOOK_EVENT_RANK[a.type] - WEBHOOK_EVENT_RANK[b.type] ||
    (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0)
  );
}

/**
 * The earlier delivery of the same subject, to the same endpoint, that `candidate` must wait for, or null
 * when it may be sent now. An earlier event that is still pending or being retried holds the later ones
 * back (a transfer's `billable` never arrives before its `routed`); one that was delivered or given up
 * (dead letter) does not, so one dead event never blocks a subject for good.
 */
export function waitsFor(candidate: OrderedDelivery, sameEndpoint: readonly OrderedDelivery[]): OrderedDelivery | null {
  let blocker: OrderedDelivery | null = null;
  for (const other of sameEndpoint) {
    if (other.eventId === candidate.eventId || other.subject !== candidate.subject) continue;
    if (isFinalDeliveryStatus(other.status) || compareDeliveries(other, candidate) >= 0) continue;
    if (blocker === null || compareDeliveries(other, blocker) < 0) blocker = other;
  }
  return blocker;
}
