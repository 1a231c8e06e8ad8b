/** Messages between the upload screen and the CSV parsing worker. */
import type { BulkLeadRow, FieldMapping } from "../../../domain/csv-mapping";

/** Rows kept for the review dialog; larger files are counted in full but previewed up to this. */
export const PREVIEW_ROWS = 1000;

export type ToWorker =
  | { type: "inspect"; file: File }
  | { type: "stream"; file: File; mapping: FieldMapping; batchSize: number }
  | { type: "next" };

export type FromWorker =
  | { type: "inspected"; headers: string[]; preview: string[][]; totalRows: number }
  | { type: "batch"; batchNumber: number; leads: BulkLeadRow[]; bytesRead: number }
  | { type: "done"; totalRows: number; batches: number }
  | { type: "error"; message: string };
