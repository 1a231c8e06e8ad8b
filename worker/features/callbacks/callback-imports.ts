/**
 * Call-backs and appointments by CSV (docs/decisions/0069), through the import pipeline of imports.ts:
 * the same R2 batches, Queue, progress and report; only the rows' check and the consumer's insert differ.
 * Each row is taken in by `takeCallback` (window, zone, phone, Do Not Call lists, then placed in a fitting
 * paid order, or left waiting), under an id derived from its import and row number: a row is one insert,
 * so it is taken or not, never half; a batch delivered again skips the rows it already took or refused.
 */
import { and, eq, inArray } from "drizzle-orm";
import {
  CALLBACK_IMPORT_BATCH_SIZE,
  type CallbackImportRow,
  checkCallbackRow,
} from "../../../src/features/callbacks/schemas/callback-import";
import { dollarsToCents } from "../../../src/features/orders/index";
import { callbackOpportunities as callbacks, importRejections } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError, InvalidError } from "../../errors";
import type { ImportRowsKind } from "../aged-leads/index";
import { takeCallback } from "./callbacks";

/** D1 queries one row can cost at most: the scrub and insert, then up to five placement attempts and the e-mail. */
const MAX_QUERIES_PER_ROW = 35;
/** A call-back batch's message: the row lookups and the closing batch of three, plus its rows. */
export const MAX_QUERIES_PER_CALLBACK_MESSAGE = 6 + CALLBACK_IMPORT_BATCH_SIZE * MAX_QUERIES_PER_ROW;

/** Checks a batch's rows as received: the rows to queue, and the refused ones with their reason. */
function checkCallbackRows(rows: readonly { rowNumber?: number | undefined }[], firstRow: number) {
  const valid: CallbackImportRow[] = [];
  const rejected: { rowNumber: number; reason: string }[] = [];
  for (const [index, row] of rows.entries()) {
    const rowNumber = row.rowNumber ?? firstRow + index;
    const checked = checkCallbackRow(row);
    if ("callback" in checked) valid.push({ ...checked.callback, rowNumber });
    else rejected.push({ rowNumber, reason: checked.reason });
  }
  return { valid, rejected };
}

/** The id a row's call-back is stored under: a UUID-shaped digest of its import and row number. */
async function rowCallbackId(importId: string, rowNumber: number): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`callback-import/${importId}/${rowNumber}`)),
  );
  const hex = [...digest.slice(0, 16)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The rows of a batch already taken in or refused (by an earlier delivery of it). */
async function settledRows(deps: Deps, importId: string, rows: readonly { rowNumber: number }[], ids: string[]) {
  const { db } = deps;
  const [taken, refused] = await db.batch([
    db.select({ id: callbacks.id }).from(callbacks).where(inArray(callbacks.id, ids)),
    db
      .select({ rowNumber: importRejections.rowNumber })
      .from(importRejections)
      .where(
        and(
          eq(importRejections.importId, importId),
          inArray(
            importRejections.rowNumber,
            rows.map((row) => row.rowNumber),
          ),
        ),
      ),
  ]);
  return { taken: new Set(taken.map((row) => row.id)), refused: new Set(refused.map((row) => row.rowNumber)) };
}

/**
 * Takes in a queued batch's call-backs one by one. Answers the rows refused now (the caller records them
 * with the batch's counts); an unexpected failure is thrown, and the Queue's next delivery carries on.
 */
async function takeCallbackRows(
  deps: Deps,
  batch: { importId: string; batchNumber: number; createdBy: string | null },
  rows: readonly CallbackImportRow[],
): Promise<{ rowNumber: number; reason: string }[]> {
  const ids = await Promise.all(rows.map((row) => rowCallbackId(batch.importId, row.rowNumber)));
  const { taken, refused } = await settledRows(deps, batch.importId, rows, ids);
  const rejected: { rowNumber: number; reason: string }[] = [];
  for (const [index, row] of rows.entries()) {
    const id = ids[index] as string;
    if (taken.has(id) || refused.has(row.rowNumber)) continue;
    const { rowNumber, name, email, phone, state, zip, price, kind, date, from, to, timeZone, ...consent } = row;
    try {
      await takeCallback(
        deps,
        {
          kind,
          prospect: { firstName: name, lastName: "", email, phone, state, zip, timeZone },
          window: { date, from, to },
          consent,
        },
        {
          source: "import",
          createdBy: batch.createdBy,
          priceCents: dollarsToCents(price) ?? 0,
          id,
          importId: batch.importId,
          importBatch: batch.batchNumber,
        },
      );
    } catch (error) {
      // A refusal of the call-back service (its window, the Do Not Call lists) is the row's reason.
      if (!(error instanceof InvalidError || error instanceof ConflictError)) throw error;
      rejected.push({ rowNumber, reason: error.message });
    }
  }
  return rejected;
}

/** Of a failed batch's rows, those not taken in: reported rejected with the failure. */
async function untakenRows<Row extends { rowNumber: number }>(deps: Deps, importId: string, rows: readonly Row[]) {
  const ids = await Promise.all(rows.map((row) => rowCallbackId(importId, row.rowNumber)));
  const { taken } = await settledRows(deps, importId, rows, ids);
  return rows.filter((_, index) => !taken.has(ids[index] as string));
}

/** How a call-back file is imported, registered with the import pipeline (worker/import-kinds.ts). */
export const callbackImports: ImportRowsKind = {
  batchSize: CALLBACK_IMPORT_BATCH_SIZE,
  checkRows: checkCallbackRows,
  takeRows: (deps, batch, rows) => takeCallbackRows(deps, batch, rows as CallbackImportRow[]),
  untakenRows,
};
