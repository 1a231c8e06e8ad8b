/**
 * Uploading a suppression list (issue 24 item 4; docs/decisions/0042), the route's half. The browser
 * reads the whole file first (src/domain/suppression-file.ts in a Web Worker): a file refused whole never
 * reaches the server. Then it starts an upload (the list and the file's report), sends the numbers in
 * batches of up to 10,000, and says when the file ended. Like a lead import (decisions 0008, 0013, 0030),
 * a batch is stored in R2, recorded in D1 and announced on the Queue, and accepting it again changes
 * nothing; the consumer applies it (suppression-apply.ts).
 *
 * Admins upload shared lists (national, state, litigator); a buyer uploads only their own private list.
 */
import { and, eq, inArray, isNull, max } from "drizzle-orm";
import type {
  AdminSuppressionUpload,
  BuyerSuppressionUpload,
  SuppressionBatch,
  SuppressionFileReportInput,
  SuppressionListView,
  SuppressionUploadView,
} from "../../src/domain/schemas/suppression";
import { freshUntil, isListStale } from "../../src/domain/suppression";
import { suppressionLists, suppressionUploads } from "../db/schema";
import type { Deps } from "../deps";
import { ConflictError, InvalidError, NotFoundError } from "../errors";
import { batchKey, queueFinish, refreshUploadTotals, type SuppressionBatchMessage } from "./suppression-apply";

/** Who uploads: an admin (shared lists) or a buyer (their own private list). */
export type SuppressionActor = { kind: "admin"; userId: string } | { kind: "buyer"; userId: string };

const GIVEN_UP = "Given up: a newer upload to this list started before this one ended";

type ListRow = typeof suppressionLists.$inferSelect;
type UploadRow = typeof suppressionUploads.$inferSelect;

/** The list an upload goes to, made on the first upload; an admin never reaches a private list, a buyer only theirs. */
async function targetList(
  deps: Deps,
  actor: SuppressionActor,
  input: AdminSuppressionUpload | BuyerSuppressionUpload,
): Promise<ListRow> {
  const { db } = deps;
  if (actor.kind === "buyer") {
    const name = "name" in input ? input.name : "";
    const [own] = await db
      .insert(suppressionLists)
      .values({ kind: "buyer_private", name, ownerUserId: actor.userId, createdBy: actor.userId })
      .onConflictDoUpdate({ target: suppressionLists.ownerUserId, set: { name } })
      .returning();
    if (!own) throw new Error("The private list could not be made");
    return own;
  }
  if ("listId" in input) {
    // An existing shared list of a kind admins upload (the shop's own list grows from requests only).
    const [list] = await db
      .select()
      .from(suppressionLists)
      .where(
        and(
          eq(suppressionLists.id, input.listId),
          isNull(suppressionLists.ownerUserId),
          inArray(suppressionLists.kind, ["national_dnc", "state_dnc", "litigator"]),
        ),
      );
    if (list?.status !== "active") throw new NotFoundError("No such list.");
    return list;
  }
  if (!("kind" in input)) throw new InvalidError("Choose what kind of list this is");
  const [made] = await db
    .insert(suppressionLists)
    .values({ kind: input.kind, name: input.name, createdBy: actor.userId })
    .returning();
  if (!made) throw new Error("The list could not be made");
  return made;
}

/**
 * Starts an upload: the list (new or existing), what the file holds and when its source was refreshed,
 * and the browser's report of the file. An upload of the same list that had not finished sending is given
 * up (its remaining batches are not applied), so two files never interleave.
 */
export async function startSuppressionUpload(
  deps: Deps,
  actor: SuppressionActor,
  input: AdminSuppressionUpload | BuyerSuppressionUpload,
): Promise<{ uploadId: number; listId: number }> {
  const { db } = deps;
  const list = await targetList(deps, actor, input);
  const [running] = await db
    .select({ id: suppressionUploads.id })
    .from(suppressionUploads)
    .where(and(eq(suppressionUploads.listId, list.id), eq(suppressionUploads.status, "applying")));
  if (running) throw new ConflictError("This list is still applying its last upload. Try again in a minute.");
  const [, [upload]] = await db.batch([
    db
      .update(suppressionUploads)
      .set({ status: "failed", error: GIVEN_UP, finishedAt: new Date(deps.now) })
      .where(and(eq(suppressionUploads.listId, list.id), eq(suppressionUploads.status, "receiving"))),
    db
      .insert(suppressionUploads)
      .values({
        listId: list.id,
        contents: input.contents,
        fileName: input.fileName,
        refreshedOn: input.refreshedOn,
        replaces: input.contents === "full" && list.numbers > 0,
        fileReport: input.report,
        createdBy: actor.userId,
      })
      .returning({ id: suppressionUploads.id }),
  ]);
  if (!upload) throw new Error("The upload could not be recorded");
  return { uploadId: upload.id, listId: list.id };
}

/** The upload, if the actor may see it: an admin any shared list's, a buyer only their own list's. */
async function uploadOf(deps: Deps, actor: SuppressionActor, uploadId: number) {
  const [row] = await deps.db
    .select({ upload: suppressionUploads, owner: suppressionLists.ownerUserId })
    .from(suppressionUploads)
    .innerJoin(suppressionLists, eq(suppressionLists.id, suppressionUploads.listId))
    .where(eq(suppressionUploads.id, uploadId));
  const allowed = row && (actor.kind === "admin" ? row.owner === null : row.owner === actor.userId);
  if (!row || !allowed) throw new NotFoundError("No such upload.");
  return row.upload;
}

/**
 * Accepts one batch: stored in R2 under its own key, then recorded (a batch sent twice is recorded once),
 * then announced on the Queue while it waits. Three round trips, each safe to repeat.
 */
export async function acceptSuppressionBatch(
  deps: Deps,
  actor: SuppressionActor,
  uploadId: number,
  batch: SuppressionBatch,
): Promise<{ uploadId: number; batchNumber: number; received: number }> {
  const upload = await uploadOf(deps, actor, uploadId);
  if (upload.status !== "receiving")
    throw new ConflictError(`This upload is ${upload.status}: it takes no more numbers.`);
  const { batchNumber, add, remove } = batch;
  const db = deps.env.DB;
  const key = batchKey(uploadId, batchNumber);
  await deps.env.DOCUMENTS.put(key, JSON.stringify({ add, remove }));
  const results = await db.batch<{ status: string }>([
    db
      .prepare(
        `INSERT INTO suppression_upload_batches (upload_id, batch_number, adds, removes, queued_at)
         SELECT ?1, ?2, ?3, ?4, ?5 WHERE EXISTS (SELECT 1 FROM suppression_uploads WHERE id = ?1 AND status = 'receiving')
         ON CONFLICT (upload_id, batch_number) DO UPDATE SET queued_at = excluded.queued_at WHERE status = 'queued'`,
      )
      .bind(uploadId, batchNumber, add.length, remove.length, deps.now),
    refreshUploadTotals(db, uploadId),
    db
      .prepare("SELECT status FROM suppression_upload_batches WHERE upload_id = ? AND batch_number = ?")
      .bind(uploadId, batchNumber),
  ]);
  const status = results.at(-1)?.results[0]?.status;
  if (status === "queued") {
    const message: SuppressionBatchMessage = { kind: "suppression-batch", uploadId, batchNumber };
    await deps.env.IMPORT_QUEUE.send(message, { contentType: "json" });
  } else {
    await deps.env.DOCUMENTS.delete(key);
    if (!status) throw new ConflictError("This upload takes no more numbers.");
  }
  return { uploadId, batchNumber, received: add.length + remove.length };
}

/**
 * The browser read the whole file and sent `batches` batches. Refused while some never arrived (the
 * browser sends them again); then the upload applies its last batches and finishes.
 */
export async function finishSuppressionUploadSending(
  deps: Deps,
  actor: SuppressionActor,
  uploadId: number,
  batches: number,
): Promise<SuppressionUploadView> {
  const upload = await uploadOf(deps, actor, uploadId);
  if (upload.status === "receiving") {
    if (upload.batchesReceived !== batches) {
      throw new InvalidError(
        `The server has ${upload.batchesReceived} of the file's ${batches} batches: send the missing ones again.`,
      );
    }
    // D1 runs one statement at a time: either this update sees the last batch done, or the consumer that
    // applies it sees the upload applying; whichever comes second queues the finish (twice is harmless).
    const [applying] = await deps.db
      .update(suppressionUploads)
      .set({ status: "applying", batchesExpected: batches, queuedAt: deps.now })
      .where(and(eq(suppressionUploads.id, uploadId), eq(suppressionUploads.status, "receiving")))
      .returning({ done: suppressionUploads.batchesDone });
    if (applying?.done === batches) await queueFinish(deps, uploadId);
  }
  return suppressionUploadStatus(deps, actor, uploadId);
}

function toUploadView(row: UploadRow): SuppressionUploadView {
  return {
    id: row.id,
    listId: row.listId,
    fileName: row.fileName,
    contents: row.contents,
    refreshedOn: row.refreshedOn,
    status: row.status,
    batchesExpected: row.batchesExpected,
    batchesReceived: row.batchesReceived,
    batchesDone: row.batchesDone,
    numbersReceived: row.numbersReceived,
    numbersAdded: row.numbersAdded,
    numbersUnchanged: row.numbersUnchanged,
    numbersRemoved: row.numbersRemoved,
    fileReport: Object.keys(row.fileReport).length > 0 ? (row.fileReport as SuppressionFileReportInput) : null,
    error: row.error,
    createdAt: row.createdAt.getTime(),
    finishedAt: row.finishedAt?.getTime() ?? null,
  };
}

export async function suppressionUploadStatus(
  deps: Deps,
  actor: SuppressionActor,
  uploadId: number,
): Promise<SuppressionUploadView> {
  return toUploadView(await uploadOf(deps, actor, uploadId));
}

function toListView(list: ListRow, lastUpload: UploadRow | undefined, now: number): SuppressionListView {
  return {
    id: list.id,
    kind: list.kind,
    name: list.name,
    refreshedOn: list.refreshedOn,
    numbers: list.numbers,
    status: list.status,
    stale: isListStale(list.refreshedOn ?? "", now, list.kind),
    freshUntil: list.refreshedOn ? freshUntil(list.refreshedOn) : null,
    lastUpload: lastUpload ? toUploadView(lastUpload) : null,
  };
}

/** The latest upload of each list (ids grow, so the latest is the largest id). */
async function latestUploads(deps: Deps, listIds: number[]): Promise<Map<number, UploadRow>> {
  if (listIds.length === 0) return new Map();
  const latest = deps.db
    .select({ id: max(suppressionUploads.id) })
    .from(suppressionUploads)
    .where(inArray(suppressionUploads.listId, listIds))
    .groupBy(suppressionUploads.listId);
  const rows = await deps.db.select().from(suppressionUploads).where(inArray(suppressionUploads.id, latest));
  return new Map(rows.map((row) => [row.listId, row]));
}

/** The admin area's lists: every shared list, the shop's own first, each flagged when older than 31 days. */
export async function sharedSuppressionLists(deps: Deps): Promise<SuppressionListView[]> {
  const lists = await deps.db
    .select()
    .from(suppressionLists)
    .where(and(isNull(suppressionLists.ownerUserId), eq(suppressionLists.status, "active")))
    .orderBy(suppressionLists.id);
  const uploads = await latestUploads(
    deps,
    lists.map((list) => list.id),
  );
  return lists.map((list) => toListView(list, uploads.get(list.id), deps.now));
}

/** A buyer's own private list (null before the first upload). */
export async function privateSuppressionList(deps: Deps, userId: string): Promise<SuppressionListView | null> {
  const [list] = await deps.db.select().from(suppressionLists).where(eq(suppressionLists.ownerUserId, userId));
  if (!list) return null;
  const uploads = await latestUploads(deps, [list.id]);
  return toListView(list, uploads.get(list.id), deps.now);
}
