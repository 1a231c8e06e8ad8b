/**
 * Nothing of a suppression upload is lost on a crash (as lead imports, decision 0030): a batch answered 2xx
 * is stored in R2 and recorded `queued`, its message sent once the upload is finished and `applying`, and
 * an upload whose batches are all applied waits `applying` for its finish. A message lost on the way leaves
 * one of them waiting; the cron (and the local server's start) sends those again. Applying a batch or
 * finishing an upload twice changes nothing. An upload never finished expires after a day and leaves its
 * list as it was (docs/decisions/0051).
 */
import { STALLED_BATCH_MINUTES } from "../../../src/domain/import-batches";
import {
  SUPPRESSION_UPLOAD_EXPIRY_MS,
  SUPPRESSION_UPLOAD_REFUSALS,
} from "../../../src/features/do-not-call/private-lists";
import type { Deps } from "../../deps";
import type { SuppressionBatchMessage, SuppressionFinishMessage } from "./suppression-messages";

/**
 * Uploads given up before they were finished (`ids`, already `failed`): their waiting batches are failed
 * with `error` and their numbers leave R2. None of them reached a list.
 */
export async function discardUploads(deps: Deps, ids: number[], error: string): Promise<void> {
  if (ids.length === 0) return;
  const db = deps.env.DB;
  await db
    .prepare(
      `UPDATE suppression_upload_batches SET status = 'failed', error = ?1
       WHERE status = 'queued' AND upload_id IN (SELECT value FROM json_each(?2))`,
    )
    .bind(error, JSON.stringify(ids))
    .run();
  for (const id of ids) {
    for (let cursor: string | undefined, more = true; more; ) {
      const listed = await deps.env.DOCUMENTS.list({ prefix: `suppression/${id}/`, cursor });
      if (listed.objects.length > 0) await deps.env.DOCUMENTS.delete(listed.objects.map((object) => object.key));
      more = listed.truncated;
      cursor = listed.truncated ? listed.cursor : undefined;
    }
  }
}

/** Gives up the uploads started more than a day before `deps.now` and never finished; answers how many. */
export async function expireSuppressionUploads(deps: Deps): Promise<number> {
  const error = SUPPRESSION_UPLOAD_REFUSALS.expired;
  const { results } = await deps.env.DB.prepare(
    `UPDATE suppression_uploads SET status = 'failed', error = ?1, finished_at = ?2
     WHERE status = 'receiving' AND created_at < ?3 RETURNING id`,
  )
    .bind(error, deps.now, deps.now - SUPPRESSION_UPLOAD_EXPIRY_MS)
    .all<{ id: number }>();
  await discardUploads(
    deps,
    results.map((row) => row.id),
    error,
  );
  return results.length;
}

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
         WHERE rowid IN (SELECT b.rowid FROM suppression_upload_batches b JOIN suppression_uploads u ON u.id = b.upload_id
                         WHERE b.status = 'queued' AND b.queued_at < ?2 AND u.status = 'applying'
                         ORDER BY b.queued_at LIMIT ?3)
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
