/**
 * The batches of a file upload (product rules 15, 40), shared by the lead and call-back imports and the Do
 * Not Call list uploads: their statuses, what an import holds, and when a queued batch counts as stalled.
 */
/** A batch of an import: queued for the consumer, then done, or failed after its last retry. */
export const IMPORT_BATCH_STATUSES = ["queued", "done", "failed"] as const;
/** What an import's file holds (decision 0069): aged leads, or call-backs and appointments. */
export const IMPORT_KINDS = ["leads", "callbacks"] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];
/**
 * A batch still queued this long after it was handed to the Queue has lost its message (a crash): the
 * sweep (worker/scheduled.ts, every 5 minutes, and the local server's start) sends it again.
 */
export const STALLED_BATCH_MINUTES = 3;
