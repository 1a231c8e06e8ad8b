/**
 * The CSV import pipeline (product rule 15). A batch of up to 1,000 rows is validated row by row; refused
 * rows are recorded with their row number and reason; valid rows are stored in R2 and their key queued.
 * The consumer inserts them with one D1 batch, skipping duplicates. Every received row ends up inserted,
 * duplicate or rejected, and a batch is processed once however often its message arrives.
 */

import { and, asc, count, eq, isNotNull, lt } from "drizzle-orm";
import { type ImportKind, STALLED_BATCH_MINUTES } from "../../../src/domain/import-batches";
import { BULK_BATCH_SIZE } from "../../../src/features/aged-leads/csv-mapping";
import { type StoredLead, storedLead } from "../../../src/features/aged-leads/leads";
import {
  type BulkUpload,
  checkLeadRow,
  type ImportStatus,
  STATUS_REJECTIONS,
} from "../../../src/features/aged-leads/schemas/admin-leads";
import { callbackOpportunities, importBatches, importRejections, imports } from "../../db/schema";
import type { Deps } from "../../deps";
import { InvalidError, NotFoundError } from "../../errors";
import { registryHeldKeysOfRows } from "../do-not-call/index";
import { evidenceInsert } from "./import-evidence";

export interface ImportBatchMessage {
  kind: "import-batch";
  importId: string;
  batchNumber: number;
  /** A batch of call-backs (decision 0069): it costs the consumer more queries (queue.ts budgets it). */
  callbacks?: true;
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

/** A row refused, with its row number in the file and the reason. */
interface ImportRejection {
  rowNumber: number;
  reason: string;
}

/**
 * A kind of import other than aged leads (decision 0069: call-backs and appointments), registered by its
 * feature once (worker/import-kinds.ts, above every feature): how many rows a batch holds, how its rows are
 * checked on receipt, taken in by the consumer one by one, and, of a batch that failed, which were not taken.
 */
export interface ImportRowsKind {
  batchSize: number;
  checkRows(
    rows: readonly { rowNumber?: number | undefined }[],
    firstRow: number,
  ): { valid: { rowNumber: number }[]; rejected: ImportRejection[] };
  /** Takes a batch's stored rows in; answers the refused ones. */
  takeRows(
    deps: Deps,
    batch: { importId: string; batchNumber: number; createdBy: string | null },
    rows: unknown[],
  ): Promise<ImportRejection[]>;
  untakenRows<Row extends { rowNumber: number }>(deps: Deps, importId: string, rows: readonly Row[]): Promise<Row[]>;
}

const importKinds = new Map<ImportKind, ImportRowsKind>();

/** Registers how a kind of file is imported (once per kind, at start: worker/import-kinds.ts). */
export function registerImportKind(kind: Exclude<ImportKind, "leads">, rows: ImportRowsKind): void {
  importKinds.set(kind, rows);
}

function importKind(kind: ImportKind): ImportRowsKind {
  const rows = importKinds.get(kind);
  if (!rows) throw new Error(`No import of "${kind}" is registered (worker/import-kinds.ts)`);
  return rows;
}

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
  const kind = upload.kind ?? "leads";
  const batchSize = kind === "leads" ? BULK_BATCH_SIZE : importKind(kind).batchSize;
  if (upload.leads.length > batchSize) throw new InvalidError(`Send at most ${batchSize} call-backs per batch`);
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
  const firstRow = 2 + (batchNumber - 1) * batchSize;
  const { valid, rejected } =
    kind === "leads" ? checkLeadRows(upload.leads, firstRow) : importKind(kind).checkRows(upload.leads, firstRow);

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
            .prepare(
              "INSERT INTO imports (id, created_by, file_name, certificate_required, kind) VALUES (?, ?, ?, ?, ?)",
            )
            .bind(importId, adminId, upload.fileName ?? null, upload.certificateRequired ? 1 : 0, kind),
        ]),
    db
      .prepare(
        // A batch sent again while still queued is announced again: its time on the Queue starts over. A
        // batch of another kind than its import's is not taken (Not found).
        `INSERT INTO import_batches (import_id, batch_number, row_count, rows_received, status, queued_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE EXISTS (SELECT 1 FROM imports WHERE id = ?1 AND kind = ?7)
         ON CONFLICT (import_id, batch_number) DO UPDATE SET queued_at = excluded.queued_at WHERE status = 'queued'`,
      )
      .bind(
        importId,
        batchNumber,
        valid.length,
        upload.leads.length,
        valid.length === 0 ? "done" : "queued",
        Date.now(),
        kind,
      ),
    recordRejections(db, importId, rejected),
    refreshTotals(db, importId),
    db
      .prepare("SELECT status FROM import_batches WHERE import_id = ? AND batch_number = ?")
      .bind(importId, batchNumber),
  ]);
  const status = results.at(-1)?.results[0]?.status;
  if (status === "queued") {
    const message: ImportBatchMessage = {
      kind: "import-batch",
      importId,
      batchNumber,
      ...(kind === "callbacks" ? { callbacks: true as const } : {}),
    };
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

function checkLeadRows(rows: readonly { rowNumber?: number | undefined }[], firstRow: number) {
  const valid: ValidLead[] = [];
  const rejected: { rowNumber: number; reason: string }[] = [];
  for (const [index, row] of rows.entries()) {
    const rowNumber = row.rowNumber ?? firstRow + index;
    const checked = checkLeadRow(row);
    if ("lead" in checked) valid.push({ rowNumber, ...storedLead(checked.lead) });
    else rejected.push({ rowNumber, reason: checked.reason });
  }
  return { valid, rejected };
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
    .prepare(
      `SELECT b.status, i.kind, i.created_by AS createdBy FROM import_batches b JOIN imports i ON i.id = b.import_id
       WHERE b.import_id = ? AND b.batch_number = ?`,
    )
    .bind(importId, batchNumber)
    .first<{ status: string; kind: string; createdBy: string | null }>();
  if (batch?.status !== "queued") return false;
  const stored = await env.DOCUMENTS.get(batchKey(importId, batchNumber));
  if (!stored) throw new Error(`Batch ${batchNumber} of import ${importId} is missing from storage`);
  const rows = await stored.text();
  if (batch.kind === "callbacks") return processCallbackBatch(deps, message, batch.createdBy, rows);
  const queued =
    "EXISTS (SELECT 1 FROM import_batches WHERE import_id = ?1 AND batch_number = ?2 AND status = 'queued')";
  // Ids start with the insert's millisecond (then 80 random bits), so a big import appends to the primary
  // key's index instead of dirtying a random page of it per row (docs/decisions/0013). The consent columns
  // and the certificate rule: import-evidence.ts (decision 0041). The insert trigger of migration 0018
  // suppresses a row whose number an active shared list holds (one seek per row); the batch counts them,
  // and they stay stored until the number leaves the lists.
  const evidence = evidenceInsert(rows, "?1", "?3");
  // The registry copies live in R2: asked here, and their verdict rides into the insert (docs/decisions/0084).
  const onRegistry = await registryHeldKeysOfRows(deps, rows);
  const registryListed = `CASE WHEN json_extract(value, '$.phoneKey') IN (SELECT value FROM json_each(?4)) THEN ?5 END`;
  const results = await db.batch<{ settled: number }>([
    db
      .prepare(
        `INSERT OR IGNORE INTO aged_leads
           (id, name, email, phone, state, age_range, price_cents, form_fill_time, dedupe_key, import_id, import_batch, area_code,
            phone_key, registry_listed_at, suppressed_at, ${evidence.columns})
         SELECT printf('%012x', CAST(unixepoch('subsec') * 1000 AS INTEGER)) || lower(hex(randomblob(10))),
                json_extract(value, '$.name'), json_extract(value, '$.email'),
                json_extract(value, '$.phone'), json_extract(value, '$.state'), json_extract(value, '$.ageRange'),
                json_extract(value, '$.priceCents'), json_extract(value, '$.formFillTime'), json_extract(value, '$.dedupeKey'),
                ?1, ?2, json_extract(value, '$.areaCode'), json_extract(value, '$.phoneKey'),
                ${registryListed}, ${registryListed}, ${evidence.values}
         FROM ${evidence.from}
         WHERE ${queued}`,
      )
      .bind(importId, batchNumber, rows, JSON.stringify(onRegistry), deps.now),
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

/** A call-back batch (decision 0069): its rows taken in one by one, then its counts read back from them. */
async function processCallbackBatch(deps: Deps, message: ImportBatchMessage, createdBy: string | null, rows: string) {
  const { importId, batchNumber } = message;
  const db = deps.env.DB; // raw D1: the import's own statements (recordRejections, refreshTotals)
  const rejected = await importKind("callbacks").takeRows(
    deps,
    { importId, batchNumber, createdBy },
    JSON.parse(rows) as unknown[],
  );
  const taken = "FROM callback_opportunities WHERE import_id = ?1 AND import_batch = ?2";
  const results = await db.batch<{ settled: number }>([
    recordRejections(db, importId, rejected),
    db
      .prepare(
        `UPDATE import_batches SET inserted = (SELECT count(*) ${taken}), duplicates = 0, suppressed = 0,
           certified = (SELECT count(*) ${taken} AND (trusted_form_url IS NOT NULL OR jornaya_lead_id IS NOT NULL)),
           status = 'done', processed_at = ?3
         WHERE import_id = ?1 AND batch_number = ?2 AND status = 'queued'`,
      )
      .bind(importId, batchNumber, Date.now()),
    refreshTotals(db, importId),
  ]);
  await deps.env.DOCUMENTS.delete(batchKey(importId, batchNumber));
  return Boolean(results.at(-1)?.results[0]?.settled);
}

/** A batch that kept failing: its rows are reported rejected, so none is silently lost. */
export async function failImportBatch(deps: Deps, message: ImportBatchMessage, error: string): Promise<void> {
  const { importId, batchNumber } = message;
  const { env } = deps;
  const stored = await env.DOCUMENTS.get(batchKey(importId, batchNumber));
  const storedRows = stored ? ((await stored.json()) as { rowNumber: number }[]) : [];
  // A call-back batch may have taken some rows before failing (decision 0069): those are not rejected.
  const rows = message.callbacks ? await importKind("callbacks").untakenRows(deps, importId, storedRows) : storedRows;
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
  const [[row], rejections, [stalled], [placed]] = await db.batch([
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
    db
      .select({ n: count() })
      .from(callbackOpportunities)
      .where(and(eq(callbackOpportunities.importId, importId), isNotNull(callbackOpportunities.orderId))),
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
    kind: row.kind,
    rowsPlaced: placed?.n ?? 0,
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

/** An import's status and counts; an unknown id is NotFound. */
export async function findImport(deps: Deps, importId: string): Promise<ImportStatus> {
  const status = await importStatus(deps, importId);
  if (!status) throw new NotFoundError("Import not found");
  return status;
}
