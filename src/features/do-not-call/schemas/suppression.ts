/**
 * Suppression forms (product rule 40): the public /do-not-call request, and the details of a list
 * an admin or a buyer uploads (its file is read by suppression-file.ts).
 */
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from "../../../domain/email";
import { PHONE_MAX_LENGTH } from "../../../domain/phone";
import { blankAsMissing } from "../../../domain/schemas/common";
import { z } from "../../../domain/schemas/zod";
import { REGISTRY_LIST_KINDS } from "../registry-scopes";
import {
  ADMIN_UPLOAD_LIST_KINDS,
  DO_NOT_CALL_LIMITS,
  DO_NOT_CALL_MESSAGES,
  dayStart,
  isPhoneKey,
  phoneKey,
  SUPPRESSION_BATCH_NUMBERS,
  type SuppressionListKind,
  type SuppressionListStatus,
  type SuppressionUploadStatus,
} from "../suppression";
import { REPORTED_REJECTIONS, SUPPRESSION_FILE_KINDS, type SuppressionFileKind } from "../suppression-file";

/**
 * The /do-not-call form, in the browser and on the server: a US phone (any formatting; the output is its 10
 * digits, so the output parses to itself), and optionally an e-mail and a reason.
 */
export const doNotCallSchema = z.object({
  phone: z
    .string({ error: DO_NOT_CALL_MESSAGES.phone })
    .trim()
    .max(PHONE_MAX_LENGTH, DO_NOT_CALL_MESSAGES.phone)
    .refine((text) => phoneKey(text) !== null, DO_NOT_CALL_MESSAGES.phone)
    .transform((text) => String(phoneKey(text))),
  email: z.preprocess(
    blankAsMissing,
    z
      .string({ error: DO_NOT_CALL_MESSAGES.email })
      .trim()
      .max(EMAIL_MAX_LENGTH, DO_NOT_CALL_MESSAGES.email)
      .regex(EMAIL_PATTERN, DO_NOT_CALL_MESSAGES.email)
      .optional(),
  ),
  reason: z.preprocess(
    blankAsMissing,
    z
      .string({ error: DO_NOT_CALL_MESSAGES.reason })
      .trim()
      .max(DO_NOT_CALL_LIMITS.reasonLength, DO_NOT_CALL_MESSAGES.reason)
      .optional(),
  ),
});
export type DoNotCallRequest = z.output<typeof doNotCallSchema>;

export const SUPPRESSION_LIST_MESSAGES = {
  name: "Give the list a name (at most 100 characters)",
  kind: "Choose what kind of list this is",
  contents: "Choose what the file holds: the full list, additions, deletions or a change list",
  refreshedOn: "Refreshed on must be a date (YYYY-MM-DD), not in the future",
} as const;

/** A day lets a list refreshed "today" in Hawaii through while it is already tomorrow in UTC. */
const REFRESHED_ON_SLACK_MS = 86_400_000;

const refreshedOn = z
  .string({ error: SUPPRESSION_LIST_MESSAGES.refreshedOn })
  .trim()
  .refine((day) => {
    const start = dayStart(day);
    return start !== null && start <= Date.now() + REFRESHED_ON_SLACK_MS;
  }, SUPPRESSION_LIST_MESSAGES.refreshedOn);

/** A buyer's private list: its name, what the file holds, and when the buyer last refreshed it. */
export const buyerSuppressionListSchema = z.object({
  name: z
    .string({ error: SUPPRESSION_LIST_MESSAGES.name })
    .trim()
    .min(1, SUPPRESSION_LIST_MESSAGES.name)
    .max(100, SUPPRESSION_LIST_MESSAGES.name),
  contents: z.enum(SUPPRESSION_FILE_KINDS, { error: SUPPRESSION_LIST_MESSAGES.contents }),
  refreshedOn,
});

/**
 * An admin's upload: the same, and which kind of shared list it is. A national or state list passes here
 * and is refused by the upload with REGISTRY_UPLOAD_MESSAGE (registry copies: docs/decisions/0084).
 */
export const suppressionListSchema = buyerSuppressionListSchema.extend({
  kind: z.enum([...ADMIN_UPLOAD_LIST_KINDS, ...REGISTRY_LIST_KINDS], { error: SUPPRESSION_LIST_MESSAGES.kind }),
});

// ——— Uploads: the browser reads the file (suppression-file.ts) and sends its numbers in batches ———

const count = z.number().int().min(0);

/** What the browser's reading of the file found: kept with the upload and shown in its report. */
const suppressionFileReportSchema = z.object({
  lines: count,
  header: z.boolean(),
  blank: count,
  accepted: count,
  added: count,
  removed: count,
  duplicates: count,
  rejected: count,
  rejections: z
    .array(z.object({ line: z.number().int().min(1), reason: z.string().max(200) }))
    .max(REPORTED_REJECTIONS),
});
export type SuppressionFileReportInput = z.output<typeof suppressionFileReportSchema>;

const uploadFile = {
  fileName: z.string().trim().min(1, "The file needs a name").max(200, "The file name is too long"),
  report: suppressionFileReportSchema,
};

/** An admin's upload to a new shared list (kind and name) or to one that exists (its id). */
export const adminSuppressionUploadSchema = z.union([
  suppressionListSchema.extend(uploadFile),
  buyerSuppressionListSchema.omit({ name: true }).extend({ listId: z.number().int().positive(), ...uploadFile }),
]);
export type AdminSuppressionUpload = z.output<typeof adminSuppressionUploadSchema>;

/** A buyer's upload to their own private list (made on the first upload, renamed by a later one). */
export const buyerSuppressionUploadSchema = buyerSuppressionListSchema.extend(uploadFile);
export type BuyerSuppressionUpload = z.output<typeof buyerSuppressionUploadSchema>;

export const SUPPRESSION_BATCH_MESSAGES = {
  number: "Every number must be a 10-digit US phone number as digits",
  size: `A batch holds 1 to ${SUPPRESSION_BATCH_NUMBERS.toLocaleString("en-US")} numbers`,
} as const;

const numbers = z
  .array(z.number({ error: SUPPRESSION_BATCH_MESSAGES.number }).refine(isPhoneKey, SUPPRESSION_BATCH_MESSAGES.number), {
    error: SUPPRESSION_BATCH_MESSAGES.number,
  })
  .max(SUPPRESSION_BATCH_NUMBERS, SUPPRESSION_BATCH_MESSAGES.size);

/** One batch of numbers to add and to remove (batch n is the file's n-th piece: a resent batch is recognized). */
export const suppressionBatchSchema = z
  .object({ batchNumber: z.number().int().min(1).max(100_000), add: numbers, remove: numbers })
  .refine(
    (batch) =>
      batch.add.length + batch.remove.length > 0 && batch.add.length + batch.remove.length <= SUPPRESSION_BATCH_NUMBERS,
    SUPPRESSION_BATCH_MESSAGES.size,
  );
export type SuppressionBatch = z.output<typeof suppressionBatchSchema>;

/** The browser read the whole file and sent this many batches. */
export const suppressionFinishSchema = z.object({ batches: z.number().int().min(0).max(100_000) });

/** An upload as the admin area and My Account show it (progress while it runs, the report once done). */
export interface SuppressionUploadView {
  id: number;
  listId: number;
  fileName: string;
  contents: SuppressionFileKind;
  refreshedOn: string;
  status: SuppressionUploadStatus;
  batchesExpected: number | null;
  batchesReceived: number;
  batchesDone: number;
  numbersReceived: number;
  numbersAdded: number;
  numbersUnchanged: number;
  numbersRemoved: number;
  fileReport: SuppressionFileReportInput | null;
  error: string | null;
  createdAt: number;
  finishedAt: number | null;
}

/** A list with its freshness (31-day rule) and its latest upload. */
export interface SuppressionListView {
  id: number;
  kind: SuppressionListKind;
  name: string;
  refreshedOn: string | null;
  numbers: number;
  status: SuppressionListStatus;
  /** Older than 31 days (or of unknown age) for a kind the rule applies to. */
  stale: boolean;
  /** The last day the list is fresh, for "refresh by …". */
  freshUntil: string | null;
  lastUpload: SuppressionUploadView | null;
}
