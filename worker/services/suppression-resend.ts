/**
 * Nothing of a suppression upload is lost on a crash (as lead imports, decision 0030): a batch answered 2xx
 * is stored in R2 and recorded `queued` before its message is sent, and an upload whose file ended waits
 * `applying` for its finish. A message lost on the way leaves one of them waiting; the cron (and the local
 * server's start) sends those again. Applying a batch or finishing an upload twice changes nothing.
 */
import { STALLED_BATCH_MINUTES } from "../../src/domain/csv-mapping";
import type { Deps } from "../deps";
import type { SuppressionBatchMessage, SuppressionFinishMessage } from "./suppression-apply";

const STALLED_MS = STALLED_BATCH_MINUTES * 60_000;
/** At most this many of each a run (one `sendBatch` each). */
const PER_RUN = 100;

/** Sends again the batches and finishes waiting longer than `stalledAfterMs`; answers how many. */
export async function resendStalledSuppression(deps: Deps, stalledAfterMs = STALLED_MS): Promise<number> {
  const db = deps.env.DB;
  const cutoff = deps.now - stalledAfterMs;
  const [batches, finishes] = await db.batch<{ upload_id: number; batch_number?: number }>([
    db
      .prepare(
        `UPDATE suppression_upload_batches SET queued_at = ?1
         WHERE rowid IN (SELECT rowid FROM suppression_upload_batches WHERE status = 'queued' AND queued_at < ?2
                         ORDER BY queued_at LIMIT ?3)
         RETURNING upload_id, batch_number`,
      )
      .bind(deps.now, cutoff, PER_RUN),
    db
      .prepare(
        `UPDATE suppression_uploads SET queued_at = ?1
         WHERE id IN (SELECT id FROM suppression_uploads WHERE status = 'applying' AND queued_at < ?2
                      AND batches_done = batches_expected ORDER BY queued_at LIMIT ?3)
         RETURNING id AS upload_id`,
      )
      .bind(deps.now, cutoff, PER_RUN),
  ]);
  const messages = [
    ...(batches?.results ?? []).map(
      (row): SuppressionBatchMessage => ({
        kind: "suppression-batch",
        uploadId: row.upload_id,
        batchNumber: row.batch_number ?? 0,
      }),
    ),
    ...(finishes?.results ?? []).map(
      (row): SuppressionFinishMessage => ({ kind: "suppression-finish", uploadId: row.upload_id }),
    ),
  ];
  if (messages.length > 0) {
    await deps.env.IMPORT_QUEUE.sendBatch(messages.map((body) => ({ body, contentType: "json" as const })));
  }
  return messages.length;
}
