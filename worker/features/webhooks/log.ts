/**
 * What the buyer sees and does about delivery: an endpoint's delivery log (newest
 * first, filtered and paged), "Send test event", and "Resend" for one event or for every failed event of
 * a time range. Resending keeps the event's id and body and starts a new 3-day round of attempts, on the
 * endpoint's schedule (its pace, its back-off while it fails: decision 0052); "resend failed" is bounded
 * per press and per minute. Nothing is sent here: the Queue does it.
 */
import { and, count, desc, eq, gte, inArray, lte, type SQL, sql } from "drizzle-orm";
import { site } from "../../../src/config/site";
import {
  newWebhookEventId,
  TEST_EVENT_TYPE,
  WEBHOOK_EVENT_ID_PATTERN,
  WEBHOOK_EVENT_RANK,
  webhookSubject,
} from "../../../src/features/webhook-outbox/index";
import {
  WEBHOOK_BULK_RESEND_LIMITED,
  WEBHOOK_BULK_RESENDS_PER_MINUTE,
  WEBHOOK_LOG_PAGE_SIZE,
  WEBHOOK_RESEND_MAX,
  type WebhookDeliveryPage,
  type WebhookDeliveryView,
  type WebhookLogQuery,
} from "../../../src/features/webhooks/schemas/webhook-settings";
import { buildWebhookEvent } from "../../../src/features/webhooks/schemas/webhooks";
import { webhookDeliveries, webhookEvents } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError, InvalidError, NotFoundError, RateLimitedError } from "../../errors";
import { admit, type RateRule } from "../../services/rate-limiter";
import { enqueueWebhookDeliveries } from "../webhook-outbox/index";
import { type EndpointRow, ownedEndpoint } from "./endpoints";

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
const iso = (date: Date | null) => (date ? date.toISOString() : null);
const OPEN = ["pending", "retrying"];

function toDeliveryView(row: DeliveryRow): WebhookDeliveryView {
  return {
    eventId: row.eventId,
    type: row.type,
    createdAt: row.eventCreatedAt.toISOString(),
    status: row.status,
    attempts: row.attempts,
    lastAttemptAt: iso(row.lastAttemptAt),
    nextAttemptAt: OPEN.includes(row.status) ? row.nextAttemptAt.toISOString() : null,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    latencyMs: row.latencyMs,
    answer: row.answer,
  };
}

function logFilter(endpointId: string, query: Omit<WebhookLogQuery, "page">): SQL | undefined {
  const { status, type, from, to } = query;
  return and(
    eq(webhookDeliveries.endpointId, endpointId),
    status === "failed"
      ? sql`${webhookDeliveries.status} IN ('retrying', 'dead_letter')`
      : status
        ? eq(webhookDeliveries.status, status)
        : undefined,
    type ? eq(webhookDeliveries.type, type) : undefined,
    from !== undefined ? gte(webhookDeliveries.eventCreatedAt, new Date(from)) : undefined,
    to !== undefined ? lte(webhookDeliveries.eventCreatedAt, new Date(to)) : undefined,
  );
}

/** The endpoint's deliveries, newest event first, WEBHOOK_LOG_PAGE_SIZE a page (webhook_deliveries_log_idx). */
export async function deliveryLog(
  deps: Deps,
  userId: string,
  endpointId: string,
  query: WebhookLogQuery,
): Promise<WebhookDeliveryPage> {
  await ownedEndpoint(deps, userId, endpointId);
  const where = logFilter(endpointId, query);
  const [[counted], rows] = await deps.db.batch([
    deps.db.select({ total: count() }).from(webhookDeliveries).where(where),
    deps.db
      .select()
      .from(webhookDeliveries)
      .where(where)
      // The index's own order (time newest first, then id), so no sort is needed.
      .orderBy(desc(webhookDeliveries.eventCreatedAt), webhookDeliveries.eventId)
      .limit(WEBHOOK_LOG_PAGE_SIZE)
      .offset((query.page - 1) * WEBHOOK_LOG_PAGE_SIZE),
  ]);
  const total = counted?.total ?? 0;
  return {
    items: rows.map(toDeliveryView),
    total,
    page: query.page,
    pageSize: WEBHOOK_LOG_PAGE_SIZE,
    pageCount: Math.max(1, Math.ceil(total / WEBHOOK_LOG_PAGE_SIZE)),
  };
}

/** What a resend sets: pending now, a new round of attempts (the back-off and the 3 days start again). */
const resetForResend = (now: number) => ({
  status: "pending" as const,
  roundAttempts: 0,
  firstAttemptAt: null,
  nextAttemptAt: new Date(now),
  leasedUntil: null,
});

const notLeased = (now: number) =>
  sql`(${webhookDeliveries.leasedUntil} IS NULL OR ${webhookDeliveries.leasedUntil} <= ${now})`;

const SWITCH_ON_FIRST = "Switch the endpoint on to resend its events.";

function assertOn(endpoint: EndpointRow) {
  if (!endpoint.enabled) throw new ConflictError(SWITCH_ON_FIRST);
}

/** "Resend failed" presses, per endpoint, counted in D1 (a rule of the one rate limiter, decision 0031). */
const BULK_RESEND_RULE: RateRule = {
  name: "webhook-bulk-resend",
  limit: WEBHOOK_BULK_RESENDS_PER_MINUTE,
  windowMs: 60_000,
};

/** Sends one event to the endpoint again (its id and body unchanged). */
export async function resendDelivery(
  deps: Deps,
  userId: string,
  endpointId: string,
  eventId: string,
): Promise<WebhookDeliveryView> {
  const endpoint = await ownedEndpoint(deps, userId, endpointId);
  if (!WEBHOOK_EVENT_ID_PATTERN.test(eventId)) {
    throw new InvalidError("That is not an event id (evt_ and 32 hexadecimal digits).");
  }
  const key = and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.eventId, eventId));
  const [current] = await deps.db.select().from(webhookDeliveries).where(key);
  if (!current) throw new NotFoundError("No such event in this endpoint's log.");
  if (current.type !== TEST_EVENT_TYPE) assertOn(endpoint);
  const [row] = await deps.db
    .update(webhookDeliveries)
    .set(resetForResend(deps.now))
    .where(and(key, notLeased(deps.now)))
    .returning();
  if (!row) throw new ConflictError("This event is being sent right now. Look again in a minute.");
  await enqueueWebhookDeliveries(deps, [{ eventId, endpointId }]);
  return toDeliveryView(row);
}

/**
 * Sends every failed event (retrying or dead letter) of the endpoint that happened within the range
 * again, oldest first, at most WEBHOOK_RESEND_MAX at a time (`more` says the rest waits for another press).
 */
export async function resendFailed(
  deps: Deps,
  userId: string,
  endpointId: string,
  range: { from: number; to: number },
): Promise<{ resent: number; more: boolean }> {
  assertOn(await ownedEndpoint(deps, userId, endpointId));
  if (!(await admit(deps, BULK_RESEND_RULE, endpointId))) throw new RateLimitedError(WEBHOOK_BULK_RESEND_LIMITED);
  const failedInRange = and(
    logFilter(endpointId, { status: "failed", from: range.from, to: range.to }),
    notLeased(deps.now),
  );
  const chosen = deps.db
    .select({ eventId: webhookDeliveries.eventId })
    .from(webhookDeliveries)
    .where(failedInRange)
    .orderBy(webhookDeliveries.eventCreatedAt)
    .limit(WEBHOOK_RESEND_MAX);
  const rows = await deps.db
    .update(webhookDeliveries)
    .set(resetForResend(deps.now))
    .where(and(failedInRange, inArray(webhookDeliveries.eventId, chosen)))
    .returning({ eventId: webhookDeliveries.eventId });
  await enqueueWebhookDeliveries(
    deps,
    rows.map((row) => ({ eventId: row.eventId, endpointId })),
  );
  const [left] = await deps.db.select({ total: count() }).from(webhookDeliveries).where(failedInRange);
  return { resent: rows.length, more: (left?.total ?? 0) > 0 };
}

const TEST_EVENT_MESSAGE = `A test event from ${site.brandName}: your endpoint is set up.`;

/** A `test` event for this endpoint only (also while it is switched off, to check it before switching it on). */
export async function sendTestEvent(deps: Deps, userId: string, endpointId: string): Promise<WebhookDeliveryView> {
  await ownedEndpoint(deps, userId, endpointId);
  const id = newWebhookEventId();
  const event = buildWebhookEvent(TEST_EVENT_TYPE, { message: TEST_EVENT_MESSAGE }, { id, createdAt: deps.now });
  const at = new Date(deps.now);
  const [, [row]] = await deps.db.batch([
    deps.db.insert(webhookEvents).values({
      id,
      userId,
      type: TEST_EVENT_TYPE,
      subjectId: id,
      payload: JSON.stringify(event),
      createdAt: at,
    }),
    deps.db
      .insert(webhookDeliveries)
      .values({
        eventId: id,
        endpointId,
        type: TEST_EVENT_TYPE,
        subject: webhookSubject(TEST_EVENT_TYPE, id),
        rank: WEBHOOK_EVENT_RANK[TEST_EVENT_TYPE],
        eventCreatedAt: at,
        nextAttemptAt: at,
      })
      .returning(),
  ]);
  if (!row) throw new Error("The test event was not recorded");
  await enqueueWebhookDeliveries(deps, [{ eventId: id, endpointId }]);
  return toDeliveryView(row);
}
