/**
 * The cron's part in webhook delivery (worker/scheduled.ts, every minute): D1 is the outbox, the Queue
 * only carries it. Every run hands the Queue again each delivery whose consumer died holding it (its
 * lease ran out unsettled; at start-up, every lease of the previous process), and each delivery overdue
 * by more than OVERDUE_MS (its message lost: a failed send, a restart); records `transfer.not_charged` for answers left to run out, which no
 * request ends; and drops events older than WEBHOOK_RETENTION_DAYS with their deliveries.
 */
import { sql } from "drizzle-orm";
import { WEBHOOK_LEASE_MS } from "../../../src/features/webhooks/schedule";
import type { Deps } from "../../deps";
import type { WebhookFact } from "../webhook-outbox/index";
import { enqueueWebhookDeliveries, subscribedEndpoint, webhookRecording } from "../webhook-outbox/index";

/** A delivery this late (its due time passed, nobody holds it) lost its message. */
export const OVERDUE_MS = 10 * 60 * 1000;
/** Deliveries re-queued and transfers looked at per run, so a run stays small. */
const SWEEP_LIMIT = 1000;
/** Events and their log lines are kept this long. */
export const WEBHOOK_RETENTION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface WebhookSweep {
  requeued: number;
  /** Of those, deliveries taken back from a consumer that never settled them. */
  reclaimed: number;
  expiredTransfers: number;
  deleted: number;
}

/**
 * `startup`: the Queue just started empty and nothing of this process has claimed a delivery yet (the
 * local server runs it before it takes a request), so every due delivery is re-queued, however little
 * overdue, and every lease still held is one the last process took and will never settle.
 */
export async function sweepWebhooks(deps: Deps, options: { startup?: boolean } = {}): Promise<WebhookSweep> {
  const cutoff = options.startup ? deps.now : deps.now - OVERDUE_MS;
  // A lease taken at t runs until t + WEBHOOK_LEASE_MS: at start-up every lease taken up to now is reclaimed.
  const leaseCutoff = options.startup ? deps.now + WEBHOOK_LEASE_MS : deps.now;
  // Raw SQL: UPDATE … WHERE (pair) IN (SELECT … LIMIT) RETURNING, which drizzle's update cannot say; a
  // delivery that was settled is no longer open, so it is never taken back and never sent twice.
  const reclaimed = await deps.db.all<{ event_id: string; endpoint_id: string }>(sql`
    UPDATE webhook_deliveries SET leased_until = NULL
    WHERE (event_id, endpoint_id) IN (
      SELECT event_id, endpoint_id FROM webhook_deliveries
      WHERE status IN ('pending', 'retrying') AND leased_until IS NOT NULL AND leased_until <= ${leaseCutoff}
      LIMIT ${SWEEP_LIMIT})
    RETURNING event_id, endpoint_id`);
  await deps.db.run(sql`
    UPDATE webhook_endpoints SET sending_until = NULL
    WHERE sending_until IS NOT NULL AND sending_until <= ${leaseCutoff}`);
  const overdue = await deps.db.all<{ event_id: string; endpoint_id: string }>(sql`
    SELECT event_id, endpoint_id FROM webhook_deliveries
    WHERE status IN ('pending', 'retrying') AND next_attempt_at <= ${cutoff}
      AND (leased_until IS NULL OR leased_until <= ${deps.now})
    ORDER BY next_attempt_at LIMIT ${SWEEP_LIMIT}`);
  const again = new Map(
    [...reclaimed, ...overdue].map((row) => [
      `${row.event_id} ${row.endpoint_id}`,
      { eventId: row.event_id, endpointId: row.endpoint_id },
    ]),
  );
  await enqueueWebhookDeliveries(deps, [...again.values()]);
  const expiredTransfers = await recordExpiredTransfers(deps);
  const deleted = await deps.db.run(sql`
    DELETE FROM webhook_events WHERE id IN (
      SELECT id FROM webhook_events WHERE created_at < ${deps.now - WEBHOOK_RETENTION_DAYS * DAY_MS} LIMIT ${SWEEP_LIMIT})`);
  return { requeued: again.size, reclaimed: reclaimed.length, expiredTransfers, deleted: deleted.meta.changes ?? 0 };
}

/**
 * A routed answer nobody connected in time (or a connected call never reported ended) expires without a
 * request: `transfer.not_charged` for the buyers subscribed to it, once per transfer (its id is derived).
 */
async function recordExpiredTransfers(deps: Deps): Promise<number> {
  const type = "transfer.not_charged";
  // Raw SQL: from the few subscribed endpoints into each buyer's recent transfers (CROSS JOIN keeps that
  // order: transfers_buyer_routed_idx), never a walk over every transfer.
  const rows = await deps.db.all<{ id: string; buyer_user_id: string }>(sql`
    SELECT DISTINCT t.id, t.buyer_user_id FROM webhook_endpoints e
    CROSS JOIN transfers t ON t.buyer_user_id = e.user_id
    WHERE ${subscribedEndpoint("e", sql`e.user_id`, type)}
      AND t.routed_at > ${deps.now - DAY_MS} AND t.status IN ('routed', 'connected') AND t.expires_at <= ${deps.now}
      AND NOT EXISTS (SELECT 1 FROM webhook_events ev WHERE ev.subject_id = t.id AND ev.type = ${type})
    LIMIT ${SWEEP_LIMIT}`);
  if (rows.length === 0) return 0;
  const byBuyer = new Map<string, string[]>();
  for (const row of rows) byBuyer.set(row.buyer_user_id, [...(byBuyer.get(row.buyer_user_id) ?? []), row.id]);
  const facts: WebhookFact[] = [...byBuyer].map(([buyer, transferIds]) => ({
    type,
    userId: buyer,
    at: deps.now,
    subjects: transferIds.map((id) => ({ subjectId: id, idKeys: [id] })),
    when: (transferId) =>
      sql`EXISTS (SELECT 1 FROM transfers t WHERE t.id = ${transferId} AND t.status IN ('routed', 'connected')
        AND t.expires_at <= ${deps.now})`,
  }));
  const recording = await webhookRecording(deps, facts);
  const [first, ...rest] = recording.statements;
  if (!first) return 0;
  await recording.enqueue(deps, await deps.db.batch([first, ...rest]));
  return rows.length;
}
