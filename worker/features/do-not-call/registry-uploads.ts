/**
 * Loading a registry copy into the bits in R2 (docs/decisions/0083-loading-the-whole-registry.md): an admin
 * (the Do Not Call tab or `npm run dnc:load`) starts an upload naming its files, sends each file in parts
 * to an R2 multipart upload (a part sent twice changes nothing; the status says which parts are in, so a
 * reloaded tab or a restarted load resumes), then finishes it: one Queue message per area code, applied by
 * registry-apply.ts. Nothing is applied before the finish.
 */
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { checkRegistryFileStart, RegistryFileError } from "../../../src/features/do-not-call/registry-file";
import {
  partCount,
  partLength,
  REGISTRY_HEAD_BYTES,
  REGISTRY_PART_BYTES,
  REGISTRY_UPLOAD_MESSAGES,
} from "../../../src/features/do-not-call/registry-upload";
import type {
  RegistryUploadFileView,
  RegistryUploadStart,
  RegistryUploadSummary,
  RegistryUploadView,
} from "../../../src/features/do-not-call/schemas/registry-upload";
import { registryUploadFiles, registryUploadParts, registryUploads, suppressionLists } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError, InvalidError, NotFoundError } from "../../errors";

const M = REGISTRY_UPLOAD_MESSAGES;
/** Queue messages per `sendBatch` (the Queue's limit). */
const SEND_BATCH = 100;

/** One message per area code of an upload: its files are applied together, full list first. */
export interface RegistryApplyMessage {
  kind: "registry-apply";
  uploadId: number;
  areaCode: number;
}

export const isRegistryApplyMessage = (body: unknown): body is RegistryApplyMessage =>
  typeof body === "object" && body !== null && (body as { kind?: unknown }).kind === "registry-apply";

type UploadRow = typeof registryUploads.$inferSelect;
type FileRow = typeof registryUploadFiles.$inferSelect;

const objectKey = (uploadId: number, kind: string, areaCode: number) =>
  `registry-uploads/${uploadId}/${kind}/${areaCode}.txt`;

async function uploadRow(deps: Deps, uploadId: number): Promise<UploadRow> {
  const [upload] = await deps.db.select().from(registryUploads).where(eq(registryUploads.id, uploadId));
  if (!upload) throw new NotFoundError("No such registry upload.");
  return upload;
}

function summaryOf(upload: UploadRow): Omit<RegistryUploadView, "files"> {
  return {
    id: upload.id,
    scope: upload.scope,
    downloadDate: upload.downloadDate,
    san: upload.san,
    status: upload.status,
    partBytes: REGISTRY_PART_BYTES,
    createdAt: upload.createdAt.getTime(),
    appliedAt: upload.appliedAt?.getTime() ?? null,
  };
}

/**
 * Starts an upload of one registry copy. A receiving upload of the same copy is `replaced` (its parts in
 * R2 are left to R2's clean-up of unfinished multipart uploads).
 */
export async function startRegistryUpload(
  deps: Deps,
  userId: string,
  input: RegistryUploadStart,
): Promise<RegistryUploadView> {
  const [, [upload]] = await deps.db.batch([
    deps.db
      .update(registryUploads)
      .set({ status: "replaced" })
      .where(and(eq(registryUploads.scope, input.scope), eq(registryUploads.status, "receiving"))),
    deps.db
      .insert(registryUploads)
      .values({
        scope: input.scope,
        downloadDate: input.downloadDate,
        san: input.scope === "national" ? (input.san ?? null) : null,
        createdBy: userId,
        createdAt: new Date(deps.now),
      })
      .returning(),
  ]);
  if (!upload) throw new Error("The upload was not recorded.");
  // Raw SQL: one statement for up to 1,600 files, where an insert of values binds 100 parameters at most.
  const files = input.files.map((file) => ({ ...file, key: objectKey(upload.id, file.kind, file.areaCode) }));
  await deps.env.DB.prepare(
    `INSERT INTO registry_upload_files (upload_id, area_code, kind, size, object_key, updated_at)
     SELECT ?1, value ->> 'areaCode', value ->> 'kind', value ->> 'size', value ->> 'key', ?2 FROM json_each(?3)`,
  )
    .bind(upload.id, deps.now, JSON.stringify(files))
    .run();
  return registryUploadStatus(deps, upload.id);
}

function fileView(file: FileRow, parts: number[]): RegistryUploadFileView {
  return {
    id: file.id,
    areaCode: file.areaCode,
    kind: file.kind,
    size: file.size,
    parts: partCount(file.size),
    partsReceived: parts,
    status: file.status,
    message: file.message,
    line: file.line,
    numbers: file.numbers,
    added: file.added,
    removed: file.removed,
  };
}

/** The upload with each file's parts in, status and message: what the tab shows and resumes from. */
export async function registryUploadStatus(deps: Deps, uploadId: number): Promise<RegistryUploadView> {
  const upload = await uploadRow(deps, uploadId);
  const [files, parts] = await deps.db.batch([
    deps.db
      .select()
      .from(registryUploadFiles)
      .where(eq(registryUploadFiles.uploadId, uploadId))
      .orderBy(asc(registryUploadFiles.areaCode), asc(registryUploadFiles.kind)),
    deps.db
      .select({ fileId: registryUploadParts.fileId, partNumber: registryUploadParts.partNumber })
      .from(registryUploadParts)
      .innerJoin(registryUploadFiles, eq(registryUploadFiles.id, registryUploadParts.fileId))
      .where(eq(registryUploadFiles.uploadId, uploadId))
      .orderBy(asc(registryUploadParts.partNumber)),
  ]);
  const byFile = new Map<number, number[]>();
  for (const { fileId, partNumber } of parts) byFile.set(fileId, [...(byFile.get(fileId) ?? []), partNumber]);
  return { ...summaryOf(upload), files: files.map((file) => fileView(file, byFile.get(file.id) ?? [])) };
}

/** The latest uploads, newest first (the tab resumes the one still receiving). */
export async function recentRegistryUploads(deps: Deps): Promise<RegistryUploadSummary[]> {
  const uploads = await deps.db.select().from(registryUploads).orderBy(desc(registryUploads.id)).limit(5);
  if (uploads.length === 0) return [];
  const counts = await deps.db
    .select({
      uploadId: registryUploadFiles.uploadId,
      files: sql<number>`count(*)`,
      applied: sql<number>`sum(${registryUploadFiles.status} = 'applied')`,
      refused: sql<number>`sum(${registryUploadFiles.status} = 'refused')`,
    })
    .from(registryUploadFiles)
    .where(
      inArray(
        registryUploadFiles.uploadId,
        uploads.map((upload) => upload.id),
      ),
    )
    .groupBy(registryUploadFiles.uploadId);
  return uploads.map((upload) => {
    const count = counts.find((row) => row.uploadId === upload.id);
    return {
      ...summaryOf(upload),
      fileCount: Number(count?.files ?? 0),
      filesApplied: Number(count?.applied ?? 0),
      filesRefused: Number(count?.refused ?? 0),
    };
  });
}

async function refuseFile(deps: Deps, file: FileRow, message: string, line: number | null): Promise<void> {
  await deps.db
    .update(registryUploadFiles)
    .set({ status: "refused", message, line, updatedAt: new Date(deps.now) })
    .where(eq(registryUploadFiles.id, file.id));
}

/** The file's R2 multipart upload: started at its first part (a racing second start is aborted). */
async function multipartOf(deps: Deps, file: FileRow): Promise<R2MultipartUpload> {
  const bucket = deps.env.DOCUMENTS;
  if (file.multipartId) return bucket.resumeMultipartUpload(file.objectKey, file.multipartId);
  const started = await bucket.createMultipartUpload(file.objectKey);
  const [won] = await deps.db
    .update(registryUploadFiles)
    .set({ multipartId: started.uploadId, status: "receiving" })
    .where(and(eq(registryUploadFiles.id, file.id), sql`${registryUploadFiles.multipartId} IS NULL`))
    .returning({ id: registryUploadFiles.id });
  if (won) return started;
  await started.abort();
  const [again] = await deps.db.select().from(registryUploadFiles).where(eq(registryUploadFiles.id, file.id));
  return bucket.resumeMultipartUpload(file.objectKey, again?.multipartId ?? "");
}

/**
 * Part `part` of a file, exactly its length. Checked before it is kept: the first part's first line (the
 * format and the area code, so a wrong file is refused at once) and the last part's end (a newline: a file
 * cut off is refused). A part already in changes nothing. When the last part is in, the file is put
 * together in R2.
 */
export async function putRegistryPart(
  deps: Deps,
  uploadId: number,
  fileId: number,
  part: number,
  body: Blob,
): Promise<RegistryUploadFileView> {
  const upload = await uploadRow(deps, uploadId);
  const [file] = await deps.db
    .select()
    .from(registryUploadFiles)
    .where(and(eq(registryUploadFiles.id, fileId), eq(registryUploadFiles.uploadId, uploadId)));
  if (!file) throw new NotFoundError("No such file in this registry upload.");
  const current = () => fileStatus(deps, fileId);
  const [known] = await deps.db
    .select({ partNumber: registryUploadParts.partNumber })
    .from(registryUploadParts)
    .where(and(eq(registryUploadParts.fileId, fileId), eq(registryUploadParts.partNumber, part)));
  if (known) return current();
  if (upload.status !== "receiving") throw new ConflictError(M.notReceiving);
  if (file.status === "refused") throw new InvalidError(file.message ?? M.refused, { line: file.line });
  const parts = partCount(file.size);
  if (part < 1 || part > parts) throw new InvalidError(M.noPart(part, parts));
  const expected = partLength(file.size, part);
  if (body.size !== expected) throw new InvalidError(M.partLength(part, expected, body.size));
  try {
    if (part === 1) {
      const head = new Uint8Array(await body.slice(0, REGISTRY_HEAD_BYTES).arrayBuffer());
      checkRegistryFileStart(file.kind, file.areaCode, head);
    }
    if (part === parts) {
      const last = new Uint8Array(await body.slice(body.size - 1).arrayBuffer());
      if (last[0] !== 10) {
        throw new RegistryFileError("The file does not end with a newline: it looks cut off (truncated).", null);
      }
    }
  } catch (error) {
    if (!(error instanceof RegistryFileError)) throw error;
    await refuseFile(deps, file, error.message, error.line);
    throw new InvalidError(error.message, { line: error.line });
  }
  // A file of one part is one object (one R2 write, not three); a longer one is a multipart upload.
  const multipart = parts === 1 ? null : await multipartOf(deps, file);
  const uploaded = multipart
    ? await multipart.uploadPart(part, body)
    : await deps.env.DOCUMENTS.put(file.objectKey, body);
  if (!uploaded) throw new Error("R2 did not keep the part.");
  const inserted = await deps.db
    .insert(registryUploadParts)
    .values({ fileId, partNumber: part, etag: uploaded.etag, size: body.size })
    .onConflictDoNothing()
    .returning({ partNumber: registryUploadParts.partNumber });
  if (inserted.length === 0) return current();
  const [counted] = await deps.db
    .update(registryUploadFiles)
    .set({ partsReceived: sql`${registryUploadFiles.partsReceived} + 1`, updatedAt: new Date(deps.now) })
    .where(eq(registryUploadFiles.id, fileId))
    .returning({ partsReceived: registryUploadFiles.partsReceived });
  if (counted?.partsReceived === parts) {
    const kept = await deps.db
      .select({ partNumber: registryUploadParts.partNumber, etag: registryUploadParts.etag })
      .from(registryUploadParts)
      .where(eq(registryUploadParts.fileId, fileId))
      .orderBy(asc(registryUploadParts.partNumber));
    if (multipart) await multipart.complete(kept);
    await deps.db.update(registryUploadFiles).set({ status: "received" }).where(eq(registryUploadFiles.id, fileId));
  }
  return current();
}

async function fileStatus(deps: Deps, fileId: number): Promise<RegistryUploadFileView> {
  const [[file], parts] = await deps.db.batch([
    deps.db.select().from(registryUploadFiles).where(eq(registryUploadFiles.id, fileId)),
    deps.db
      .select({ partNumber: registryUploadParts.partNumber })
      .from(registryUploadParts)
      .where(eq(registryUploadParts.fileId, fileId))
      .orderBy(asc(registryUploadParts.partNumber)),
  ]);
  if (!file) throw new NotFoundError("No such file in this registry upload.");
  return fileView(
    file,
    parts.map((row) => row.partNumber),
  );
}

/**
 * Every file is in (or refused): the upload is `applying` and each area code with a file to apply gets one
 * Queue message. Refused while a file still misses parts. Finishing again changes nothing.
 */
export async function finishRegistryUpload(deps: Deps, uploadId: number): Promise<RegistryUploadView> {
  const upload = await uploadRow(deps, uploadId);
  if (upload.status === "replaced") throw new ConflictError(M.notReceiving);
  if (upload.status !== "receiving") return registryUploadStatus(deps, uploadId);
  const files = await deps.db.select().from(registryUploadFiles).where(eq(registryUploadFiles.uploadId, uploadId));
  const missing = files.filter((file) => file.status !== "received" && file.status !== "refused");
  if (missing[0]) {
    const first = missing[0];
    throw new InvalidError(
      M.missing(
        missing.length,
        `${first.areaCode} ${first.kind}: ${first.partsReceived} of ${partCount(first.size)} parts`,
      ),
    );
  }
  const [applying] = await deps.db
    .update(registryUploads)
    .set({ status: "applying", finishedAt: new Date(deps.now) })
    .where(and(eq(registryUploads.id, uploadId), eq(registryUploads.status, "receiving")))
    .returning({ id: registryUploads.id });
  if (applying) {
    const areaCodes = [...new Set(files.filter((file) => file.status === "received").map((file) => file.areaCode))];
    const messages = areaCodes.map((areaCode) => {
      const body: RegistryApplyMessage = { kind: "registry-apply", uploadId, areaCode };
      return { body, contentType: "json" as const };
    });
    for (let i = 0; i < messages.length; i += SEND_BATCH) {
      await deps.env.IMPORT_QUEUE.sendBatch(messages.slice(i, i + SEND_BATCH));
    }
    if (areaCodes.length === 0) await settleRegistryUpload(deps, uploadId);
  }
  return registryUploadStatus(deps, uploadId);
}

/**
 * Once no file of the upload waits to be applied: `applied` (every file) or `partly_applied`. A copy
 * applied whole becomes its list's refreshed-on day (the National Registry's list, or the state's list).
 */
export async function settleRegistryUpload(deps: Deps, uploadId: number): Promise<void> {
  const [counts] = await deps.db
    .select({
      waiting: sql<number>`coalesce(sum(${registryUploadFiles.status} = 'received'), 0)`,
      refused: sql<number>`coalesce(sum(${registryUploadFiles.status} = 'refused'), 0)`,
    })
    .from(registryUploadFiles)
    .where(eq(registryUploadFiles.uploadId, uploadId));
  if (Number(counts?.waiting ?? 0) > 0) return;
  const whole = Number(counts?.refused ?? 0) === 0;
  const [settled] = await deps.db
    .update(registryUploads)
    .set({ status: whole ? "applied" : "partly_applied", appliedAt: new Date(deps.now) })
    .where(and(eq(registryUploads.id, uploadId), eq(registryUploads.status, "applying")))
    .returning();
  if (settled && whole) await markListRefreshed(deps, settled);
}

/** The list a registry copy stands for (made when the shop has none yet): the National Registry's, or the state's. */
async function markListRefreshed(deps: Deps, upload: UploadRow): Promise<void> {
  const national = upload.scope === "national";
  const which = national
    ? eq(suppressionLists.kind, "national_dnc")
    : and(eq(suppressionLists.kind, "state_dnc"), eq(suppressionLists.state, upload.scope));
  const updated = await deps.db
    .update(suppressionLists)
    .set({ refreshedOn: upload.downloadDate, updatedAt: new Date(deps.now) })
    .where(and(which, eq(suppressionLists.status, "active")))
    .returning({ id: suppressionLists.id });
  if (updated.length > 0) return;
  await deps.db.insert(suppressionLists).values({
    kind: national ? "national_dnc" : "state_dnc",
    name: national ? "National Do Not Call Registry" : `${upload.scope} Do Not Call list`,
    state: national ? null : upload.scope,
    refreshedOn: upload.downloadDate,
    createdBy: upload.createdBy,
  });
}
