/**
 * What a buyer's private list may cost (docs/decisions/0051): PRIVATE_LIST_LIMITS (src/features/do-not-call/suppression.ts)
 * applied to a buyer's uploads. An upload is refused at its start when its file would take the list past
 * the limit or the buyer has used the day's uploads; a batch is refused when it would take the list past
 * the limit or comes faster than the minute's batches allow. Admins' shared lists have no such limits
 * (only the file's own declared size bounds their batches).
 */
import { and, count, eq, gt } from "drizzle-orm";
import { PRIVATE_LIST_LIMITS, SUPPRESSION_UPLOAD_REFUSALS } from "../../../src/features/do-not-call/private-lists";
import type {
  AdminSuppressionUpload,
  BuyerSuppressionUpload,
  SuppressionFileReportInput,
} from "../../../src/features/do-not-call/schemas/suppression";
import { suppressionLists, suppressionUploads } from "../../db/schema";
import type { Deps } from "../../deps";
import { InvalidError, RateLimitedError } from "../../errors";
import { admit, type RateRule } from "../../services/rate-limiter";

const DAY_MS = 86_400_000;

/** A buyer's batches, counted in D1 windows of a minute. */
const BATCH_RULE: RateRule = {
  name: "suppression-batches",
  limit: PRIVATE_LIST_LIMITS.batchesPerMinute,
  windowMs: 60_000,
};

/** The numbers (to add and to remove) an upload said its file holds: its batches may bring no more. */
export function declaredNumbers(report: Record<string, unknown>): number {
  const { added, removed } = report as Partial<SuppressionFileReportInput>;
  return (added ?? 0) + (removed ?? 0);
}

/**
 * The numbers a private list would hold after adding `adds`: a full list starts empty (it replaces the
 * list), any other file adds to what the list holds. Removals are not counted off: a number removed may
 * not have been on the list, and the bound must hold whatever the file says.
 */
const wouldHold = (contents: string, listNumbers: number, adds: number) =>
  (contents === "full" ? 0 : listNumbers) + adds;

/** A buyer's new upload: within the day's uploads and, by the file's own report, within the list's size. */
export async function checkBuyerUpload(
  deps: Deps,
  userId: string,
  input: AdminSuppressionUpload | BuyerSuppressionUpload,
): Promise<void> {
  const [list] = await deps.db
    .select({ id: suppressionLists.id, numbers: suppressionLists.numbers })
    .from(suppressionLists)
    .where(eq(suppressionLists.ownerUserId, userId));
  if (wouldHold(input.contents, list?.numbers ?? 0, input.report.added) > PRIVATE_LIST_LIMITS.numbers)
    throw new InvalidError(SUPPRESSION_UPLOAD_REFUSALS.privateListFull);
  if (!list) return;
  const [today] = await deps.db
    .select({ uploads: count() })
    .from(suppressionUploads)
    .where(and(eq(suppressionUploads.listId, list.id), gt(suppressionUploads.createdAt, new Date(deps.now - DAY_MS))));
  if ((today?.uploads ?? 0) >= PRIVATE_LIST_LIMITS.uploadsPerDay)
    throw new RateLimitedError(SUPPRESSION_UPLOAD_REFUSALS.uploadsPerDay);
}

/** A buyer's batch: within the minute's batches, and the upload's additions (`adds`, this batch's included) within the list's size. */
export async function checkBuyerBatch(
  deps: Deps,
  userId: string,
  upload: { listId: number; contents: string },
  adds: number,
): Promise<void> {
  if (!(await admit(deps, BATCH_RULE, userId)))
    throw new RateLimitedError(SUPPRESSION_UPLOAD_REFUSALS.batchesPerMinute);
  const [list] = await deps.db
    .select({ numbers: suppressionLists.numbers })
    .from(suppressionLists)
    .where(eq(suppressionLists.id, upload.listId));
  if (wouldHold(upload.contents, list?.numbers ?? 0, adds) > PRIVATE_LIST_LIMITS.numbers)
    throw new InvalidError(SUPPRESSION_UPLOAD_REFUSALS.privateListFull);
}
