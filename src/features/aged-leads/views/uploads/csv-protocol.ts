/** Messages between the upload screen and the CSV parsing worker. */
import type { BulkLeadRow, FieldMapping } from "../../csv-mapping";

/** Rows per page of the review dialog; the worker pages back into the file, so any size can be reviewed. */
export const REVIEW_PAGE_ROWS = 50;
/** Batches the worker may parse ahead of the uploads (each one is acknowledged with "next"). */
export const PARSE_AHEAD_BATCHES = 3;

/** A row of the file as the review dialog shows it; `rowNumber` is its line (the header is line 1). */
export interface ReviewRow {
  rowNumber: number;
  cells: string[];
}

export type ToWorker =
  | { type: "inspect"; file: File }
  | { type: "page"; page: number }
  | { type: "check"; mapping: FieldMapping }
  | { type: "stream"; mapping: FieldMapping; batchSize: number }
  | { type: "next" };

export type FromWorker =
  | { type: "inspected"; headers: string[]; totalRows: number; firstPage: ReviewRow[] }
  | { type: "page"; page: number; rows: ReviewRow[] }
  | { type: "checked"; firstValidRow: number | null }
  | { type: "batch"; batchNumber: number; leads: BulkLeadRow[] }
  | { type: "done"; totalRows: number; batches: number }
  | { type: "error"; message: string };
