/**
 * The Queue consumer's half of a suppression list upload (docs/decisions/0042): each batch of numbers is
 * applied once, in one D1 transaction, whatever how often its message arrives (the batch's `queued`
 * status guards every statement, as the lead import does, decision 0008). Applying a batch also applies
 * it to the leads: a number new on a shared list suppresses its unsold leads, one taken off frees them
 * unless another shared list still holds it. A private list changes no lead: its owner's order reads it
 * when it is paid (docs/decisions/0049).
 *
 * Batches are applied only once their upload is finished (`applying`, docs/decisions/0051). When every
 * batch of a file is in, the upload finishes: a full list that replaces one removes the numbers the file
 * did not list, one range of numbers per statement read through the list's own index (so its cost grows
 * with this list, not with the others), and the list takes the file's refreshed-on day. Then
 * `PRAGMA optimize` (a bulk change).
 *
 * A buyer's private list goes its own way (suppression-private.ts, docs/decisions/0066): small paced
 * transactions, and a full file written beside the list and swapped in at once.
 */
import { dayNumber } from "../../../src/features/do-not-call/suppression";
import type { Deps } from "../../deps";
import { optimizeDatabase } from "../../services/db-maintenance";
import { revocationsStatement } from "./revocations";
import type { SuppressionBatchMessage, SuppressionFinishMessage, SuppressionMessage } from "./suppression-messages";
import {
  applyPrivateBatch,
  finishPrivateUpload,
  PRIVATE_BATCH_QUERIES,
  PRIVATE_FINISH_QUERIES,
} from "./suppression-private";
import { NOW_MS, sharedListHolds } from "./suppression-rules";

/** A message of ours: its numbers go into SQL text, so they must be whole numbers. */
export const isSuppressionMessage = (body: unknown): body is SuppressionMessage => {
  if (typeof body !== "object" || body === null) return false;
  const { kind, uploadId, batchNumber } = body as Record<string, unknown>;
  if (!Number.isSafeInteger(uploadId)) return false;
  if (kind === "suppression-finish") return true;
  return kind === "suppression-batch" && Number.isSafeInteger(batchNumber);
};

/**
 * D1 queries one batch message costs at most: a lookup, a batch of up to 10, the totals, the finish notice
 * (and, on its last failing delivery, a batch of two).
 */
export const MAX_QUERIES_PER_SUPPRESSION_MESSAGE = Math.max(15, PRIVATE_BATCH_QUERIES + 5);

export const batchKey = (uploadId: number, batchNumber: number) => `suppression/${uploadId}/${batchNumber}.json`;

/** Numbers of one range the removal pass reads per statement (the table holds about 8·10⁹ possible keys). */
const SWEEP_RANGE = 100_000_000;
const SWEEP_START = 2_000_000_000;
const SWEEP_END = 9_999_999_999;
/** Ranges one finish message sweeps (4 statements each); the next message carries on. */
const RANGES_PER_MESSAGE = 10;
/** D1 queries one finish message costs at most: a lookup, the ranges, the last batch of two, `PRAGMA optimize`. */
export const SWEEP_QUERIES = Math.max(1 + 4 * RANGES_PER_MESSAGE + 2 + 1, 1 + PRIVATE_FINISH_QUERIES);

interface BatchTarget {
  status: string;
  contents: string;
  replaces: number;
  list_id: number;
  owner_user_id: string | null;
  upload_status: string;
}

/** Recomputes an upload's totals from its batches; answers the upload's status and whether every batch is in. */
const refreshUploadTotals = (db: D1Database, uploadId: number) =>
  db
    .prepare(
      `UPDATE suppression_uploads SET batches_received = b.received, batches_done = b.done,
         numbers_received = b.numbers, numbers_added = b.added, numbers_removed = b.removed,
         numbers_unchanged = b.adds - b.added,
         status = CASE WHEN b.failed > 0 AND status IN ('receiving', 'applying') THEN 'failed' ELSE status END,
         error = CASE WHEN b.failed > 0 THEN coalesce(error, b.failed || ' batch(es) could not be saved') ELSE error END
       FROM (SELECT count(*) AS received, count(CASE WHEN status = 'done' THEN 1 END) AS done,
                    count(CASE WHEN status = 'failed' THEN 1 END) AS failed,
                    coalesce(sum(adds + removes), 0) AS numbers, coalesce(sum(CASE WHEN status = 'done' THEN adds END), 0) AS adds,
                    coalesce(sum(added), 0) AS added, coalesce(sum(removed), 0) AS removed
             FROM suppression_upload_batches WHERE upload_id = ?1) AS b
       WHERE suppression_uploads.id = ?1
       RETURNING status, batches_expected AS expected, batches_done AS done`,
    )
    .bind(uploadId);

export { refreshUploadTotals };

/**
 * Applies one batch to its list and to the leads. Answers false when the batch was already applied (or its
 * upload was given up): a redelivered message changes nothing.
 */
export async function applySuppressionBatch(deps: Deps, message: SuppressionBatchMessage): Promise<boolean> {
  const db = deps.env.DB;
  const { uploadId, batchNumber } = message;
  const target = await db
    .prepare(
      `SELECT b.status, u.contents, u.replaces, u.list_id, u.status AS upload_status, l.owner_user_id
       FROM suppression_upload_batches b JOIN suppression_uploads u ON u.id = b.upload_id
       JOIN suppression_lists l ON l.id = u.list_id WHERE b.upload_id = ? AND b.batch_number = ?`,
    )
    .bind(uploadId, batchNumber)
    .first<BatchTarget>();
  if (target?.status !== "queued") return false;
  // Not before the finish: the file's batches change the list together, once it is known to be whole.
  if (target.upload_status === "receiving") return false;
  if (target.upload_status !== "applying") {
    // An upload given up (a newer one replaced it): its numbers are not applied.
    await failSuppressionBatch(deps, message, "The upload was given up before this batch was applied");
    return false;
  }
  const stored = await deps.env.DOCUMENTS.get(batchKey(uploadId, batchNumber));
  if (!stored) throw new Error(`Batch ${batchNumber} of suppression upload ${uploadId} is missing from storage`);
  const { add, remove } = (await stored.json()) as { add: number[]; remove: number[] };
  const list = target.list_id;
  const owner = target.owner_user_id;
  if (owner !== null) {
    // A private list: small paced transactions, a full file staged beside the list (suppression-private.ts).
    const whole = await applyPrivateBatch(
      deps,
      message,
      { listId: list, staged: target.contents === "full" },
      add,
      remove,
    );
    // A batch longer than one message carries on in the message sent again (its numbers stay in R2).
    return whole ? afterBatch(deps, uploadId, batchNumber) : true;
  }
  const adds = JSON.stringify(add);
  const removes = JSON.stringify(remove);
  const queued = `EXISTS (SELECT 1 FROM suppression_upload_batches WHERE upload_id = ${uploadId} AND batch_number = ${batchNumber} AND status = 'queued')`;
  const setBatch = (column: "added" | "removed") =>
    db
      .prepare(`UPDATE suppression_upload_batches SET ${column} = changes() WHERE upload_id = ? AND batch_number = ?`)
      .bind(uploadId, batchNumber);
  const statements: D1PreparedStatement[] = [];
  if (add.length > 0) {
    statements.push(
      // Before the numbers are listed: what was sold with a number new on the list (docs/decisions/0082).
      revocationsStatement(deps, adds, { id: list }, queued),
      // Sorted keys append to the table (a registry file is sorted); a number already listed keeps its day.
      db
        .prepare(
          `INSERT OR IGNORE INTO suppression_numbers (number, list_id, added_on, last_upload_id)
           SELECT value, ?1, ?2, ?3 FROM json_each(?4) WHERE ${queued}`,
        )
        .bind(list, dayNumber(deps.now), uploadId, adds),
      setBatch("added"),
      // A full file that replaces the list marks the numbers the list already held as listed by it (the
      // rest leave at the end); any other upload has no use for the mark and spares the seeks.
      ...(target.replaces
        ? [
            db
              .prepare(
                `UPDATE suppression_numbers SET last_upload_id = ?1
                 WHERE list_id = ?2 AND number IN (SELECT value FROM json_each(?3)) AND last_upload_id IS NOT ?1 AND ${queued}`,
              )
              .bind(uploadId, list, adds),
          ]
        : []),
      // A private list changes no lead: it is read when its owner's order is paid (decision 0049).
      ...(owner === null
        ? [
            db
              .prepare(
                `UPDATE aged_leads SET suppressed_at = ${NOW_MS}
                 WHERE phone_key IN (SELECT value FROM json_each(?1)) AND sold_at IS NULL AND suppressed_at IS NULL AND ${queued}`,
              )
              .bind(adds),
          ]
        : []),
    );
  }
  if (remove.length > 0) {
    statements.push(
      db
        .prepare(
          `DELETE FROM suppression_numbers WHERE list_id = ?1 AND number IN (SELECT value FROM json_each(?2)) AND ${queued}`,
        )
        .bind(list, removes),
      setBatch("removed"),
      ...(owner === null ? [freeLeads(db, "SELECT value FROM json_each(?1)", [removes], queued)] : []),
    );
  }
  await db.batch([
    ...statements,
    db
      .prepare(
        `UPDATE suppression_lists SET numbers = numbers + (SELECT added - removed FROM suppression_upload_batches
           WHERE upload_id = ?1 AND batch_number = ?2), updated_at = ${NOW_MS} WHERE id = ?3 AND ${queued}`,
      )
      .bind(uploadId, batchNumber, list),
    db
      .prepare(
        "UPDATE suppression_upload_batches SET status = 'done' WHERE upload_id = ? AND batch_number = ? AND status = 'queued'",
      )
      .bind(uploadId, batchNumber),
  ]);
  return afterBatch(deps, uploadId, batchNumber);
}

/** After a batch: the upload's totals, its numbers out of R2 and, when it was the last, the finish. */
async function afterBatch(deps: Deps, uploadId: number, batchNumber: number): Promise<boolean> {
  const db = deps.env.DB;
  const [totals] = (
    await refreshUploadTotals(db, uploadId).all<{ status: string; expected: number | null; done: number }>()
  ).results;
  await deps.env.DOCUMENTS.delete(batchKey(uploadId, batchNumber));
  // The browser has said the file ended and this was the last batch: the upload can finish.
  if (totals?.status === "applying" && totals.expected === totals.done) await queueFinish(deps, uploadId);
  return true;
}

/**
 * Leads whose number was just taken off a shared list (`set`: SQL selecting the numbers, with its
 * `params`) are listed again unless another active shared list, or a registry copy (`registry_listed_at`,
 * docs/decisions/0084), still holds the number.
 */
function freeLeads(db: D1Database, set: string, params: unknown[], guard: string) {
  return db
    .prepare(
      `UPDATE aged_leads SET suppressed_at = NULL
       WHERE phone_key IN (${set}) AND sold_at IS NULL AND suppressed_at IS NOT NULL AND registry_listed_at IS NULL
         AND NOT ${sharedListHolds("aged_leads.phone_key")} AND ${guard}`,
    )
    .bind(...params);
}

/** A batch that kept failing: the upload is failed with the reason (what was applied stays applied). */
export async function failSuppressionBatch(deps: Deps, message: SuppressionBatchMessage, error: string) {
  const db = deps.env.DB;
  await db.batch([
    db
      .prepare(
        "UPDATE suppression_upload_batches SET status = 'failed', error = ? WHERE upload_id = ? AND batch_number = ? AND status = 'queued'",
      )
      .bind(error.slice(0, 500), message.uploadId, message.batchNumber),
    refreshUploadTotals(db, message.uploadId),
  ]);
  await deps.env.DOCUMENTS.delete(batchKey(message.uploadId, message.batchNumber));
}

export async function queueFinish(deps: Deps, uploadId: number) {
  await deps.env.DB.prepare("UPDATE suppression_uploads SET queued_at = ? WHERE id = ? AND status = 'applying'")
    .bind(deps.now, uploadId)
    .run();
  const message: SuppressionFinishMessage = { kind: "suppression-finish", uploadId };
  await deps.env.IMPORT_QUEUE.send(message, { contentType: "json" });
}

interface FinishTarget {
  status: string;
  contents: string;
  expected: number | null;
  done: number;
  replaces: number;
  swept_to: number;
  list_id: number;
  owner_user_id: string | null;
  refreshed_on: string;
}

/**
 * Finishes an upload whose batches are all applied: a replacing full list removes, a few ranges per
 * message, the numbers the file did not list (sending itself again for the next ranges); then the list
 * takes the file's refreshed-on day and the upload is done. Answers whether it is done.
 */
export async function finishSuppressionUpload(deps: Deps, message: SuppressionFinishMessage): Promise<boolean> {
  const db = deps.env.DB;
  const { uploadId } = message;
  const upload = await db
    .prepare(
      `SELECT u.status, u.contents, u.batches_expected AS expected, u.batches_done AS done, u.replaces, u.swept_to, u.list_id,
              u.refreshed_on, l.owner_user_id
       FROM suppression_uploads u JOIN suppression_lists l ON l.id = u.list_id WHERE u.id = ?`,
    )
    .bind(uploadId)
    .first<FinishTarget>();
  if (upload?.status !== "applying" || upload.expected !== upload.done) return false;
  if (upload.owner_user_id !== null) return finishPrivateUpload(deps, message, upload);
  const applying = `EXISTS (SELECT 1 FROM suppression_uploads WHERE id = ${uploadId} AND status = 'applying')`;
  let from = Math.max(upload.swept_to, SWEEP_START);
  if (upload.replaces) {
    const statements: D1PreparedStatement[] = [];
    for (let i = 0; i < RANGES_PER_MESSAGE && from <= SWEEP_END; i++, from += SWEEP_RANGE) {
      const to = Math.min(from + SWEEP_RANGE - 1, SWEEP_END);
      // By the list's own index: the sweep reads this list's numbers only, never the other lists' millions.
      const stale = `SELECT number FROM suppression_numbers INDEXED BY suppression_numbers_list_idx
        WHERE list_id = ${upload.list_id} AND number BETWEEN ${from} AND ${to} AND last_upload_id IS NOT ${uploadId}`;
      statements.push(
        // The leads first, while the numbers still say which ones: a shared list's stay suppressed while
        // another active shared list (or this one, by a number the file did list) holds the number. A
        // private list changes no lead (decision 0049).
        ...(upload.owner_user_id === null
          ? [
              db.prepare(
                `UPDATE aged_leads SET suppressed_at = NULL
               WHERE phone_key IN (${stale}) AND sold_at IS NULL AND suppressed_at IS NOT NULL AND registry_listed_at IS NULL
                 AND NOT EXISTS (SELECT 1 FROM suppression_numbers n JOIN suppression_lists l ON l.id = n.list_id
                   WHERE n.number = aged_leads.phone_key AND l.owner_user_id IS NULL AND l.status = 'active'
                     AND NOT (l.id = ${upload.list_id} AND n.last_upload_id IS NOT ${uploadId}))
                 AND ${applying}`,
              ),
            ]
          : []),
        db.prepare(
          `UPDATE suppression_lists SET numbers = numbers - (SELECT count(*) FROM (${stale})) WHERE id = ${upload.list_id} AND ${applying}`,
        ),
        db.prepare(
          `DELETE FROM suppression_numbers INDEXED BY suppression_numbers_list_idx
           WHERE list_id = ${upload.list_id} AND number BETWEEN ${from} AND ${to}
             AND last_upload_id IS NOT ${uploadId} AND ${applying}`,
        ),
        db.prepare(
          `UPDATE suppression_uploads SET numbers_removed = numbers_removed + changes(), swept_to = ${to + 1}
           WHERE id = ${uploadId} AND status = 'applying'`,
        ),
      );
    }
    await db.batch(statements);
    if (from <= SWEEP_END) {
      // More ranges to go: the next message carries on (each invocation stays within D1's query budget).
      await deps.env.IMPORT_QUEUE.send(message, { contentType: "json" });
      return false;
    }
  }
  await db.batch([
    db
      .prepare(`UPDATE suppression_lists SET refreshed_on = ?1, updated_at = ${NOW_MS} WHERE id = ?2 AND ${applying}`)
      .bind(upload.refreshed_on, upload.list_id),
    db
      .prepare("UPDATE suppression_uploads SET status = 'done', finished_at = ? WHERE id = ? AND status = 'applying'")
      .bind(deps.now, uploadId),
  ]);
  await optimizeDatabase(deps);
  return true;
}
