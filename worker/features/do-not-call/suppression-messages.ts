/**
 * The Queue messages of a suppression list upload (docs/decisions/0042): one per batch of numbers, then one
 * that finishes the upload. Their own file, so both Queue halves (suppression-apply.ts for the shared lists,
 * suppression-private.ts for a buyer's own) and the senders name them without importing each other.
 */
export interface SuppressionBatchMessage {
  kind: "suppression-batch";
  uploadId: number;
  batchNumber: number;
}
export interface SuppressionFinishMessage {
  kind: "suppression-finish";
  uploadId: number;
}
export type SuppressionMessage = SuppressionBatchMessage | SuppressionFinishMessage;
