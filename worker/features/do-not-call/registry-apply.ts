/**
 * The Queue's side of a registry upload (docs/decisions/0083-loading-the-whole-registry.md): one message
 * per area code reads that area code's files from R2 as they were sent (full list first, then the change
 * list) and swaps each into the bits (registry-store.ts: all at once per file), then re-checks the area
 * code's leads (registry-rescrub.ts: the first slice here, the rest as `registry-rescrub` messages) and
 * only then records the files applied, so a message that fails half-way swaps and re-checks again on its
 * retry. A refused file (its message and line are kept) leaves its area code as it was; the other area
 * codes are applied. A message delivered again skips what is already applied.
 */
import { and, eq } from "drizzle-orm";
import { REGISTRY_UPLOAD_MESSAGES } from "../../../src/features/do-not-call/registry-upload";
import { registryUploadFiles, registryUploads } from "../../db/schema";
import type { Deps } from "../../deps";
import { InvalidError } from "../../errors";
import { firstRescrubMessage, MAX_QUERIES_PER_RESCRUB_MESSAGE, rescrubSlice } from "./registry-rescrub";
import { applyRegistryChangeList, type RegistrySwap, storeRegistryFullList } from "./registry-store";
import { type RegistryApplyMessage, settleRegistryUpload } from "./registry-uploads";

/**
 * D1 queries one message costs at most: the upload, its files, two per file, and the settling, plus the
 * re-scrub's first slice.
 */
export const MAX_QUERIES_PER_REGISTRY_MESSAGE = 12 + MAX_QUERIES_PER_RESCRUB_MESSAGE;

type FileRow = typeof registryUploadFiles.$inferSelect;

async function refuse(deps: Deps, file: FileRow, message: string, line: number | null): Promise<void> {
  await deps.db
    .update(registryUploadFiles)
    .set({ status: "refused", message, line, updatedAt: new Date(deps.now) })
    .where(eq(registryUploadFiles.id, file.id));
}

/** The area code's files of the upload, full list first. */
async function filesOf(deps: Deps, message: RegistryApplyMessage): Promise<FileRow[]> {
  const files = await deps.db
    .select()
    .from(registryUploadFiles)
    .where(and(eq(registryUploadFiles.uploadId, message.uploadId), eq(registryUploadFiles.areaCode, message.areaCode)));
  return files.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === "full" ? -1 : 1));
}

/** Applies one area code's files of an upload (see the module comment). */
export async function applyRegistryAreaCode(deps: Deps, message: RegistryApplyMessage): Promise<void> {
  const [upload] = await deps.db.select().from(registryUploads).where(eq(registryUploads.id, message.uploadId));
  if (upload?.status !== "applying") return;
  let fullRefused = false;
  const swapped: { file: FileRow; swap: RegistrySwap }[] = [];
  for (const file of await filesOf(deps, message)) {
    if (file.status === "refused" && file.kind === "full") fullRefused = true;
    if (file.status !== "received") continue;
    if (fullRefused) {
      await refuse(deps, file, REGISTRY_UPLOAD_MESSAGES.fullRefused, null);
      continue;
    }
    const object = await deps.env.DOCUMENTS.get(file.objectKey);
    if (!object) {
      await refuse(deps, file, "The file is no longer in storage: upload it again.", null);
      continue;
    }
    let swap: RegistrySwap;
    try {
      swap =
        file.kind === "full"
          ? await storeRegistryFullList(deps, upload.scope, file.areaCode, object.body)
          : await applyRegistryChangeList(deps, upload.scope, file.areaCode, object.body);
    } catch (error) {
      if (!(error instanceof InvalidError)) throw error;
      const line = error.details?.line;
      await refuse(deps, file, error.message, typeof line === "number" ? line : null);
      if (file.kind === "full") fullRefused = true;
      continue;
    }
    swapped.push({ file, swap });
  }
  if (swapped.length > 0) {
    // Re-checked against the area code's newest version before any file is recorded applied.
    const { next } = await rescrubSlice(deps, firstRescrubMessage(upload.scope, message.areaCode));
    if (next) await deps.env.IMPORT_QUEUE.send(next);
  }
  for (const { file, swap } of swapped) {
    await deps.db
      .update(registryUploadFiles)
      .set({
        status: "applied",
        numbers: swap.numbers,
        added: swap.added,
        removed: swap.removed,
        message: null,
        updatedAt: new Date(deps.now),
      })
      .where(eq(registryUploadFiles.id, file.id));
    // The bits hold it now: the file as sent is not kept.
    await deps.env.DOCUMENTS.delete(file.objectKey);
  }
  await settleRegistryUpload(deps, message.uploadId);
}

/** A message that failed on every delivery: its area code's files still waiting are refused with the reason. */
export async function failRegistryAreaCode(deps: Deps, message: RegistryApplyMessage, reason: string): Promise<void> {
  for (const file of await filesOf(deps, message)) {
    if (file.status === "received") await refuse(deps, file, `Could not be applied: ${reason}`, null);
  }
  await settleRegistryUpload(deps, message.uploadId);
}
