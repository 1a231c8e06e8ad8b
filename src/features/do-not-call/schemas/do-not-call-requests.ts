/** The admin's search of the /do-not-call requests and the removal of a number (docs/decisions/0055). */

import { PHONE_MAX_LENGTH } from "../../../domain/phone";
import { blankAsMissing, pageQuerySchema } from "../../../domain/schemas/common";
import { z } from "../../../domain/schemas/zod";
import { DO_NOT_CALL_REMOVAL_MESSAGES as MESSAGES, REMOVAL_REASON_MAX_LENGTH } from "../do-not-call-requests";
import { phoneKey } from "../suppression";

/** A US phone in any formatting, as its 10 digits. */
const phone = z
  .string({ error: MESSAGES.phone })
  .trim()
  .max(PHONE_MAX_LENGTH, MESSAGES.phone)
  .refine((text) => phoneKey(text) !== null, MESSAGES.phone)
  .transform((text) => String(phoneKey(text)));

/** `?page=` and, to search, `?phone=` (blank lists every request). */
export const doNotCallRequestsQuerySchema = pageQuerySchema.extend({
  phone: z.preprocess(blankAsMissing, phone.optional()),
});

export const doNotCallRemovalSchema = z.object({
  phone,
  reason: z
    .string({ error: MESSAGES.reason })
    .trim()
    .min(1, MESSAGES.reason)
    .max(REMOVAL_REASON_MAX_LENGTH, MESSAGES.reasonLength),
});
export type DoNotCallRemoval = z.output<typeof doNotCallRemovalSchema>;
