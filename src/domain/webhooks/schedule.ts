/**
 * How deliveries share the network between endpoints (docs/decisions/0052-webhook-delivery-scheduling.md):
 * a few requests in flight per endpoint, one consumer batch sending to an endpoint at a time, a rate per
 * endpoint, a back-off for the endpoint as a whole while it fails (one request at its next retry; the
 * rest once that one gets a 2xx), and a bound on how long a batch goes on starting requests. So one slow, hanging or failing endpoint never holds up another's deliveries,
 * and a resend or a test event goes out on the endpoint's schedule. Pure: the clock is an argument.
 */
import { WEBHOOK_TIMEOUT_MS } from "./events.ts";

/** Requests in flight at once in one consumer batch (a Worker opens at most six connections at a time). */
export const WEBHOOK_BATCH_CONCURRENCY = 6;
/** Requests in flight at once to one endpoint: a hanging endpoint still leaves two connections free. */
export const WEBHOOK_ENDPOINT_IN_FLIGHT = 4;
/** Deliveries one endpoint is sent per second at most (one batch a second, this many in it). */
export const WEBHOOK_ENDPOINT_RATE_PER_SECOND = 100;
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

/** How many of an endpoint's deliveries one batch may send: one probe while it fails, else its rate. */
export const endpointBatchAllowance = (failing: boolean): number => (failing ? 1 : WEBHOOK_ENDPOINT_RATE_PER_SECOND);

/**
 * When an endpoint may be sent to again after a batch that attempted `attempted` of its deliveries.
 * While it fails (no 2xx since `failingSince`): when the first of its failed deliveries is retried
 * (`retryAt`, that delivery's back-off), so its other deliveries wait with it; else after its rate.
 */
export function endpointNextSendAt(
  outcome: { attempted: number; failingSince: number | null; retryAt: number | null },
  now: number,
): number | null {
  if (outcome.failingSince !== null) return outcome.retryAt ?? now + WEBHOOK_ENDPOINT_BACKOFF_MIN_MS;
  if (outcome.attempted === 0) return null;
  // Its share of the second: 100 sent wait a second, one sent waits 10 ms.
  return now + Math.ceil((outcome.attempted * 1000) / WEBHOOK_ENDPOINT_RATE_PER_SECOND);
}

/** The Queue delay (whole seconds, at least one) of a delivery deferred until `until`. */
export const deferSeconds = (until: number, now: number): number =>
  Math.max(1, Math.ceil((Math.max(until, now + WEBHOOK_DEFER_MIN_MS) - now) / 1000));
