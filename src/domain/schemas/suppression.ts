/**
 * Suppression forms (docs/product-rules.md D22): the public /do-not-call request, and the details of a list
 * an admin or a buyer uploads (its file is read by suppression-file.ts).
 */
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from "../email";
import { PHONE_MAX_LENGTH } from "../leads";
import { ADMIN_UPLOAD_LIST_KINDS, DO_NOT_CALL_LIMITS, DO_NOT_CALL_MESSAGES, dayStart, phoneKey } from "../suppression";
import { SUPPRESSION_FILE_KINDS } from "../suppression-file";
import { blankAsMissing } from "./common";
import { z } from "./zod";

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
export type DoNotCallInput = z.input<typeof doNotCallSchema>;
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
export type BuyerSuppressionList = z.output<typeof buyerSuppressionListSchema>;

/** An admin's upload: the same, and which kind of shared list it is (national, state or litigator). */
export const suppressionListSchema = buyerSuppressionListSchema.extend({
  kind: z.enum(ADMIN_UPLOAD_LIST_KINDS, { error: SUPPRESSION_LIST_MESSAGES.kind }),
});
export type SuppressionListInput = z.input<typeof suppressionListSchema>;
export type SuppressionList = z.output<typeof suppressionListSchema>;
