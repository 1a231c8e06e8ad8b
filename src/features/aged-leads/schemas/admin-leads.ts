/** Admin lead uploads (product rules 15, 48): the single aged lead and CSV batches (a call-back's own: features/callbacks/schemas). */

import { IMPORT_KINDS, type ImportKind } from "../../../domain/import-batches";
import { BULK_BATCH_SIZE, IMPORT_FIELDS, NOT_IN_FILE, parseFormFillTime, parsePrice } from "../csv-mapping";

export { STATUS_REJECTIONS } from "../csv-mapping";

import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from "../../../domain/email";
import { formatUsd } from "../../../domain/format";
import { hasPhoneDigits, isForeignPhone } from "../../../domain/phone";
import { requiredString } from "../../../domain/schemas/common";
import { z } from "../../../domain/schemas/zod";
import { consentEvidenceShape } from "../../consent/index";
import { AGE_RANGES, dollarsToCents } from "../../orders/index";
import { LEAD_LIMITS } from "../leads";

/** What each field of a lead must be: the form shows the message under the field, the import report beside the row. */
export const LEAD_MESSAGES = {
  name: "Name is required",
  nameLength: `Name must be at most ${LEAD_LIMITS.nameLength} characters`,
  email: "Valid email required",
  phone: "Phone number required",
  phoneUs: "Phone number must be a 10-digit US number (area code 2-9): it is checked against Do Not Call lists",
  phoneLength: `Phone number must be at most ${LEAD_LIMITS.phoneLength} characters`,
  state: "State is required",
  stateLength: `State must be at most ${LEAD_LIMITS.stateLength} characters`,
  ageRange: `Age range must be ${AGE_RANGES.slice(0, -1).join(", ")} or ${AGE_RANGES.at(-1)}`,
  price: "Price must be a positive amount",
  priceMax: `Price must be at most ${formatUsd(LEAD_LIMITS.priceCents)}`,
  priceCents: "Price must be in whole cents",
  formFillTime: "Form fill time is not a date (use YYYY-MM-DD HH:MM:SS)",
} as const;

const blankToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);
/** A phone sent as a JSON number (the spec's bare lead objects) is read as its digits. */
const numberAsText = (value: unknown) => (typeof value === "number" ? String(value) : value);

/**
 * One aged lead, whether typed into the admin's single form or read from a CSV row (product rules 5,
 * 15, 49): the same rules and messages both ways. Blank optional fields are absent; a price
 * is read as the file gives it ('$4.50'; one that does not parse is 0, priced by age); a form fill time
 * is 'YYYY-MM-DD HH:MM:SS' (UTC), any ISO date, or epoch milliseconds, and comes out as epoch
 * milliseconds, so the schema's output parses to itself (the form sends it on to the API). The consent
 * evidence (schemas/consent.ts) is part of it, so the form and the file check it with the same messages.
 */
export const adminAgedLeadSchema = z.object({
  name: requiredString(LEAD_MESSAGES.name, 1, LEAD_LIMITS.nameLength, LEAD_MESSAGES.nameLength),
  email: z.preprocess(
    blankToUndefined,
    z
      .string({ error: LEAD_MESSAGES.email })
      .trim()
      .max(EMAIL_MAX_LENGTH, LEAD_MESSAGES.email)
      .regex(EMAIL_PATTERN, LEAD_MESSAGES.email)
      .optional(),
  ),
  phone: z.preprocess(
    numberAsText,
    z
      .string({ error: LEAD_MESSAGES.phone })
      .trim()
      .max(LEAD_LIMITS.phoneLength, LEAD_MESSAGES.phoneLength)
      .refine(hasPhoneDigits, LEAD_MESSAGES.phone)
      .refine((phone) => !isForeignPhone(phone), LEAD_MESSAGES.phoneUs),
  ),
  state: requiredString(
    LEAD_MESSAGES.state,
    LEAD_LIMITS.stateMinLength,
    LEAD_LIMITS.stateLength,
    LEAD_MESSAGES.stateLength,
  ),
  ageRange: z.preprocess(blankToUndefined, z.enum(AGE_RANGES, { error: LEAD_MESSAGES.ageRange }).optional()),
  price: z.preprocess(
    (value) =>
      typeof value === "string"
        ? value.trim() === ""
          ? undefined
          : parsePrice(value)
        : value === null || Number.isNaN(value)
          ? undefined
          : value,
    z
      .number({ error: LEAD_MESSAGES.price })
      .nonnegative(LEAD_MESSAGES.price)
      .max(LEAD_LIMITS.priceCents / 100, LEAD_MESSAGES.priceMax)
      // Whole cents: 4.505 dollars is a typo, not a price.
      .refine((dollars) => dollarsToCents(dollars) !== null, LEAD_MESSAGES.priceCents)
      .optional(),
  ),
  formFillTime: z.preprocess(
    (value) =>
      typeof value === "string"
        ? value === ""
          ? undefined
          : (parseFormFillTime(value.trim()) ?? value)
        : (value ?? undefined),
    z.number({ error: LEAD_MESSAGES.formFillTime }).int(LEAD_MESSAGES.formFillTime).optional(),
  ),
  /** Days, computed by the form (product rule 48); the server computes the age itself. */
  actualAge: z.number().int().nonnegative().optional(),
  /** Opt-in time and page, consent text, IP, TrustedForm URL, Jornaya LeadiD: optional, checked alike (product rule 39). */
  ...consentEvidenceShape,
});
export type AdminAgedLeadInput = z.input<typeof adminAgedLeadSchema>;
export type AdminAgedLead = z.output<typeof adminAgedLeadSchema>;

/** A CSV row checked by the lead schema: the lead, or the first reason it is refused (for the import report). */
export function checkLeadRow(row: unknown): { lead: AdminAgedLead } | { reason: string } {
  const result = adminAgedLeadSchema.safeParse(row);
  return result.success ? { lead: result.data } : { reason: result.error.issues[0]?.message ?? "Invalid lead" };
}

/**
 * A lead of a batch, as sent: the screen adds its row number; a caller that sends the spec's bare lead
 * objects (no row number, price as text, actualAge) is accepted too. Each lead is checked on its own by
 * `checkLeadRow`, so that one bad row is reported, not the whole batch refused.
 */
const bulkLead = z.looseObject({ rowNumber: z.number().int().min(2).optional() });

/** One batch of a CSV file (product rule 15). The first batch of a file has no importId; the answer gives it. */
export const bulkUploadSchema = z.object({
  importId: z.string().max(100).optional(),
  /** Defaults to the import's next batch. */
  batchNumber: z.number({ error: "Batch number must be a whole number" }).int().min(1).max(100_000).optional(),
  fileName: z.string().max(200).optional(),
  /**
   * Read with the first batch (it creates the import): the upload's leads without a consent certificate are
   * stored but never listed nor sold (decision 0041). Absent = they may be sold.
   */
  certificateRequired: z.boolean({ error: "certificateRequired must be true or false" }).optional(),
  /**
   * What the file holds (decision 0069), sent with every batch: aged leads (absent), or call-backs and
   * appointments (`callbacks`, at most CALLBACK_IMPORT_BATCH_SIZE rows a batch).
   */
  kind: z.enum(IMPORT_KINDS, { error: `kind must be one of ${IMPORT_KINDS.join(", ")}` }).optional(),
  leads: z
    .array(bulkLead, { error: "No Valid Data" })
    .min(1, "No Valid Data")
    .max(BULK_BATCH_SIZE, `Send at most ${BULK_BATCH_SIZE} leads per batch`),
  fieldMapping: z.partialRecord(z.enum(IMPORT_FIELDS), z.number().int().min(NOT_IN_FILE)).optional(),
});
export type BulkUpload = z.infer<typeof bulkUploadSchema>;

/** An import's progress and final report (`GET /api/imports/:id`). */
export interface ImportStatus {
  id: string;
  /** Aged leads, or call-backs and appointments (decision 0069). */
  kind: ImportKind;
  /** Of a call-back import's inserted rows, those placed in a paid order (the rest wait for one). */
  rowsPlaced: number;
  fileName: string | null;
  rowsReceived: number;
  rowsInserted: number;
  rowsDuplicate: number;
  rowsRejected: number;
  /** Of the inserted rows, those whose number is on a Do Not Call list: stored, not for sale until it leaves. */
  rowsSuppressed: number;
  batchesReceived: number;
  batchesDone: number;
  batchesFailed: number;
  /** Inserted leads with a consent certificate (a TrustedForm URL or a Jornaya LeadiD), and without. */
  rowsCertified: number;
  rowsUncertified: number;
  /** Set at upload: leads without a certificate are stored, never listed nor sold. */
  certificateRequired: boolean;
  /** Every received row is inserted, a duplicate, or rejected. */
  done: boolean;
  /** Batches queued longer than STALLED_BATCH_MINUTES: the sweep sends them again ("stalled, resuming"). */
  stalledBatches: number;
  /** The first `STATUS_REJECTIONS` rejected rows; `rowsRejected` counts them all. */
  rejections: { rowNumber: number; reason: string }[];
}
