/**
 * Uploading a suppression list (docs/decisions/0042, 0051), the route's half. The browser reads the whole
 * file first (src/features/do-not-call/suppression-file.ts in a Web Worker): a file refused whole never reaches the
 * server. Then it starts an upload (the list and the file's report), sends the numbers in batches of up to
 * 10,000, and says when the file ended. A batch is stored in R2 and recorded in D1 (accepting it again
 * changes nothing), and nothing of it reaches the list until the finish: only then are the batches
 * announced on the Queue and applied (suppression-apply.ts). An upload never finished changes nothing and
 * expires after a day (suppression-resend.ts).
 *
 * Admins upload shared lists (national, state, litigator); a buyer uploads only their own private list,
 * within PRIVATE_LIST_LIMITS (suppression-limits.ts).
 */
import { and, eq, inArray, isNull, max } from "drizzle-orm";
import { batchesForNumbers, SUPPRESSION_UPLOAD_REFUSALS } from "../../../src/features/do-not-call/private-lists";
import { REGISTRY_LIST_KINDS, REGISTRY_UPLOAD_MESSAGE } from "../../../src/features/do-not-call/registry-scopes";
import type {
  AdminSuppressionUpload,
  BuyerSuppressionUpload,
  SuppressionBatch,
  SuppressionFileReportInput,
  SuppressionListView,
  SuppressionUploadView,
} from "../../../src/features/do-not-call/schemas/suppression";
import { freshUntil, isListStale } from "../../../src/features/do-not-call/suppression";
import { suppressionLists, suppressionUploads } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError, InvalidError, NotFoundError } from "../../errors";
import { batchKey, queueFinish, refreshUploadTotals } from "./suppression-apply";
import { checkBuyerBatch, checkBuyerUpload, declaredNumbers } from "./suppression-limits";
import type { SuppressionBatchMessage } from "./suppression-messages";
import { discardUploads } from "./suppression-resend";

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
    // National and state lists are registry copies now (docs/decisions/0084): never D1 rows again.
    if ((REGISTRY_LIST_KINDS as readonly string[]).includes(list.kind)) throw new InvalidError(REGISTRY_UPLOAD_MESSAGE);
    return list;
  }
  if (!("kind" in input)) throw new InvalidError("Choose what kind of list this is");
  if ((REGISTRY_LIST_KINDS as readonly string[]).includes(input.kind)) throw new InvalidError(REGISTRY_UPLOAD_MESSAGE);
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
  if (actor.kind === "buyer") await checkBuyerUpload(deps, actor.userId, input);
  const list = await targetList(deps, actor, input);
  const [running] = await db
    .select({ id: suppressionUploads.id })
    .from(suppressionUploads)
    .where(and(eq(suppressionUploads.listId, list.id), eq(suppressionUploads.status, "applying")));
  if (running) throw new ConflictError("This list is still applying its last upload. Try again in a minute.");
  const [givenUp, [upload]] = await db.batch([
    db
      .update(suppressionUploads)
      .set({ status: "failed", error: GIVEN_UP, finishedAt: new Date(deps.now) })
      .where(and(eq(suppressionUploads.listId, list.id), eq(suppressionUploads.status, "receiving")))
      .returning({ id: suppressionUploads.id }),
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
  await discardUploads(
    deps,
    givenUp.map((row) => row.id),
    GIVEN_UP,
  );
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

/** Why an upload takes no more numbers (a 409's message). */
function closedMessage(upload: UploadRow) {
  if (upload.status === "failed")
    return upload.error === SUPPRESSION_UPLOAD_REFUSALS.expired
      ? SUPPRESSION_UPLOAD_REFUSALS.expired
      : SUPPRESSION_UPLOAD_REFUSALS.finishedOrGivenUp;
  return `This upload is ${upload.status}: it takes no more numbers.`;
}

/**
 * Accepts one batch: checked against what the upload said its file holds (and a buyer's limits), stored in
 * R2 under its own key, then recorded (a batch sent again replaces itself). Nothing is applied yet: the
 * batches wait for the finish, so an upload changes its list all at once or not at all.
 */
export async function acceptSuppressionBatch(
  deps: Deps,
  actor: SuppressionActor,
  uploadId: number,
  batch: SuppressionBatch,
): Promise<{ uploadId: number; batchNumber: number; received: number }> {
  const upload = await uploadOf(deps, actor, uploadId);
  if (upload.status !== "receiving") throw new ConflictError(closedMessage(upload));
  const { batchNumber, add, remove } = batch;
  const declared = declaredNumbers(upload.fileReport);
  if (batchNumber > batchesForNumbers(declared)) throw new InvalidError(SUPPRESSION_UPLOAD_REFUSALS.batchOutOfRange);
  const db = deps.env.DB;
  // What the other batches bring (this one, sent again, replaces itself).
  const others = await db
    .prepare(
      `SELECT coalesce(sum(adds), 0) AS adds, coalesce(sum(adds + removes), 0) AS numbers
       FROM suppression_upload_batches WHERE upload_id = ? AND batch_number != ?`,
    )
    .bind(uploadId, batchNumber)
    .first<{ adds: number; numbers: number }>();
  if ((others?.numbers ?? 0) + add.length + remove.length > declared)
    throw new InvalidError(SUPPRESSION_UPLOAD_REFUSALS.numbersBeyondFile);
  if (actor.kind === "buyer") await checkBuyerBatch(deps, actor.userId, upload, (others?.adds ?? 0) + add.length);
  const key = batchKey(uploadId, batchNumber);
  await deps.env.DOCUMENTS.put(key, JSON.stringify({ add, remove }));
  const results = await db.batch<{ status: string }>([
    db
      .prepare(
        `INSERT INTO suppression_upload_batches (upload_id, batch_number, adds, removes, queued_at)
         SELECT ?1, ?2, ?3, ?4, ?5 WHERE EXISTS (SELECT 1 FROM suppression_uploads WHERE id = ?1 AND status = 'receiving')
         ON CONFLICT (upload_id, batch_number) DO UPDATE SET adds = excluded.adds, removes = excluded.removes
         WHERE status = 'queued'`,
      )
      .bind(uploadId, batchNumber, add.length, remove.length, deps.now),
    refreshUploadTotals(db, uploadId),
    db
      .prepare("SELECT status FROM suppression_upload_batches WHERE upload_id = ? AND batch_number = ?")
      .bind(uploadId, batchNumber),
  ]);
  if (!results.at(-1)?.results[0]?.status) {
    // The upload ended between the check and the insert: this batch is not part of it.
    await deps.env.DOCUMENTS.delete(key);
    throw new ConflictError("This upload takes no more numbers.");
  }
  return { uploadId, batchNumber, received: add.length + remove.length };
}

/** Queue messages per `sendBatch` (the Queue's limit). */
const SEND_BATCH = 100;

/**
 * The browser read the whole file and sent `batches` batches. Refused while some never arrived (the
 * browser sends them again); then the upload is `applying` and its batches are announced on the Queue,
 * all at once: the list changes from here on, never before. Finishing again changes nothing.
 */
export async function finishSuppressionUploadSending(
  deps: Deps,
  actor: SuppressionActor,
  uploadId: number,
  batches: number,
): Promise<SuppressionUploadView> {
  const upload = await uploadOf(deps, actor, uploadId);
  if (upload.status === "failed") throw new ConflictError(closedMessage(upload));
  if (upload.status === "receiving") {
    if (upload.batchesReceived !== batches) {
      throw new InvalidError(
        `The server has ${upload.batchesReceived} of the file's ${batches} batches: send the missing ones again.`,
      );
    }
    const [applying] = await deps.db
      .update(suppressionUploads)
      .set({ status: "applying", batchesExpected: batches, queuedAt: deps.now })
      .where(and(eq(suppressionUploads.id, uploadId), eq(suppressionUploads.status, "receiving")))
      .returning({ id: suppressionUploads.id });
    // Only the request that made it applying announces the batches; a lost message is sent again by the cron.
    if (applying && batches === 0) await queueFinish(deps, uploadId);
    else if (applying) {
      const { results } = await deps.env.DB.prepare(
        "UPDATE suppression_upload_batches SET queued_at = ? WHERE upload_id = ? AND status = 'queued' RETURNING batch_number",
      )
        .bind(deps.now, uploadId)
        .all<{ batch_number: number }>();
      const messages = results.map(({ batch_number: batchNumber }) => {
        const body: SuppressionBatchMessage = { kind: "suppression-batch", uploadId, batchNumber };
        return { body, contentType: "json" as const };
      });
      for (let i = 0; i < messages.length; i += SEND_BATCH) {
        await deps.env.IMPORT_QUEUE.sendBatch(messages.slice(i, i + SEND_BATCH));
      }
    }
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
