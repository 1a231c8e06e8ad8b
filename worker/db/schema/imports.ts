/**
 * CSV imports (product rule 15): an upload, its batches and the rows refused.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { IMPORT_BATCH_STATUSES, IMPORT_KINDS } from "../../../src/domain/import-batches";
import { users } from "./accounts";
import { createdAt } from "./columns";

/** Product rule 15: one upload of a CSV file, with its running counts. */
export const imports = sqliteTable(
  "imports",
  {
    id: text("id").primaryKey(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    fileName: text("file_name"),
    rowsReceived: integer("rows_received").notNull().default(0),
    rowsInserted: integer("rows_inserted").notNull().default(0),
    rowsDuplicate: integer("rows_duplicate").notNull().default(0),
    rowsRejected: integer("rows_rejected").notNull().default(0),
    /** Inserted rows whose number a shared suppression list held: stored, not for sale (migration 0018). */
    rowsSuppressed: integer("rows_suppressed").notNull().default(0),
    batchesReceived: integer("batches_received").notNull().default(0),
    batchesDone: integer("batches_done").notNull().default(0),
    batchesFailed: integer("batches_failed").notNull().default(0),
    /** Inserted leads with a consent certificate (TrustedForm or LeadiD, migration 0017); the rest have none. */
    rowsCertified: integer("rows_certified").notNull().default(0),
    /** Set at upload (migration 0017): this upload's leads without a certificate are stored but never listed or sold. */
    certificateRequired: integer("certificate_required", { mode: "boolean" }).notNull().default(false),
    /** What the file holds (migration 0037, decision 0069): aged leads, or call-backs and appointments. */
    kind: text("kind", { enum: IMPORT_KINDS }).notNull().default("leads"),
    createdAt: createdAt(),
  },
  (t) => [index("imports_created_at_idx").on(t.createdAt)],
);

/** One batch of an import; its key makes queue redelivery idempotent. */
export const importBatches = sqliteTable(
  "import_batches",
  {
    importId: text("import_id")
      .notNull()
      .references(() => imports.id, { onDelete: "cascade" }),
    batchNumber: integer("batch_number").notNull(),
    /** Valid rows, queued for the consumer. */
    rowCount: integer("row_count").notNull(),
    /** Every row the batch brought, valid or not (the import's totals are summed from its batches). */
    rowsReceived: integer("rows_received").notNull().default(0),
    status: text("status", { enum: IMPORT_BATCH_STATUSES }).notNull().default("queued"),
    inserted: integer("inserted").notNull().default(0),
    duplicates: integer("duplicates").notNull().default(0),
    /** Of `inserted`, the leads with a consent certificate (migration 0017). */
    certified: integer("certified").notNull().default(0),
    /** Of the inserted rows, those suppressed on insert (migration 0018). */
    suppressed: integer("suppressed").notNull().default(0),
    error: text("error"),
    processedAt: integer("processed_at", { mode: "timestamp_ms" }),
    /** When the batch was last handed to the Queue; a batch queued long after it is re-sent (migration 0016). */
    queuedAt: integer("queued_at").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.importId, t.batchNumber] }),
    index("import_batches_queued_idx").on(t.queuedAt).where(sql`${t.status} = 'queued'`),
  ],
);

/** Rows refused by validation, with the row number of the uploaded file and the reason. */
export const importRejections = sqliteTable(
  "import_rejections",
  {
    importId: text("import_id")
      .notNull()
      .references(() => imports.id, { onDelete: "cascade" }),
    rowNumber: integer("row_number").notNull(),
    reason: text("reason").notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.rowNumber] })],
);
