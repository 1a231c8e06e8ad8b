/**
 * The outbox side of buyer webhooks (decision 0044): a fact's service adds `recording.statements` to the
 * batch that writes the fact, so the event exists exactly when the fact does (nothing lost, nothing for a
 * write that did not happen), then hands the deliveries that batch created to the Queue. Nothing is sent
 * on the request path; a delivery whose message is lost is found in D1 by the sweep (./sweep.ts).
 *
 * An event is recorded only for a buyer with a switched-on endpoint subscribed to its type, one delivery
 * per such endpoint, so buyers without webhooks pay two statements that find nothing.
 */
import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import {
  WEBHOOK_EVENT_RANK,
  type WebhookEventType,
  webhookEventIdFor,
  webhookSubject,
} from "../../../src/features/webhook-outbox/events";
import type { Database } from "../../db/client";
import { batchable } from "../../db/raw-batch";
import type { Deps } from "../../deps";

/** One kind of fact, for one buyer, about one or more subjects (e.g. the leads a payment sold). */
export interface WebhookFact {
  type: WebhookEventType;
  /** The buyer: a user id, or SQL answering it (null: no event). */
  userId: string | SQL;
  /** When the fact happened: the write's own `now`. */
  at: number;
  /**
   * Each subject, and the parts of its event id beyond the type (the fact's natural key); `subject` orders
   * the delivery under another key than `<kind>:<subjectId>` (a revocation, under the item it revokes).
   */
  subjects: readonly { subjectId: string; idKeys: readonly string[]; subject?: string }[];
  /**
   * True where the fact did happen in this batch, read after the fact's own statements ran (e.g. the
   * order is paid at `at`). Given the subject id as SQL, for facts that hold per subject.
   */
  when: (subjectId: SQL) => SQL;
}

/** One delivery to hand to the Queue. */
export interface DeliveryKey {
  eventId: string;
  endpointId: string;
}

/** A Queue message: one delivery of one event to one endpoint. */
export interface WebhookDeliveryMessage extends DeliveryKey {
  kind: "webhook";
}

export const isWebhookDeliveryMessage = (body: unknown): body is WebhookDeliveryMessage =>
  typeof body === "object" &&
  body !== null &&
  (body as { kind?: unknown }).kind === "webhook" &&
  typeof (body as { eventId?: unknown }).eventId === "string" &&
  typeof (body as { endpointId?: unknown }).endpointId === "string";

/** Cloudflare Queues takes at most 100 messages per sendBatch. */
const QUEUE_SEND_BATCH = 100;

/** An endpoint of `userId` that is switched on and subscribed to `type`. */
export const subscribedEndpoint = (alias: string, userId: SQL, type: string) =>
  sql`${sql.raw(alias)}.user_id = ${userId} AND ${sql.raw(alias)}.enabled = 1
    AND EXISTS (SELECT 1 FROM json_each(${sql.raw(alias)}.events) WHERE value = ${type})`;

export interface WebhookRecording {
  /** Add these, in this order, at the end of the fact's batch. */
  statements: BatchItem<"sqlite">[];
  /** After the batch: hands the deliveries it created to the Queue (`results` is the whole batch's answer). */
  enqueue(deps: Pick<Deps, "env">, results: readonly unknown[]): Promise<void>;
}

/**
 * Raw SQL: INSERT … SELECT over a JSON list with correlated conditions (the fact, the subscription),
 * which drizzle's insert-select cannot say; the statements run inside payment, routing and dialer batches.
 */
function statementsFor(db: Database, fact: WebhookFact, events: [string, string, string][]) {
  const list = JSON.stringify(events);
  const subjectId = sql`json_extract(j.value, '$[1]')`;
  const record = batchable(
    db,
    db.run(sql`
    INSERT INTO webhook_events (id, user_id, type, subject_id, created_at)
    SELECT json_extract(j.value, '$[0]'), b.user_id, ${fact.type}, ${subjectId}, ${fact.at}
    FROM (SELECT ${fact.userId} AS user_id) b, json_each(${list}) j
    WHERE b.user_id IS NOT NULL
      AND EXISTS (SELECT 1 FROM webhook_endpoints e WHERE ${subscribedEndpoint("e", sql`b.user_id`, fact.type)})
      AND ${fact.when(subjectId)}
    ON CONFLICT (id) DO NOTHING`),
  );
  // Only events this batch recorded (`created_at` = its time): a replayed fact adds no delivery. CROSS JOIN
  // keeps the list outside, so each event is one primary-key lookup.
  const deliver = batchable(
    db,
    db.all<{ event_id: string; endpoint_id: string }>(sql`
    INSERT INTO webhook_deliveries (event_id, endpoint_id, type, subject, rank, event_created_at, next_attempt_at)
    SELECT ev.id, e.id, ev.type, json_extract(j.value, '$[2]'), ${WEBHOOK_EVENT_RANK[fact.type]}, ev.created_at, ev.created_at
    FROM json_each(${list}) j
    CROSS JOIN webhook_events ev ON ev.id = json_extract(j.value, '$[0]') AND ev.created_at = ${fact.at}
    JOIN webhook_endpoints e ON ${subscribedEndpoint("e", sql`ev.user_id`, fact.type)}
    WHERE true
    ON CONFLICT DO NOTHING
    RETURNING event_id, endpoint_id`),
  );
  return [record, deliver] as const;
}

/** The statements that record `facts` (their event ids derived from each fact's natural key). */
export async function webhookRecording(
  deps: Pick<Deps, "db">,
  facts: readonly WebhookFact[],
): Promise<WebhookRecording> {
  const { db } = deps;
  const statements: BatchItem<"sqlite">[] = [];
  for (const fact of facts) {
    if (fact.subjects.length === 0) continue;
    const events = await Promise.all(
      fact.subjects.map(
        async ({ subjectId, idKeys, subject }) =>
          [
            await webhookEventIdFor(fact.type, ...idKeys),
            subjectId,
            subject ?? webhookSubject(fact.type, subjectId),
          ] as [string, string, string],
      ),
    );
    statements.push(...statementsFor(db, fact, events));
  }
  const count = statements.length;
  return {
    statements,
    async enqueue(deps, results) {
      if (count === 0) return;
      const created = results
        .slice(-count)
        .filter((_, index) => index % 2 === 1)
        .flatMap((rows) => (Array.isArray(rows) ? (rows as { event_id: string; endpoint_id: string }[]) : []))
        .map((row) => ({ eventId: row.event_id, endpointId: row.endpoint_id }));
      await enqueueWebhookDeliveries(deps, created);
    },
  };
}

/**
 * Hands deliveries to the Queue, 100 a call. Never throws: the fact is already written, and a delivery
 * whose message did not get through is re-sent by the sweep from D1.
 */
export async function enqueueWebhookDeliveries(
  deps: Pick<Deps, "env">,
  deliveries: readonly (DeliveryKey & { delaySeconds?: number })[],
): Promise<void> {
  for (let start = 0; start < deliveries.length; start += QUEUE_SEND_BATCH) {
    const chunk = deliveries.slice(start, start + QUEUE_SEND_BATCH).map(({ eventId, endpointId, delaySeconds }) => ({
      body: { kind: "webhook", eventId, endpointId } satisfies WebhookDeliveryMessage,
      contentType: "json" as const,
      ...(delaySeconds ? { delaySeconds } : {}),
    }));
    try {
      await deps.env.WEBHOOK_QUEUE.sendBatch(chunk);
    } catch (error) {
      console.error(`Could not queue ${chunk.length} webhook deliveries; the sweep will send them`, error);
    }
  }
}
