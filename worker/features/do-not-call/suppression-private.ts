/**
 * A buyer's private list, the Queue consumer's half (docs/decisions/0066). Local and real D1 run one
 * statement at a time: a 10,000-number transaction (and a range sweep reading a million rows) makes every
 * other request wait behind it. So a private list's batch is applied `PRIVATE_CHUNK` numbers per
 * transaction, pausing between them, and the removal of the old numbers walks the list's index the same
 * way, one message at a time.
 *
 * A full file is a new version of the list, written beside the old one: its new numbers carry `staged_by`
 * (hidden while above the list's `version_upload_id`), the numbers the list already held are marked as
 * listed again (`last_upload_id`) and stay visible. When every batch is in, one small UPDATE swaps the
 * version in (the list's `version_upload_id`, its count and, when old numbers remain, `sweeping_upload_id`
 * that hides them at once); then they are deleted, a step at a time. Readers (`privateListVisible` in
 * suppression-rules.ts) see the old list until the swap, the new one from it. Additions and change lists
 * apply in place, chunk by chunk, as before.
 */
import { dayNumber } from "../../../src/features/do-not-call/suppression";
import type { Deps } from "../../deps";
import { optimizeDatabase } from "../../services/db-maintenance";
import type { SuppressionBatchMessage, SuppressionFinishMessage } from "./suppression-messages";
import { NOW_MS } from "./suppression-rules";

/**
 * Numbers one transaction applies or sweeps, and the pause after it. What slows other buyers' requests is
 * how many of them meet a write, more than how long one write takes: a transaction of 100 numbers (about
 * 2 ms) every 20 ms still made another buyer's list p95 1.33× on a quiet machine, 250 every 25 ms 1.39×,
 * 1,000 every 0.4 s 1.16×, 2,000 (about 5 ms) every 0.8 s 1.14× (docs/decisions/0066). So the writes are
 * few and far apart: fewer than one request in twenty meets one, and the p95 does not see them. The cost is
 * apply time (a 1,000,000-number list: 500 transactions, about 6.5 minutes).
 */
export const PRIVATE_CHUNK = 2000;
/**
 * The pause between two of them: at least `PAUSE_SHARE` times as long as the last one took (the upload
 * holds the writer at most a twentieth of the time, however slow D1 gets), and never under `PAUSE_MS`
 * (or the environment's `PRIVATE_LIST_WRITE_GAP_MS`).
 */
const PAUSE_MS = 800;
const PAUSE_SHARE = 19;
/** Sweep steps one finish message takes (3 queries each); the next message carries on. */
const STEPS_PER_MESSAGE = 20;
/**
 * Chunks one batch message applies; a batch with more sends its message again and the next delivery
 * carries on from the batch's progress. This keeps a message's D1 queries low enough that a whole Queue
 * delivery fits one invocation: a message handed back over budget would use up its retries.
 */
const CHUNKS_PER_MESSAGE = 4;
/** D1 queries a private batch message costs at most: the progress read, 5 per chunk, the end of the batch. */
export const PRIVATE_BATCH_QUERIES = 1 + 5 * CHUNKS_PER_MESSAGE + 2;
/** D1 queries a private finish message costs at most: two reads, the steps, the end of two, `PRAGMA optimize`. */
export const PRIVATE_FINISH_QUERIES = 2 + 3 * STEPS_PER_MESSAGE + 2 + 1;

const SWEEP_START = 2_000_000_000;
const SWEEP_END = 9_999_999_999;

function pause(deps: Deps, took: number): Promise<void> {
  const gap = Number(deps.env.PRIVATE_LIST_WRITE_GAP_MS ?? PAUSE_MS);
  const least = Number.isFinite(gap) && gap >= 0 ? gap : PAUSE_MS;
  return new Promise((resolve) => setTimeout(resolve, Math.max(least, PAUSE_SHARE * took)));
}

/**
 * Applies one batch of a private list's upload, `PRIVATE_CHUNK` numbers per transaction, at most
 * `CHUNKS_PER_MESSAGE` of them per message (then the message is sent again and answers false: the batch
 * is not done yet). Each chunk is guarded by the batch's progress (`applied`), so a redelivered or
 * duplicated message applies each chunk once and carries on where the last one stopped. A full file's
 * numbers are staged (not on the list yet).
 */
export async function applyPrivateBatch(
  deps: Deps,
  message: SuppressionBatchMessage,
  target: { listId: number; staged: boolean },
  add: number[],
  remove: number[],
): Promise<boolean> {
  const db = deps.env.DB;
  const { uploadId, batchNumber } = message;
  const { listId, staged } = target;
  const progress = await db
    .prepare("SELECT applied FROM suppression_upload_batches WHERE upload_id = ? AND batch_number = ?")
    .bind(uploadId, batchNumber)
    .first<{ applied: number }>();
  const total = add.length + remove.length;
  for (let offset = progress?.applied ?? 0, chunks = 0; offset < total; chunks++) {
    if (chunks === CHUNKS_PER_MESSAGE) {
      await deps.env.IMPORT_QUEUE.send(message, { contentType: "json" });
      return false;
    }
    const adding = offset < add.length;
    const chunk = adding
      ? add.slice(offset, Math.min(offset + PRIVATE_CHUNK, add.length))
      : remove.slice(offset - add.length, offset - add.length + PRIVATE_CHUNK);
    const numbers = JSON.stringify(chunk);
    const at = `EXISTS (SELECT 1 FROM suppression_upload_batches WHERE upload_id = ${uploadId}
      AND batch_number = ${batchNumber} AND status = 'queued' AND applied = ${offset})`;
    const count = (column: "added" | "removed" | "relisted") =>
      db
        .prepare(
          `UPDATE suppression_upload_batches SET ${column} = ${column} + changes()
           WHERE upload_id = ? AND batch_number = ? AND applied = ?`,
        )
        .bind(uploadId, batchNumber, offset);
    const statements = adding
      ? [
          db
            .prepare(
              `INSERT INTO suppression_numbers (number, list_id, added_on, last_upload_id, staged_by)
               SELECT value, ?1, ?2, ?3, ?4 FROM json_each(?5) WHERE ${at}
               ON CONFLICT (number, list_id) DO ${
                 // A number a failed full upload left staged (hidden) is on the list from now on.
                 staged
                   ? "NOTHING"
                   : `UPDATE SET staged_by = NULL, last_upload_id = excluded.last_upload_id
                      WHERE suppression_numbers.staged_by > (SELECT version_upload_id FROM suppression_lists WHERE id = ?1)`
               }`,
            )
            .bind(listId, dayNumber(deps.now), uploadId, staged ? uploadId : null, numbers),
          count("added"),
          // A number the list already holds stays on it, marked as listed by this file (the rest leave).
          ...(staged
            ? [
                db
                  .prepare(
                    `UPDATE suppression_numbers SET last_upload_id = ?1
                     WHERE list_id = ?2 AND number IN (SELECT value FROM json_each(?3)) AND last_upload_id IS NOT ?1 AND ${at}`,
                  )
                  .bind(uploadId, listId, numbers),
                count("relisted"),
              ]
            : []),
        ]
      : [
          db
            .prepare(
              `DELETE FROM suppression_numbers WHERE list_id = ?1 AND number IN (SELECT value FROM json_each(?2)) AND ${at}`,
            )
            .bind(listId, numbers),
          count("removed"),
        ];
    const started = Date.now();
    await db.batch([
      ...statements,
      db
        .prepare(
          `UPDATE suppression_upload_batches SET applied = ?1
           WHERE upload_id = ?2 AND batch_number = ?3 AND status = 'queued' AND applied = ?4`,
        )
        .bind(offset + chunk.length, uploadId, batchNumber, offset),
    ]);
    offset += chunk.length;
    if (offset < total) await pause(deps, Date.now() - started);
  }
  const whole = `EXISTS (SELECT 1 FROM suppression_upload_batches WHERE upload_id = ${uploadId}
    AND batch_number = ${batchNumber} AND status = 'queued' AND applied = ${total})`;
  await db.batch([
    // A staged file counts at the swap; additions and change lists count as they apply.
    ...(staged
      ? []
      : [
          db
            .prepare(
              `UPDATE suppression_lists SET numbers = numbers + (SELECT added - removed FROM suppression_upload_batches
                 WHERE upload_id = ?1 AND batch_number = ?2), updated_at = ${NOW_MS} WHERE id = ?3 AND ${whole}`,
            )
            .bind(uploadId, batchNumber, listId),
        ]),
    db
      .prepare(
        `UPDATE suppression_upload_batches SET status = 'done'
         WHERE upload_id = ? AND batch_number = ? AND status = 'queued' AND applied = ?`,
      )
      .bind(uploadId, batchNumber, total),
  ]);
  return true;
}

export interface PrivateFinishTarget {
  list_id: number;
  contents: string;
  swept_to: number;
  refreshed_on: string;
}

/**
 * Finishes a private list's upload whose batches are all applied. A full file: the swap (one message),
 * then the old version's numbers deleted `PRIVATE_CHUNK` index entries per step, `STEPS_PER_MESSAGE` steps
 * a message (the next message carries on). Answers whether the upload is done.
 */
export async function finishPrivateUpload(
  deps: Deps,
  message: SuppressionFinishMessage,
  upload: PrivateFinishTarget,
): Promise<boolean> {
  const db = deps.env.DB;
  const { uploadId } = message;
  const listId = upload.list_id;
  const applying = `EXISTS (SELECT 1 FROM suppression_uploads WHERE id = ${uploadId} AND status = 'applying')`;
  if (upload.contents === "full") {
    const list = await db
      .prepare("SELECT version_upload_id AS version FROM suppression_lists WHERE id = ?")
      .bind(listId)
      .first<{ version: number }>();
    if ((list?.version ?? 0) < uploadId) {
      // Old numbers to delete: the list held some this file did not list again (its count is kept exactly
      // with its rows), or a full upload that failed after staging left some. Otherwise there is no sweep.
      const [swapped] = await db.batch<{ sweeping: number | null }>([
        db
          .prepare(
            `UPDATE suppression_lists SET version_upload_id = ?1,
               sweeping_upload_id = CASE
                 WHEN suppression_lists.numbers > (SELECT coalesce(sum(relisted), 0) FROM suppression_upload_batches WHERE upload_id = ?1)
                   OR EXISTS (SELECT 1 FROM suppression_uploads WHERE list_id = ?2 AND contents = 'full' AND status = 'failed'
                     AND id > suppression_lists.version_upload_id AND id < ?1)
                 THEN ?1 END,
               numbers = (SELECT coalesce(sum(added + relisted), 0) FROM suppression_upload_batches WHERE upload_id = ?1),
               refreshed_on = ?3, updated_at = ${NOW_MS}
             WHERE id = ?2 AND version_upload_id < ?1 AND ${applying}
             RETURNING sweeping_upload_id AS sweeping`,
          )
          .bind(uploadId, listId, upload.refreshed_on),
      ]);
      const row = swapped?.results[0];
      // Another delivery of this message made the swap: it carries on.
      if (!row) return false;
      if (row.sweeping !== null) {
        // The sweep in messages of its own: the swap's transaction stays one small UPDATE.
        await deps.env.IMPORT_QUEUE.send(message, { contentType: "json" });
        return false;
      }
    } else if (!(await sweepOldVersion(deps, message, upload))) {
      return false;
    }
  }
  await db.batch([
    db
      .prepare(
        `UPDATE suppression_lists SET sweeping_upload_id = NULL, refreshed_on = ?1, updated_at = ${NOW_MS}
         WHERE id = ?2 AND ${applying}`,
      )
      .bind(upload.refreshed_on, listId),
    db
      .prepare("UPDATE suppression_uploads SET status = 'done', finished_at = ? WHERE id = ? AND status = 'applying'")
      .bind(deps.now, uploadId),
  ]);
  await optimizeDatabase(deps);
  return true;
}

/**
 * Deletes, after the swap, the numbers of the version before (those this upload did not list), walking
 * the list's own index from `swept_to`. Answers true when none are left; otherwise the next message is sent.
 */
async function sweepOldVersion(
  deps: Deps,
  message: SuppressionFinishMessage,
  upload: PrivateFinishTarget,
): Promise<boolean> {
  const db = deps.env.DB;
  const { uploadId } = message;
  let from = Math.max(upload.swept_to, SWEEP_START);
  for (let step = 0, took = 0; step < STEPS_PER_MESSAGE; step++) {
    if (step > 0) await pause(deps, took);
    const started = Date.now();
    // Index entries only (the list's index is covering for this): a bounded read.
    const window = await db
      .prepare(
        `SELECT count(*) AS n, max(number) AS last FROM (
           SELECT number FROM suppression_numbers INDEXED BY suppression_numbers_list_idx
           WHERE list_id = ? AND number BETWEEN ? AND ? ORDER BY number LIMIT ?)`,
      )
      .bind(upload.list_id, from, SWEEP_END, PRIVATE_CHUNK)
      .first<{ n: number; last: number | null }>();
    if (!window || window.n === 0 || window.last === null) return true;
    const at = `EXISTS (SELECT 1 FROM suppression_uploads WHERE id = ${uploadId} AND status = 'applying' AND swept_to = ${upload.swept_to})`;
    const [, moved] = await db.batch([
      db
        .prepare(
          `DELETE FROM suppression_numbers INDEXED BY suppression_numbers_list_idx
           WHERE list_id = ?1 AND number BETWEEN ?2 AND ?3 AND last_upload_id IS NOT ?4 AND ${at}`,
        )
        .bind(upload.list_id, from, window.last, uploadId),
      db
        .prepare(
          `UPDATE suppression_uploads SET numbers_removed = numbers_removed + changes(), swept_to = ?1
           WHERE id = ?2 AND status = 'applying' AND swept_to = ?3 RETURNING swept_to`,
        )
        .bind(window.last + 1, uploadId, upload.swept_to),
    ]);
    // Another delivery of this message is sweeping (it moved on first): it carries on, and ends the upload.
    if (!moved?.results[0]) return false;
    took = Date.now() - started;
    upload.swept_to = window.last + 1;
    from = upload.swept_to;
    if (window.n < PRIVATE_CHUNK) return true;
  }
  await deps.env.IMPORT_QUEUE.send(message, { contentType: "json" });
  return false;
}
