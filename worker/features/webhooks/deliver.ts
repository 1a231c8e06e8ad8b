/**
 * The Queue consumer's work (decision 0044): a batch of deliveries is claimed (a lease,
 * so a repeated message never sends twice at once), ordered per subject, and sent with the endpoint's
 * secrets after the address guard looked at it again, on each endpoint's schedule (decision 0052: one
 * batch at a time per endpoint, four requests in flight to it, 100 a batch, its back-off while it fails; what
 * must wait goes back to the Queue with its delay), and settled in one D1 batch:
 * delivered, retried with back-off and jitter (the message goes back to the Queue with its delay), or
 * dead-lettered after 3 days. An endpoint whose every attempt failed for 3 days is switched off and its
 * buyer e-mailed. Every decision reads `deps.now`, so tests drive days of retries with a fake clock.
 */
import { and, sql } from "drizzle-orm";
import { bodyTooLarge, WEBHOOK_MAX_BODY_BYTES, WEBHOOK_TIMEOUT_MS } from "../../../src/features/webhook-outbox/index";
import {
  afterFailedAttempt,
  type DeliveryStatus,
  endpointHealthAfter,
  isFinalDeliveryStatus,
} from "../../../src/features/webhooks/delivery";
import {
  deferSeconds,
  endpointBatchAllowance,
  endpointNextSendAt,
  WEBHOOK_LEASE_MS,
  WEBHOOK_SEND_WINDOW_MS,
} from "../../../src/features/webhooks/schedule";
import type { SecretKeyRing } from "../../../src/features/webhooks/secret-box";
import { unixSeconds, webhookSignatureHeader } from "../../../src/features/webhooks/signature";
import { checkWebhookTarget, type UrlCheck, webhookEnvironment } from "../../../src/features/webhooks/ssrf";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "../../db/schema";
import type { Deps } from "../../deps";
import { type DeliveryKey, enqueueWebhookDeliveries } from "../webhook-outbox/index";
import { type EndpointRow, SWITCHED_OFF_ERROR, signingSecrets } from "./endpoints";
import { webhookKeyRing } from "./keys";
import { blockerOf, freedFollowers, type OpenDelivery, openLanes, subjectIsOrdered } from "./ordering";
import { buildPayloads, inJson } from "./payloads";
import { type Lane, sendFairly } from "./pool";
import { type WebhookRuntime, workerRuntime } from "./runtime";
import { type AttemptResult, attemptDelivery } from "./send";
import { type EndpointRelease, type Settlement, settle, switchOffEndpoints } from "./settle";

/** A message a little early for its delivery (the Queue's delays are whole seconds) still sends it. */
const DUE_SLACK_MS = 2000;

export interface DeliveryReport {
  delivered: number;
  failed: number;
  deadLettered: number;
  /** Held back behind an earlier event of their subject. */
  waiting: number;
  /** Not due, already settled, or being sent by another consumer. */
  skipped: number;
  /** Put off to the endpoint's schedule (its back-off, another batch sending to it, more than 100 in the batch). */
  deferred: number;
}

const pairList = (keys: readonly DeliveryKey[]) => JSON.stringify(keys.map((key) => [key.eventId, key.endpointId]));
const pairIn = (keys: readonly DeliveryKey[]) =>
  sql`(${webhookDeliveries.eventId}, ${webhookDeliveries.endpointId}) IN
    (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(${pairList(keys)}))`;
const OPEN = sql`${webhookDeliveries.status} IN ('pending', 'retrying')`;

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Sends the deliveries named by a batch of Queue messages. Throws only when D1 fails (the Queue retries). */
export async function deliverWebhooks(
  deps: Deps,
  keys: readonly DeliveryKey[],
  runtime: WebhookRuntime = workerRuntime(),
): Promise<DeliveryReport> {
  const report: DeliveryReport = { delivered: 0, failed: 0, deadLettered: 0, waiting: 0, skipped: 0, deferred: 0 };
  const unique = [...new Map(keys.map((key) => [`${key.eventId} ${key.endpointId}`, key])).values()];
  if (unique.length === 0) return report;
  let ring: SecretKeyRing;
  try {
    ring = await webhookKeyRing(deps.env);
  } catch {
    // Not configured: nothing is sent; the deliveries stay in D1 for when the key is set.
    report.skipped = unique.length;
    return report;
  }
  const { now } = deps;
  const lease = now + WEBHOOK_LEASE_MS;
  // Claimed in one statement: what is open, due and held by no other consumer is this one's now.
  const taken = await deps.db
    .update(webhookDeliveries)
    .set({ leasedUntil: new Date(lease) })
    .where(
      and(
        pairIn(unique),
        OPEN,
        sql`${webhookDeliveries.nextAttemptAt} <= ${now + DUE_SLACK_MS}`,
        sql`(${webhookDeliveries.leasedUntil} IS NULL OR ${webhookDeliveries.leasedUntil} <= ${now})`,
      ),
    )
    .returning();
  report.skipped = unique.length - taken.length;

  // Order per subject: those behind an open earlier event wait, without a message (its settling frees them).
  const lanes = await openLanes(deps, taken);
  const parked: Settlement[] = [];
  const claimed: DeliveryRow[] = [];
  for (const row of taken) {
    const blocker = subjectIsOrdered(row.subject) ? blockerOf(row as OpenDelivery, lanes) : null;
    if (blocker) parked.push({ row, lease, park: Math.max(now, blocker.nextAttemptAt.getTime()) });
    else claimed.push(row);
  }
  report.waiting = parked.length;

  // The endpoints this batch may send to now: sent to by no other batch, and not waiting for their
  // back-off. Taken with this batch's lease in the same D1 batch that reads them (decision 0052).
  const endpointIds = [...new Set(claimed.map((row) => row.endpointId))];
  const eventIds = [...new Set(claimed.map((row) => row.eventId))];
  const [endpoints, events, held] = claimed.length
    ? await deps.db.batch([
        deps.db.select().from(webhookEndpoints).where(inJson(webhookEndpoints.id, endpointIds)),
        deps.db.select().from(webhookEvents).where(inJson(webhookEvents.id, eventIds)),
        deps.db
          .update(webhookEndpoints)
          .set({ sendingUntil: new Date(lease) })
          .where(
            and(
              inJson(webhookEndpoints.id, endpointIds),
              sql`(${webhookEndpoints.sendingUntil} IS NULL OR ${webhookEndpoints.sendingUntil} <= ${now})`,
              sql`(${webhookEndpoints.nextSendAt} IS NULL OR ${webhookEndpoints.nextSendAt} <= ${now})`,
            ),
          )
          .returning({ id: webhookEndpoints.id }),
      ])
    : [[], [], []];
  const endpointOf = new Map(endpoints.map((row) => [row.id, row]));
  const eventOf = new Map(events.map((row) => [row.id, row]));
  const built = await buildPayloads(
    deps,
    events.filter((event) => event.payload === null),
  );
  const bodyOf = (eventId: string) => eventOf.get(eventId)?.payload ?? built.get(eventId) ?? null;

  const settlements: Settlement[] = [...parked];
  // What waits for its endpoint, and from when each endpoint may be sent to again.
  const deferred: DeliveryRow[] = [];
  const sendableAt = new Map<string, number>();
  const heldIds = new Set(held.map((row) => row.id));
  const laneOf = new Map<string, Lane<DeliveryRow>>();
  // Oldest first; the most-retried first, so a failing endpoint's probe carries the longest back-off.
  const inOrder = [...claimed].sort(
    (a, b) => b.roundAttempts - a.roundAttempts || a.eventCreatedAt.getTime() - b.eventCreatedAt.getTime(),
  );
  for (const row of inOrder) {
    const endpoint = endpointOf.get(row.endpointId);
    const body = bodyOf(row.eventId);
    const unsendable = !endpoint
      ? "The endpoint no longer exists."
      : !endpoint.enabled && row.type !== "test"
        ? SWITCHED_OFF_ERROR
        : body === null
          ? "What this event tells of no longer exists, so it cannot be sent."
          : bodyTooLarge(body)
            ? `The event is larger than ${WEBHOOK_MAX_BODY_BYTES / 1024} KB.`
            : null;
    if (unsendable || !endpoint) {
      settlements.push({ row, lease, deadLetter: unsendable ?? "" });
    } else if (!heldIds.has(endpoint.id)) {
      deferred.push(row);
      // Another batch is sending to it: a failing endpoint's probe may take its whole timeout.
      const busy = (endpoint.sendingUntil?.getTime() ?? 0) > now;
      const after = busy && endpoint.failingSince !== null ? now + WEBHOOK_TIMEOUT_MS : now;
      sendableAt.set(endpoint.id, Math.max(endpoint.nextSendAt?.getTime() ?? 0, after));
    } else {
      const lane = laneOf.get(endpoint.id) ?? {
        key: endpoint.id,
        waiting: [],
        inFlight: 0,
        attempted: 0,
        stopped: false,
      };
      laneOf.set(endpoint.id, lane);
      // A failing endpoint gets one request (if it answers, the rest follow); a healthy one up to 100.
      if (lane.waiting.length < endpointBatchAllowance(endpoint.failingSince !== null)) lane.waiting.push(row);
      else deferred.push(row);
    }
  }

  const environment = webhookEnvironment(deps.env.APP_ENV);
  const checks = new Map<string, Promise<UrlCheck>>();
  const secretsOf = new Map<string, Promise<string[]>>();
  const started = Date.now();
  const sendWindowMs = runtime.sendWindowMs ?? WEBHOOK_SEND_WINDOW_MS;
  const attempts: { endpoint: EndpointRow; delivered: boolean }[] = [];

  const sendOne = async (row: DeliveryRow): Promise<AttemptResult> => {
    const endpoint = endpointOf.get(row.endpointId) as EndpointRow;
    const body = bodyOf(row.eventId) as string;
    let check = checks.get(endpoint.url);
    if (!check) {
      check = checkWebhookTarget(endpoint.url, environment, runtime.resolveHost);
      checks.set(endpoint.url, check);
    }
    const target = await check;
    if (!target.ok) {
      return {
        delivered: false,
        statusCode: null,
        latencyMs: null,
        answer: null,
        error: `Not sent: ${target.message}`,
      };
    }
    let secrets = secretsOf.get(endpoint.id);
    if (!secrets) {
      secrets = signingSecrets(ring, endpoint, now);
      secretsOf.set(endpoint.id, secrets);
    }
    // Signed as it leaves: the batch's clock moved on by the time spent sending so far.
    const signature = await webhookSignatureHeader(await secrets, body, unixSeconds(now + Date.now() - started));
    return attemptDelivery({ url: target.url, body, signature }, runtime.fetch, runtime.timeoutMs);
  };

  const sendLanes = [...laneOf.values()];
  await sendFairly(
    sendLanes,
    async (row) => {
      const endpoint = endpointOf.get(row.endpointId) as EndpointRow;
      const result = await sendOne(row).catch(
        (error): AttemptResult => ({
          delivered: false,
          statusCode: null,
          latencyMs: null,
          answer: null,
          error: `Not sent: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300),
        }),
      );
      attempts.push({ endpoint, delivered: result.delivered });
      settlements.push({ row, lease, result, decision: result.delivered ? null : retryDecision(row, now, runtime) });
      // No answer at all (a timeout, no connection, an address refused): the endpoint gets no more now.
      return result.statusCode !== null;
    },
    () => Date.now() - started < sendWindowMs,
  );

  // Each endpoint this batch sent to: its failing streak, and when it may be sent to again.
  const health = healthOf(attempts, now);
  const releases: EndpointRelease[] = sendLanes.map((lane) => {
    const after = health.find((item) => item.endpoint.id === lane.key);
    const retryAt = Math.min(
      ...settlements.flatMap((item) =>
        "result" in item && item.row.endpointId === lane.key && item.decision?.action === "retry"
          ? [item.decision.at]
          : [],
      ),
    );
    const nextSendAt = endpointNextSendAt(
      {
        failingSince: after ? after.failingSince : null,
        retryAt: Number.isFinite(retryAt) ? retryAt : null,
      },
      now,
    );
    sendableAt.set(lane.key, nextSendAt ?? now);
    deferred.push(...lane.waiting);
    return { endpointId: lane.key, lease, nextSendAt };
  });
  // Endpoints taken but not sent to (their deliveries were dead letters) are let go as they were.
  for (const id of heldIds) {
    if (!laneOf.has(id))
      releases.push({ endpointId: id, lease, nextSendAt: endpointOf.get(id)?.nextSendAt?.getTime() ?? null });
  }
  const putOff = deferred.map((row) => ({ row, lease, park: Math.max(now, sendableAt.get(row.endpointId) ?? now) }));
  settlements.push(...putOff);
  report.deferred = putOff.length;

  for (const item of settlements) {
    if ("park" in item) continue;
    const status = statusAfter(item);
    if (status === "delivered") report.delivered++;
    else if (status === "dead_letter") report.deadLettered++;
    else report.failed++;
  }

  // A body is kept once an attempt with it failed, so its retries send the same bytes; one delivered at
  // once is not written again (half the writes of a consumer batch in the usual case).
  const retried = new Set(
    settlements
      .filter((item) => !("park" in item) && statusAfter(item) !== "delivered")
      .map((item) => item.row.eventId),
  );
  const keep = new Map([...built].filter(([eventId]) => retried.has(eventId)));
  const switchedOff = await settle(deps, settlements, keep, health, releases);
  await switchOffEndpoints(deps, switchedOff);
  const off = new Set(switchedOff.map((endpoint) => endpoint.id));

  // Retries and what was put off go back to the Queue with their delay; settled deliveries free what
  // waited behind them.
  const retries = settlements.flatMap((item) =>
    "result" in item && item.decision?.action === "retry" && !off.has(item.row.endpointId)
      ? [{ eventId: item.row.eventId, endpointId: item.row.endpointId, delaySeconds: item.decision.delaySeconds }]
      : [],
  );
  const later = putOff
    .filter((item) => !off.has(item.row.endpointId))
    .map(({ row, park }) => ({
      eventId: row.eventId,
      endpointId: row.endpointId,
      delaySeconds: deferSeconds(park, now),
    }));
  const settledLanes = settlements
    .filter((item) => !("park" in item) && isFinalDeliveryStatus(statusAfter(item)))
    .map((item) => item.row);
  await enqueueWebhookDeliveries(deps, [...retries, ...later, ...(await freedFollowers(deps, settledLanes))]);
  return report;
}

function retryDecision(row: DeliveryRow, now: number, runtime: WebhookRuntime) {
  return afterFailedAttempt(
    { failedAttempts: row.roundAttempts + 1, firstAttemptAt: row.firstAttemptAt?.getTime() ?? now, now },
    runtime.random,
  );
}

function statusAfter(item: Settlement): DeliveryStatus {
  if ("park" in item) return item.row.status;
  if ("deadLetter" in item) return "dead_letter";
  if (item.result.delivered) return "delivered";
  return item.decision?.action === "retry" ? "retrying" : "dead_letter";
}

/** Each endpoint's health after this batch's attempts: one 2xx clears its failing streak. */
function healthOf(attempts: readonly { endpoint: EndpointRow; delivered: boolean }[], now: number) {
  const byEndpoint = new Map<string, { endpoint: EndpointRow; delivered: boolean }>();
  for (const attempt of attempts) {
    const seen = byEndpoint.get(attempt.endpoint.id);
    byEndpoint.set(attempt.endpoint.id, {
      endpoint: attempt.endpoint,
      delivered: Boolean(seen?.delivered) || attempt.delivered,
    });
  }
  return [...byEndpoint.values()].map(({ endpoint, delivered }) => ({
    endpoint,
    ...endpointHealthAfter({ failingSince: endpoint.failingSince?.getTime() ?? null }, { delivered, at: now }),
  }));
}
