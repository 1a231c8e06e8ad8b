/** Messages between a suppression list upload and the Web Worker that reads its file (suppression-parse.worker.ts). */
import type { SuppressionFileKind, SuppressionFileReport } from "../suppression-file";

/** Batches the worker may read ahead of the uploads (each is acknowledged with "next"). */
export const PARSE_AHEAD_BATCHES = 3;
/** Bytes read per slice: the file is never in memory whole. */
export const SLICE_BYTES = 1024 * 1024;

export type ToWorker =
  | { type: "check"; file: File; kind: SuppressionFileKind }
  | { type: "stream"; batchSize: number }
  | { type: "next" };

export type FromWorker =
  | { type: "progress"; bytes: number }
  | { type: "checked"; report: SuppressionFileReport }
  | { type: "refused"; message: string; report: SuppressionFileReport }
  | { type: "batch"; batchNumber: number; add: number[]; remove: number[]; bytes: number }
  | { type: "done"; batches: number }
  | { type: "error"; message: string };
