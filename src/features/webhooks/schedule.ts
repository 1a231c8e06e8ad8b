/**
 * How deliveries share the network between endpoints (docs/decisions/0052-webhook-delivery-scheduling.md):
 * a few requests in flight per endpoint, one consumer batch sending to an endpoint at a time, at most
 * 100 of its deliveries per batch, a back-off for the endpoint as a whole while it fails (one request at its next retry; the
 * rest once that one gets a 2xx), and a bound on how long a batch goes on starting requests. So one slow, hanging or failing endpoint never holds up another's deliveries,
 * and a resend or a test event goes out on the endpoint's schedule. Pure: the clock is an argument.
 */
import { WEBHOOK_TIMEOUT_MS } from "../webhook-outbox/index.ts";

/** Requests in flight at once in one consumer batch (a Worker opens at most six connections at a time). */
export const WEBHOOK_BATCH_CONCURRENCY = 6;
/** Requests in flight at once to one endpoint: a hanging endpoint still leaves two connections free. */
export const WEBHOOK_ENDPOINT_IN_FLIGHT = 4;
/**
 * Deliveries of one endpoint one batch sends at most. With one batch at a time per endpoint and four
 * requests in flight, that is the endpoint's pace: as fast as it answers, never more than four at once.
 */
export const WEBHOOK_ENDPOINT_BATCH_MAX = 100;
/** A batch starts no request after sending for this long; what is left goes out in a later batch. */
export const WEBHOOK_SEND_WINDOW_MS = WEBHOOK_TIMEOUT_MS;
/**
 * How long a consumer holds what it claimed: the send window, a last request's timeout, and D1 writes,
 * with room to spare. A consumer that died lets go when it runs out; the sweep sends its deliveries again.
 */
export const WEBHOOK_LEASE_MS = 60 * 1000;
/** How long a failing endpoint waits when none of its failed deliveries is to be retried (all given up). */
const WEBHOOK_ENDPOINT_BACKOFF_MIN_MS = 60 * 1000;
/** The shortest wait of a deferred delivery (a Queue message's delay is whole seconds). */
const WEBHOOK_DEFER_MIN_MS = 1000;

/** How many of an endpoint's deliveries one batch may send: one probe while it fails, else its most. */
export const endpointBatchAllowance = (failing: boolean): number => (failing ? 1 : WEBHOOK_ENDPOINT_BATCH_MAX);

/**
 * When an endpoint may be sent to again after a batch. While it fails (no 2xx since `failingSince`):
 * when the first of its failed deliveries is retried (`retryAt`, that delivery's back-off), so its other
 * deliveries wait with it; else at once (null).
 */
export function endpointNextSendAt(
  outcome: { failingSince: number | null; retryAt: number | null },
  now: number,
): number | null {
  if (outcome.failingSince === null) return null;
  return outcome.retryAt ?? now + WEBHOOK_ENDPOINT_BACKOFF_MIN_MS;
}

/** The Queue delay (whole seconds, at least one) of a delivery deferred until `until`. */
export const deferSeconds = (until: number, now: number): number =>
  Math.max(1, Math.ceil((Math.max(until, now + WEBHOOK_DEFER_MIN_MS) - now) / 1000));
