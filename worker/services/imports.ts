/**
 * The CSV import pipeline (product rule 15). A batch of up to 1,000 rows is validated row by row; refused
 * rows are recorded with their row number and reason; valid rows are stored in R2 and their key queued.
 * The consumer inserts them with one D1 batch, skipping duplicates. Every received row ends up inserted,
 * duplicate or rejected, and a batch is processed once however often its message arrives.
 */

import { and, asc, count, eq, gt, lt } from "drizzle-orm";
import { BULK_BATCH_SIZE, STALLED_BATCH_MINUTES } from "../../src/domain/csv-mapping";
import { csvLines } from "../../src/domain/csv-writer";
import { type StoredLead, storedLead } from "../../src/domain/leads";
import {
  type BulkUpload,
  checkLeadRow,
  type ImportStatus,
  STATUS_REJECTIONS,
} from "../../src/domain/schemas/admin-leads";
import { importBatches, importRejections, imports } from "../db/schema";
import type { Deps } from "../deps";
import { NotFoundError } from "../errors";
import { evidenceInsert } from "./import-evidence";

export interface ImportBatchMessage {
  kind: "import-batch";
  importId: string;
  batchNumber: number;
}

export const isImportBatchMessage = (body: unknown): body is ImportBatchMessage =>
  typeof body === "object" && body !== null && (body as { kind?: unknown }).kind === "import-batch";

/** A batch queued longer than this has lost its message: the sweep (import-sweep.ts) sends it again. */
export const STALLED_BATCH_MS = STALLED_BATCH_MINUTES * 60_000;

/** After this many deliveries a batch is reported failed instead of retried (wrangler.toml max_retries + 1). */
export const MAX_BATCH_ATTEMPTS = 6;
/**
 * D1 queries one import message can cost the consumer at most: `processImportBatch` (a lookup and a
 * batch of three) and, on its last failing delivery, `failImportBatch` (a batch of three).
 */
export const MAX_QUERIES_PER_IMPORT_MESSAGE = 7;

/** A row that passed the lead schema, as the consumer inserts it. */
type ValidLead = StoredLead & { rowNumber: number };

const batchKey = (importId: string, batchNumber: number) => `imports/${importId}/${batchNumber}.json`;

/** Recomputes an import's totals from its batches and rejections (safe to run any number of times). */
function refreshTotals(db: D1Database, importId: string): D1PreparedStatement {
  return db
    .prepare(
      // One pass over the import's batches (UPDATE … FROM, which drizzle's update cannot express).
      `UPDATE imports SET
         rows_received = b.received, batches_received = b.batches, rows_inserted = b.inserted,
         rows_duplicate = b.duplicates, batches_done = b.done, batches_failed = b.failed, rows_certified = b.certified,
         rows_rejected = (SELECT count(*) FROM import_rejections WHERE import_id = ?1), rows_suppressed = b.suppressed
       FROM (SELECT coalesce(sum(rows_received), 0) AS received, count(*) AS batches,
                    coalesce(sum(CASE WHEN status = 'done' THEN inserted END), 0) AS inserted,
                    coalesce(sum(CASE WHEN status = 'done' THEN duplicates END), 0) AS duplicates,
                    coalesce(sum(CASE WHEN status = 'done' THEN certified END), 0) AS certified,
                    coalesce(sum(CASE WHEN status = 'done' THEN suppressed END), 0) AS suppressed,
                    count(CASE WHEN status = 'done' THEN 1 END) AS done,
                    count(CASE WHEN status = 'failed' THEN 1 END) AS failed
             FROM import_batches WHERE import_id = ?1) AS b
       WHERE imports.id = ?1
       RETURNING batches_done + batches_failed = batches_received AS settled`,
    )
    .bind(importId);
}

function recordRejections(db: D1Database, importId: string, rejections: { rowNumber: number; reason: string }[]) {
  return db
    .prepare(
      `INSERT OR IGNORE INTO import_rejections (import_id, row_number, reason)
       SELECT ?1, json_extract(value, '$.rowNumber'), json_extract(value, '$.reason') FROM json_each(?2)
       WHERE EXISTS (SELECT 1 FROM imports WHERE id = ?1)`,
    )
    .bind(importId, JSON.stringify(rejections));
}

/**
 * Accepts one batch of a file. Safe to repeat: the rows go to R2 under the batch's own key first, then
 * one D1 batch records the batch, its refusals and the totals (each idempotent), and a batch still
 * queued is (re)announced on the Queue, so a batch retried after any failure is neither lost nor
 * counted twice. Three round trips: R2, D1, Queue.
 */
export async function acceptBatch(deps: Deps, adminId: string | null, upload: BulkUpload) {
  const { env } = deps;
  const db = env.DB; // raw D1: the measured import path (decision 0013), JSON row sets and UPDATE … FROM
  const importId = upload.importId ?? crypto.randomUUID();
  const batchNumber =
    upload.batchNumber ??
    (upload.importId
      ? ((
          await db
            .prepare("SELECT coalesce(max(batch_number), 0) + 1 AS next FROM import_batches WHERE import_id = ?")
            .bind(importId)
            .first<{ next: number }>()
        )?.next ?? 1)
      : 1);
  // Without row numbers, rows are numbered as lines of a file with a header: batch n starts after n-1 full batches.
  const firstRow = 2 + (batchNumber - 1) * BULK_BATCH_SIZE;
  const valid: ValidLead[] = [];
  const rejected: { rowNumber: number; reason: string }[] = [];
  for (const [index, row] of upload.leads.entries()) {
    const rowNumber = row.rowNumber ?? firstRow + index;
    const checked = checkLeadRow(row);
    if ("lead" in checked) valid.push({ rowNumber, ...storedLead(checked.lead) });
    else rejected.push({ rowNumber, reason: checked.reason });
  }

  const key = batchKey(importId, batchNumber);
  // Absent fields (most consent cells) are left out rather than stored as null: json_extract reads both as NULL.
  if (valid.length > 0)
    await env.DOCUMENTS.put(
      key,
      JSON.stringify(valid, (_, value) => value ?? undefined),
    );
  const results = await db.batch<{ status: string }>([
    ...(upload.importId
      ? []
      : [
          db
            .prepare("INSERT INTO imports (id, created_by, file_name, certificate_required) VALUES (?, ?, ?, ?)")
            .bind(importId, adminId, upload.fileName ?? null, upload.certificateRequired ? 1 : 0),
        ]),
    db
      .prepare(
        // A batch sent again while still queued is announced again: its time on the Queue starts over.
        `INSERT INTO import_batches (import_id, batch_number, row_count, rows_received, status, queued_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE EXISTS (SELECT 1 FROM imports WHERE id = ?1)
         ON CONFLICT (import_id, batch_number) DO UPDATE SET queued_at = excluded.queued_at WHERE status = 'queued'`,
      )
      .bind(
        importId,
        batchNumber,
        valid.length,
        upload.leads.length,
        valid.length === 0 ? "done" : "queued",
        Date.now(),
      ),
    recordRejections(db, importId, rejected),
    refreshTotals(db, importId),
    db
      .prepare("SELECT status FROM import_batches WHERE import_id = ? AND batch_number = ?")
      .bind(importId, batchNumber),
  ]);
  const status = results.at(-1)?.results[0]?.status;
  if (status === "queued") {
    const message: ImportBatchMessage = { kind: "import-batch", importId, batchNumber };
    await env.IMPORT_QUEUE.send(message, { contentType: "json" });
  } else if (valid.length > 0) {
    // An unknown import, or a batch already processed: the copy just stored is not needed.
    await env.DOCUMENTS.delete(key);
  }
  if (!status) throw new NotFoundError("Import not found");
  return {
    importId,
    batchNumber,
    received: upload.leads.length,
    queued: valid.length,
    rejected: rejected.length,
  };
}

/**
 * Inserts a queued batch. Answers whether it did and left every batch received so far settled (the import
 * may be complete: a bulk change worth `PRAGMA optimize`); false for a redelivered message.
 */
export async function processImportBatch(deps: Deps, message: ImportBatchMessage): Promise<boolean> {
  const { importId, batchNumber } = message;
  const { env } = deps;
  const db = env.DB; // raw D1: the measured import path (decision 0013), INSERT … SELECT over json_each
  const batch = await db
    .prepare("SELECT status FROM import_batches WHERE import_id = ? AND batch_number = ?")
    .bind(importId, batchNumber)
    .first<{ status: string }>();
  if (batch?.status !== "queued") return false;
  const stored = await env.DOCUMENTS.get(batchKey(importId, batchNumber));
  if (!stored) throw new Error(`Batch ${batchNumber} of import ${importId} is missing from storage`);
  const rows = await stored.text();
  const queued =
    "EXISTS (SELECT 1 FROM import_batches WHERE import_id = ?1 AND batch_number = ?2 AND status = 'queued')";
  // Ids start with the insert's millisecond (then 80 random bits), so a big import appends to the primary
  // key's index instead of dirtying a random page of it per row (docs/decisions/0013). The consent columns
  // and the certificate rule: import-evidence.ts (decision 0041). The insert trigger of migration 0018
  // suppresses a row whose number an active shared list holds (one seek per row); the batch counts them,
  // and they stay stored until the number leaves the lists.
  const evidence = evidenceInsert(rows, "?1", "?3");
  const results = await db.batch<{ settled: number }>([
    db
      .prepare(
        `INSERT OR IGNORE INTO aged_leads
           (id, name, email, phone, state, age_range, price_cents, form_fill_time, dedupe_key, import_id, import_batch, area_code,
            phone_key, ${evidence.columns})
         SELECT printf('%012x', CAST(unixepoch('subsec') * 1000 AS INTEGER)) || lower(hex(randomblob(10))),
                json_extract(value, '$.name'), json_extract(value, '$.email'),
                json_extract(value, '$.phone'), json_extract(value, '$.state'), json_extract(value, '$.ageRange'),
                json_extract(value, '$.priceCents'), json_extract(value, '$.formFillTime'), json_extract(value, '$.dedupeKey'),
                ?1, ?2, json_extract(value, '$.areaCode'), json_extract(value, '$.phoneKey'), ${evidence.values}
         FROM ${evidence.from}
         WHERE ${queued}`,
      )
      .bind(importId, batchNumber, rows),
    db
      .prepare(
        `UPDATE import_batches SET
           inserted = (SELECT count(*) FROM aged_leads WHERE import_id = ?1 AND import_batch = ?2),
           certified = (SELECT count(*) FROM aged_leads WHERE import_id = ?1 AND import_batch = ?2 AND certified = 1),
           duplicates = row_count - (SELECT count(*) FROM aged_leads WHERE import_id = ?1 AND import_batch = ?2),
           suppressed = (SELECT count(*) FROM aged_leads WHERE import_id = ?1 AND import_batch = ?2 AND suppressed_at IS NOT NULL),
           status = 'done', processed_at = ?3
         WHERE import_id = ?1 AND batch_number = ?2 AND status = 'queued'`,
      )
      .bind(importId, batchNumber, Date.now()),
    refreshTotals(db, importId),
  ]);
  await env.DOCUMENTS.delete(batchKey(importId, batchNumber));
  return Boolean(results.at(-1)?.results[0]?.settled);
}

/** A batch that kept failing: its rows are reported rejected, so none is silently lost. */
export async function failImportBatch(deps: Deps, message: ImportBatchMessage, error: string): Promise<void> {
  const { importId, batchNumber } = message;
  const { env } = deps;
  const stored = await env.DOCUMENTS.get(batchKey(importId, batchNumber));
  const rows = stored ? ((await stored.json()) as { rowNumber: number }[]) : [];
  const reason = `Not saved: batch ${batchNumber} failed (${error.slice(0, 200)})`;
  // Raw D1: the import's own statements (recordRejections, refreshTotals), in one batch.
  await env.DB.batch([
    env.DB.prepare(
      "UPDATE import_batches SET status = 'failed', error = ? WHERE import_id = ? AND batch_number = ? AND status = 'queued'",
    ).bind(error.slice(0, 500), importId, batchNumber),
    recordRejections(
      env.DB,
      importId,
      rows.map((row) => ({ rowNumber: row.rowNumber, reason })),
    ),
    refreshTotals(env.DB, importId),
  ]);
}

async function importStatus(deps: Deps, importId: string): Promise<ImportStatus | null> {
  const { db, now } = deps;
  const [[row], rejections, [stalled]] = await db.batch([
    db.select().from(imports).where(eq(imports.id, importId)),
    db
      .select({ rowNumber: importRejections.rowNumber, reason: importRejections.reason })
      .from(importRejections)
      .where(eq(importRejections.importId, importId))
      .orderBy(asc(importRejections.rowNumber))
      .limit(STATUS_REJECTIONS),
    db
      .select({ n: count() })
      .from(importBatches)
      .where(
        and(
          eq(importBatches.importId, importId),
          eq(importBatches.status, "queued"),
          lt(importBatches.queuedAt, now - STALLED_BATCH_MS),
        ),
      ),
  ]);
  if (!row) return null;
  const counts = {
    rowsReceived: row.rowsReceived,
    rowsInserted: row.rowsInserted,
    rowsDuplicate: row.rowsDuplicate,
    rowsRejected: row.rowsRejected,
    rowsSuppressed: row.rowsSuppressed,
    batchesReceived: row.batchesReceived,
    batchesDone: row.batchesDone,
    batchesFailed: row.batchesFailed,
  };
  return {
    id: importId,
    fileName: row.fileName,
    ...counts,
    // Of the inserted leads (decision 0041): with a TrustedForm certificate or a LeadiD, and without.
    rowsCertified: row.rowsCertified,
    rowsUncertified: counts.rowsInserted - row.rowsCertified,
    certificateRequired: row.certificateRequired,
    done:
      counts.batchesDone + counts.batchesFailed === counts.batchesReceived &&
      counts.rowsInserted + counts.rowsDuplicate + counts.rowsRejected === counts.rowsReceived,
    stalledBatches: stalled?.n ?? 0,
    rejections,
  };
}

/** Rejections read per query for the report: a million-row import needs a few hundred queries at most. */
const REPORT_PAGE_ROWS = 5000;

async function* rejectionPages(deps: Deps, importId: string) {
  const { db } = deps;
  let after = 0;
  for (;;) {
    const page = await db
      .select({ rowNumber: importRejections.rowNumber, reason: importRejections.reason })
      .from(importRejections)
      .where(and(eq(importRejections.importId, importId), gt(importRejections.rowNumber, after)))
      .orderBy(asc(importRejections.rowNumber))
      .limit(REPORT_PAGE_ROWS);
    if (page.length > 0) yield page;
    const last = page.at(-1);
    if (!last || page.length < REPORT_PAGE_ROWS) return;
    after = last.rowNumber;
  }
}

/** The reason is always quoted (it is free text); row number and outcome never need it. */
const REPORT_QUOTES = [false, false, true];

/** The import's report as CSV (every rejected row, then the totals), streamed page by page. */
export function importReportCsv(deps: Deps, status: ImportStatus): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const pages = rejectionPages(deps, status.id);
  let started = false;
  return new ReadableStream({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`${csvLines([["Row", "Outcome", "Reason"]])}\r\n`));
        return;
      }
      const next = await pages.next();
      if (!next.done) {
        controller.enqueue(
          encoder.encode(
            `${csvLines(
              next.value.map((r) => [r.rowNumber, "rejected", r.reason]),
              REPORT_QUOTES,
            )}\r\n`,
          ),
        );
        return;
      }
      const totals = csvLines([
        ["Rows received", status.rowsReceived],
        ["Inserted", status.rowsInserted],
        ["Of which suppressed (on a Do Not Call list: stored, not for sale)", status.rowsSuppressed],
        ["Duplicates skipped", status.rowsDuplicate],
        ["Rejected", status.rowsRejected],
        ["With certificate", status.rowsCertified],
        [
          status.certificateRequired ? "Without certificate (stored, not for sale)" : "Without certificate",
          status.rowsUncertified,
        ],
      ]);
      controller.enqueue(encoder.encode(`\r\n${totals}`));
      controller.close();
    },
  });
}

/** An import's status and counts; an unknown id is NotFound. */
export async function findImport(deps: Deps, importId: string): Promise<ImportStatus> {
  const status = await importStatus(deps, importId);
  if (!status) throw new NotFoundError("Import not found");
  return status;
}
