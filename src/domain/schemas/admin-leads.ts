/** Admin lead uploads (spec §3, §5, §7): the single aged lead, callback opportunities and CSV batches. */

import { BULK_BATCH_SIZE, LEAD_FIELDS, NOT_IN_FILE, parsePrice } from "../csv-mapping";

export { STATUS_REJECTIONS } from "../csv-mapping";

import { AGE_RANGES } from "../pricing";
import { emailAddress, numberFromInput, requiredString } from "./common";
import { z } from "./zod";

const optionalEmail = z
  .string()
  .trim()
  .max(254)
  .refine((value) => value === "" || z.email().safeParse(value).success, "Valid email required")
  .optional();

export const adminAgedLeadSchema = z.object({
  name: requiredString("Name is required", 1, 200),
  email: optionalEmail,
  phone: requiredString("Phone number required", 10, 30),
  state: requiredString("State is required", 2, 50),
  ageRange: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.enum(AGE_RANGES, { error: "Please choose 30-60, 60-90 or 90-180" }).optional(),
  ),
  price: z.preprocess(
    numberFromInput,
    z
      .number({ error: "Price must be a positive amount" })
      .nonnegative("Price must be a positive amount")
      .max(100_000)
      .optional(),
  ),
  formFillTime: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.iso.datetime({ offset: true, error: "Form fill time must be a date and time" }).optional(),
  ),
  actualAge: z.number().int().nonnegative().optional(),
});
export type AdminAgedLeadInput = z.input<typeof adminAgedLeadSchema>;
export type AdminAgedLead = z.output<typeof adminAgedLeadSchema>;

export const callbackOpportunitySchema = z.object({
  name: requiredString("Name is required", 1, 200),
  email: emailAddress("Valid email required"),
  phone: requiredString("Phone number required", 10, 30),
  state: requiredString("State is required", 2, 50),
  price: z.preprocess(
    (value) =>
      value === "" || value === null || (typeof value === "number" && Number.isNaN(value))
        ? undefined
        : typeof value === "string"
          ? Number(value)
          : value,
    z.number({ error: "Price is required" }).positive("Price is required").max(100_000, "Price is required"),
  ),
});
export type CallbackOpportunityInput = z.input<typeof callbackOpportunitySchema>;
export type CallbackOpportunity = z.output<typeof callbackOpportunitySchema>;

const text = z
  .union([z.string().max(500), z.number(), z.null()])
  .optional()
  .transform((value) => (value === null || value === undefined ? "" : String(value).trim()));

/**
 * A lead of a batch. The screen sends the row number and a parsed price; a caller that sends the
 * spec's bare lead objects (no row number, price as text, actualAge) is accepted too.
 */
const bulkLead = z.object({
  rowNumber: z.number().int().min(2).optional(),
  name: text,
  email: text,
  phone: text,
  state: text,
  ageRange: text,
  price: z
    .union([z.number(), z.string().max(50), z.null()])
    .optional()
    .transform((value) =>
      typeof value === "number" ? (Number.isFinite(value) && value > 0 ? value : 0) : parsePrice(value ?? ""),
    ),
  formFillTime: text,
  actualAge: z.number().optional(),
});

/** One batch of a CSV file (D8). The first batch of a file has no importId; the answer gives it. */
export const bulkUploadSchema = z.object({
  importId: z.string().max(100).optional(),
  /** Defaults to the import's next batch. */
  batchNumber: z.number({ error: "Batch number must be a whole number" }).int().min(1).max(100_000).optional(),
  fileName: z.string().max(200).optional(),
  leads: z
    .array(bulkLead, { error: "No Valid Data" })
    .min(1, "No Valid Data")
    .max(BULK_BATCH_SIZE, `Send at most ${BULK_BATCH_SIZE} leads per batch`),
  fieldMapping: z.partialRecord(z.enum(LEAD_FIELDS), z.number().int().min(NOT_IN_FILE)).optional(),
});
export type BulkUpload = z.infer<typeof bulkUploadSchema>;

/** An import's progress and final report (`GET /api/imports/:id`). */
export interface ImportStatus {
  id: string;
  fileName: string | null;
  rowsReceived: number;
  rowsInserted: number;
  rowsDuplicate: number;
  rowsRejected: number;
  batchesReceived: number;
  batchesDone: number;
  batchesFailed: number;
  /** Every received row is inserted, a duplicate, or rejected. */
  done: boolean;
  /** The first `STATUS_REJECTIONS` rejected rows; `rowsRejected` counts them all. */
  rejections: { rowNumber: number; reason: string }[];
}
