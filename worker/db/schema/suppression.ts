/**
 * Suppression (Do Not Call) lists, their uploads, buyers' private scrubs and the record of what each sale
 * and transfer was checked against (product rule 40, docs/decisions/0042; migration 0018).
 * Re-exported by index.ts with the other schema files (decisions 0036 and 0073).
 */
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { IMPORT_BATCH_STATUSES } from "../../../src/domain/import-batches";
import { REGISTRY_MOVES } from "../../../src/features/do-not-call/registry-scopes";
import { REVOKED_ITEM_TYPES, REVOKING_LIST_KINDS } from "../../../src/features/do-not-call/revocations";
import {
  SUPPRESSION_CHECK_SUBJECTS,
  SUPPRESSION_LIST_KINDS,
  SUPPRESSION_LIST_STATUSES,
  SUPPRESSION_UPLOAD_STATUSES,
} from "../../../src/features/do-not-call/suppression";
import { SUPPRESSION_FILE_KINDS } from "../../../src/features/do-not-call/suppression-file";
import { users } from "./accounts";
import { now, oneOf } from "./columns";

/**
 * One list: a National Do Not Call Registry copy, a state list, a litigator list, the shop's own Do Not
 * Call requests (one row, made by the migration) or one buyer's private list (`owner_user_id`).
 */
export const suppressionLists = sqliteTable(
  "suppression_lists",
  {
    id: integer("id").primaryKey(),
    kind: text("kind", { enum: SUPPRESSION_LIST_KINDS }).notNull(),
    name: text("name").notNull(),
    /** Set only for `buyer_private`: the buyer whose leads and transfers it scrubs. */
    ownerUserId: text("owner_user_id").references(() => users.id, { onDelete: "cascade" }),
    /** Set only for `state_dnc`: the state whose own Do Not Call list this is (two letters, e.g. `TX`). */
    state: text("state"),
    /** 'YYYY-MM-DD': the day the source was refreshed (the 31-day rule), or of the last change for the shop's own and private lists. */
    refreshedOn: text("refreshed_on"),
    status: text("status", { enum: SUPPRESSION_LIST_STATUSES }).notNull().default("active"),
    /** How many numbers the list holds (kept by the code that adds and removes them). */
    numbers: integer("numbers").notNull().default(0),
    /**
     * A private list's version (docs/decisions/0066): the full upload last swapped in. Numbers a later full
     * upload wrote beside it (`staged_by` above this) are not on the list yet.
     */
    versionUploadId: integer("version_upload_id").notNull().default(0),
    /** Set while the numbers of the version before are deleted: only those this upload listed count. */
    sweepingUploadId: integer("sweeping_upload_id"),
    /**
     * A national or state list whose D1 numbers move into the registry store (docs/decisions/0084, migration
     * 0047): `pending` until the move task has stored every area code and deleted its rows, then `done`.
     */
    registryMove: text("registry_move", { enum: REGISTRY_MOVES }),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull().default(now()),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(now()),
  },
  (t) => [
    uniqueIndex("suppression_lists_owner_unique").on(t.ownerUserId),
    uniqueIndex("suppression_lists_internal_unique").on(t.kind).where(sql`${t.kind} = 'internal_dnc'`),
    check("suppression_lists_kind_check", oneOf(t.kind, SUPPRESSION_LIST_KINDS)),
    check("suppression_lists_status_check", oneOf(t.status, SUPPRESSION_LIST_STATUSES)),
    check("suppression_lists_owner_check", sql`(${t.kind} = 'buyer_private') = (${t.ownerUserId} IS NOT NULL)`),
  ],
);

/**
 * Every number of every list, one row per (number, list): "which lists hold N" is one seek, whatever the
 * number of lists (WITHOUT ROWID, so the primary key is the table: about 20 bytes a number).
 */
export const suppressionNumbers = sqliteTable(
  "suppression_numbers",
  {
    /** `phoneKey`: the 10-digit US number as an integer. */
    number: integer("number").notNull(),
    listId: integer("list_id")
      .notNull()
      .references(() => suppressionLists.id, { onDelete: "cascade" }),
    /** Whole days since 1970-01-01 (`dayNumber`): when the shop added it ("Added to Do Not Call on …"). */
    addedOn: integer("added_on").notNull(),
    /** The upload that last listed it: a full list's upload removes the numbers it did not list. */
    lastUploadId: integer("last_upload_id"),
    /** The private list's full upload that wrote it beside the list's version: hidden until that upload is swapped in. */
    stagedBy: integer("staged_by"),
  },
  (t) => [
    primaryKey({ columns: [t.number, t.listId] }),
    // One list's numbers in order: a full list that replaces one sweeps only its own rows, whatever the
    // other lists hold (docs/decisions/0051; about 10 more bytes a number).
    index("suppression_numbers_list_idx").on(t.listId, t.number),
  ],
);

/** One file sent to a list, followed like a lead import (decision 0013): batches through R2 and the Queue. */
export const suppressionUploads = sqliteTable(
  "suppression_uploads",
  {
    id: integer("id").primaryKey(),
    listId: integer("list_id")
      .notNull()
      .references(() => suppressionLists.id, { onDelete: "cascade" }),
    contents: text("contents", { enum: SUPPRESSION_FILE_KINDS }).notNull(),
    fileName: text("file_name").notNull(),
    refreshedOn: text("refreshed_on").notNull(),
    status: text("status", { enum: SUPPRESSION_UPLOAD_STATUSES }).notNull().default("receiving"),
    /** A full list for a list that already held numbers: those it does not list are removed at the end. */
    replaces: integer("replaces", { mode: "boolean" }).notNull().default(false),
    /** Known once the browser says the file ended. */
    batchesExpected: integer("batches_expected"),
    batchesReceived: integer("batches_received").notNull().default(0),
    batchesDone: integer("batches_done").notNull().default(0),
    numbersReceived: integer("numbers_received").notNull().default(0),
    /** New on the list, already on it, and taken off it. */
    numbersAdded: integer("numbers_added").notNull().default(0),
    numbersUnchanged: integer("numbers_unchanged").notNull().default(0),
    numbersRemoved: integer("numbers_removed").notNull().default(0),
    /** What the browser's reading of the file found (SuppressionFileReport, first rejected lines included). */
    fileReport: text("file_report", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
    /** The range of numbers the removal pass of a replacing list has reached. */
    sweptTo: integer("swept_to").notNull().default(0),
    error: text("error"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull().default(now()),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
    /** When the upload's finishing message was last queued (a lost one is sent again by the cron). */
    queuedAt: integer("queued_at").notNull().default(0),
  },
  (t) => [
    index("suppression_uploads_list_idx").on(t.listId, t.createdAt),
    index("suppression_uploads_applying_idx").on(t.queuedAt).where(sql`${t.status} = 'applying'`),
    check("suppression_uploads_contents_check", oneOf(t.contents, SUPPRESSION_FILE_KINDS)),
    check("suppression_uploads_status_check", oneOf(t.status, SUPPRESSION_UPLOAD_STATUSES)),
  ],
);

/** One batch of an upload: its numbers wait in R2 until the consumer applies them once. */
export const suppressionUploadBatches = sqliteTable(
  "suppression_upload_batches",
  {
    uploadId: integer("upload_id")
      .notNull()
      .references(() => suppressionUploads.id, { onDelete: "cascade" }),
    batchNumber: integer("batch_number").notNull(),
    status: text("status", { enum: IMPORT_BATCH_STATUSES }).notNull().default("queued"),
    /** Numbers the batch brought to add and to remove. */
    adds: integer("adds").notNull().default(0),
    removes: integer("removes").notNull().default(0),
    /** Of those, new on the list and actually taken off it. */
    added: integer("added").notNull().default(0),
    removed: integer("removed").notNull().default(0),
    /** A private list's full upload: numbers already on the list that this batch listed again (kept). */
    relisted: integer("relisted").notNull().default(0),
    /** Numbers of the batch applied so far: a private list's batch is applied a few thousand at a time. */
    applied: integer("applied").notNull().default(0),
    error: text("error"),
    queuedAt: integer("queued_at").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.uploadId, t.batchNumber] }),
    index("suppression_upload_batches_queued_idx").on(t.queuedAt).where(sql`${t.status} = 'queued'`),
    check("suppression_upload_batches_status_check", oneOf(t.status, IMPORT_BATCH_STATUSES)),
  ],
);

/**
 * What a sale or a routed transfer was checked against: one row per list that applied (every active
 * shared list, and the buyer's private list), written in the same transaction as the sale or the claim.
 * Kind, name and refreshed-on day are copied, so a later refresh or rename does not rewrite history.
 */
export const suppressionChecks = sqliteTable(
  "suppression_checks",
  {
    subjectType: text("subject_type", { enum: SUPPRESSION_CHECK_SUBJECTS }).notNull(),
    /** The order's id (its aged leads) or the transfer's. */
    subjectId: text("subject_id").notNull(),
    listId: integer("list_id").notNull(),
    listKind: text("list_kind", { enum: SUPPRESSION_LIST_KINDS }).notNull(),
    listName: text("list_name").notNull(),
    /** The list's refreshed-on day at the check ('YYYY-MM-DD'), null if it had none. */
    refreshedOn: text("refreshed_on"),
    /** How many numbers the list held at the check. */
    listNumbers: integer("list_numbers").notNull(),
    checkedAt: integer("checked_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.subjectType, t.subjectId, t.listId] }),
    check("suppression_checks_subject_check", oneOf(t.subjectType, SUPPRESSION_CHECK_SUBJECTS)),
  ],
);

/**
 * A request made on /do-not-call: the number went onto the shop's own list at once; this keeps who asked and
 * why, and from where in a form that names nobody (docs/decisions/0055): a salted SHA-256 of the client
 * address (never the address) and the browser's user agent, cut short.
 */
export const doNotCallRequests = sqliteTable(
  "do_not_call_requests",
  {
    id: text("id").primaryKey(),
    number: integer("number").notNull(),
    email: text("email"),
    reason: text("reason"),
    /** Hex SHA-256 of CLIENT_HASH_SALT and the client address: equal for requests from one address. */
    clientHash: text("client_hash"),
    userAgent: text("user_agent"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull().default(now()),
  },
  (t) => [
    index("do_not_call_requests_number_idx").on(t.number),
    index("do_not_call_requests_created_idx").on(t.createdAt),
  ],
);

/** An admin took a number off the shop's own list: who, when and why (docs/decisions/0055). */
export const doNotCallRemovals = sqliteTable(
  "do_not_call_removals",
  {
    id: text("id").primaryKey(),
    number: integer("number").notNull(),
    removedBy: text("removed_by").references(() => users.id, { onDelete: "set null" }),
    reason: text("reason").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull().default(now()),
  },
  (t) => [index("do_not_call_removals_number_idx").on(t.number, t.createdAt)],
);

/** Each e-mail that told the admins of a burst of requests: at most one an hour (docs/decisions/0055). */
export const doNotCallAlerts = sqliteTable(
  "do_not_call_alerts",
  {
    id: integer("id").primaryKey(),
    sentAt: integer("sent_at").notNull(),
    /** Distinct numbers requested in the hour before, and from how many client addresses. */
    numbers: integer("numbers").notNull(),
    addresses: integer("addresses").notNull(),
  },
  (t) => [index("do_not_call_alerts_sent_idx").on(t.sentAt)],
);

/**
 * Each day the admins were e-mailed that a registry copy is 25 days old or more (docs/decisions/0085): the
 * day's row is claimed before the e-mail goes, so a day's e-mail goes once whatever the cron runs.
 */
export const registryFreshnessAlerts = sqliteTable("registry_freshness_alerts", {
  /** The UTC day ('YYYY-MM-DD') the e-mail was for. */
  day: text("day").primaryKey(),
  sentAt: integer("sent_at").notNull(),
  /** How many copies it named, and how many of them were stale. */
  copies: integer("copies").notNull(),
  stale: integer("stale").notNull(),
});

/**
 * A revocation (docs/decisions/0082): a number sold in the last 5 years (an aged lead, a billed transfer, a
 * delivered call-back) became new on a shared list; one row per (item, list), written in the transaction
 * that listed the number. The minute cron records its `lead.suppressed` webhook (`events_recorded_at`) and
 * the daily digest lists it once (`digest_sent_at`).
 */
export const suppressionRevocations = sqliteTable(
  "suppression_revocations",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    itemType: text("item_type", { enum: REVOKED_ITEM_TYPES }).notNull(),
    itemId: text("item_id").notNull(),
    orderId: text("order_id"),
    /** The number as the item stores it. */
    phone: text("phone").notNull(),
    listId: integer("list_id")
      .notNull()
      .references(() => suppressionLists.id, { onDelete: "cascade" }),
    listKind: text("list_kind", { enum: REVOKING_LIST_KINDS }).notNull(),
    /** When the item was bought (a transfer: routed). */
    soldAt: integer("sold_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    eventsRecordedAt: integer("events_recorded_at", { mode: "timestamp_ms" }),
    digestSentAt: integer("digest_sent_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("suppression_revocations_item_unique").on(t.itemType, t.itemId, t.listId),
    index("suppression_revocations_user_idx").on(t.userId, t.createdAt),
    index("suppression_revocations_pending_idx").on(t.createdAt).where(sql`${t.eventsRecordedAt} IS NULL`),
    index("suppression_revocations_digest_idx").on(t.createdAt).where(sql`${t.digestSentAt} IS NULL`),
    check("suppression_revocations_item_type_check", oneOf(t.itemType, REVOKED_ITEM_TYPES)),
    check("suppression_revocations_list_kind_check", oneOf(t.listKind, REVOKING_LIST_KINDS)),
  ],
);
