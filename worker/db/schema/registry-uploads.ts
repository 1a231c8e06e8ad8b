/**
 * Registry uploads (docs/decisions/0083-loading-the-whole-registry.md; migration 0046): an admin's or
 * `npm run dnc:load`'s upload of one registry copy, its files (each an R2 multipart upload, then applied
 * to the bits in R2 by worker/features/do-not-call/registry-store.ts) and the parts received. A few rows
 * per area code, whatever the registry's size: the numbers themselves never reach D1.
 * Re-exported by index.ts with the other schema files (decisions 0036 and 0073).
 */
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import {
  REGISTRY_FILE_KINDS,
  REGISTRY_FILE_STATUSES,
  REGISTRY_SCOPES,
  REGISTRY_UPLOAD_STATUSES,
} from "../../../src/features/do-not-call/registry-upload";
import { users } from "./accounts";
import { now, oneOf } from "./columns";

export const registryUploads = sqliteTable(
  "registry_uploads",
  {
    id: integer("id").primaryKey(),
    /** `national` or a state's two letters. */
    scope: text("scope", { enum: REGISTRY_SCOPES }).notNull(),
    /** 'YYYY-MM-DD': the day the copy was downloaded from the FTC (the list's refreshed-on once applied). */
    downloadDate: text("download_date").notNull(),
    /** The shop's Subscription Account Number with the FTC (national uploads). */
    san: text("san"),
    status: text("status", { enum: REGISTRY_UPLOAD_STATUSES }).notNull().default("receiving"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull().default(now()),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
    appliedAt: integer("applied_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("registry_uploads_scope_idx").on(t.scope, t.createdAt),
    check("registry_uploads_scope_check", oneOf(t.scope, REGISTRY_SCOPES)),
    check("registry_uploads_status_check", oneOf(t.status, REGISTRY_UPLOAD_STATUSES)),
  ],
);

/** One file of an upload: one area code's full list or change list. */
export const registryUploadFiles = sqliteTable(
  "registry_upload_files",
  {
    id: integer("id").primaryKey(),
    uploadId: integer("upload_id")
      .notNull()
      .references(() => registryUploads.id, { onDelete: "cascade" }),
    areaCode: integer("area_code").notNull(),
    kind: text("kind", { enum: REGISTRY_FILE_KINDS }).notNull(),
    size: integer("size").notNull(),
    /** The R2 key the file is written to, as it was sent. */
    objectKey: text("object_key").notNull(),
    /** The R2 multipart upload's id, once its first part came. */
    multipartId: text("multipart_id"),
    partsReceived: integer("parts_received").notNull().default(0),
    status: text("status", { enum: REGISTRY_FILE_STATUSES }).notNull().default("waiting"),
    /** Why it was refused (and at which line of the file). */
    message: text("message"),
    line: integer("line"),
    /** Once applied: the area code's numbers, and what a change list added and removed. */
    numbers: integer("numbers"),
    added: integer("added"),
    removed: integer("removed"),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(now()),
  },
  (t) => [
    uniqueIndex("registry_upload_files_unique").on(t.uploadId, t.areaCode, t.kind),
    check("registry_upload_files_kind_check", oneOf(t.kind, REGISTRY_FILE_KINDS)),
    check("registry_upload_files_status_check", oneOf(t.status, REGISTRY_FILE_STATUSES)),
  ],
);

/** A part R2 holds, with the etag completing the multipart upload needs. Sent twice, it is kept once. */
export const registryUploadParts = sqliteTable(
  "registry_upload_parts",
  {
    fileId: integer("file_id")
      .notNull()
      .references(() => registryUploadFiles.id, { onDelete: "cascade" }),
    partNumber: integer("part_number").notNull(),
    etag: text("etag").notNull(),
    size: integer("size").notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.partNumber] })],
);
