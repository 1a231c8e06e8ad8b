/**
 * A buyer's private Do Not Call list (product rule 40): what it may cost and what its owner is told, apart
 * from src/features/do-not-call/suppression.ts so that the views that only flag a number do not carry the upload rules.
 */
import { SUPPRESSION_BATCH_NUMBERS } from "./suppression.ts";

/**
 * Told to a buyer once an order is paid (never before: product rule 40, docs/decisions/0049): its leads
 * on the buyer's own private list were left out of the sale and not charged.
 */
export const notChargedMessage = (count: number) =>
  `${count} ${count === 1 ? "lead was" : "leads were"} on your Do Not Call list and ${count === 1 ? "was" : "were"} not charged.`;

/**
 * What one buyer's private list may cost (docs/decisions/0051): at most a million numbers (about 21 MB of
 * D1), ten uploads a day, and 120 batches a minute, so a full million-number list (100 batches) still
 * uploads within a minute of batches. A real buyer's list (a few thousand numbers, refreshed monthly)
 * never comes near any of them.
 */
export const PRIVATE_LIST_LIMITS = { numbers: 1_000_000, uploadsPerDay: 10, batchesPerMinute: 120 } as const;

/** An upload whose browser never said the file ended is given up this long after it started (the cron). */
export const SUPPRESSION_UPLOAD_EXPIRY_MS = 24 * 60 * 60_000;

/** The batches a file of `numbers` numbers (to add and to remove) is sent in: its batch numbers run 1 … this. */
export const batchesForNumbers = (numbers: number) => Math.ceil(numbers / SUPPRESSION_BATCH_NUMBERS);

export const SUPPRESSION_UPLOAD_REFUSALS = {
  privateListFull: `A private Do Not Call list holds at most ${PRIVATE_LIST_LIMITS.numbers.toLocaleString("en-US")} numbers. Split the file, or upload a full list that replaces the old one.`,
  uploadsPerDay: `At most ${PRIVATE_LIST_LIMITS.uploadsPerDay} uploads a day to your list: try again tomorrow.`,
  batchesPerMinute: "Too many batches at once: wait a minute and send the rest.",
  batchOutOfRange: "This batch number is beyond the numbers the upload said its file holds.",
  numbersBeyondFile: "This batch brings more numbers than the upload said its file holds.",
  expired: "This upload was not finished within a day and was given up: start it again.",
  finishedOrGivenUp: "This upload was given up or failed: start it again.",
} as const;
