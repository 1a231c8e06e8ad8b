/**
 * The admin's call-back or appointment, typed into the callbacks tab or read from a CSV row
 * (schemas/callback-import.ts), and the admin's placing of a waiting one: the call-backs' own schemas, with
 * the aged lead's messages for the fields they share.
 */

import { hasPhoneDigits, normalizeUsPhone } from "../../../domain/phone";
import { blankAsMissing, emailAddress, requiredString } from "../../../domain/schemas/common";
import { z } from "../../../domain/schemas/zod";
import { defaultTimeZone, US_TIME_ZONES } from "../../../domain/time-zones";
import { US_STATE_CODES } from "../../../domain/us-states";
import { LEAD_LIMITS, LEAD_MESSAGES } from "../../aged-leads/index";
import { consentEvidenceShape } from "../../consent/index";
import { dollarsToCents } from "../../orders/index";
import { CALLBACK_KINDS, windowOf, windowProblem } from "../callbacks";

/** What each call-back field of the admin's callbacks tab must be (docs/decisions/0059): the message names the field. */
const CALLBACK_FORM_MESSAGES = {
  state: "State must be a two-letter US state code",
  kind: `Kind must be one of ${CALLBACK_KINDS.join(", ")}`,
  date: "Date is required (YYYY-MM-DD)",
  from: "From is required (a time HH:MM)",
  to: "To must be a time after From",
  toNeeded: "To is required for a call-back (an appointment takes From only)",
  timeZone: `Time zone must be one of ${US_TIME_ZONES.join(", ")}`,
} as const;

const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * The admin's call-back or appointment (product rule 45, docs/decisions/0058, 0059): the original
 * opportunity fields (name, email, phone, state, price in dollars) with their messages, the kind, the
 * window in the prospect's local time (date, from, and to for a call-back), the prospect's zone (the
 * state's main zone when blank) and the consent evidence of the single aged-lead form (optional, checked
 * alike). A window that has passed, runs backwards, is too long or too far ahead is refused here, read
 * against the clock at each parse; the service checks it again against its own clock.
 */
export const callbackOpportunitySchema = z
  .object({
    name: requiredString("Name is required", 1, 200),
    email: emailAddress("Valid email required"),
    phone: z
      .string({ error: LEAD_MESSAGES.phone })
      .trim()
      .min(10, LEAD_MESSAGES.phone)
      .max(30, LEAD_MESSAGES.phone)
      // Stored as its ten digits, as a partner's (the lists and the 30-day rule compare them).
      .transform((phone, context) => {
        const national = normalizeUsPhone(phone);
        if (national) return national;
        context.addIssue({
          code: "custom",
          message: hasPhoneDigits(phone) ? LEAD_MESSAGES.phoneUs : LEAD_MESSAGES.phone,
        });
        return z.NEVER;
      }),
    state: requiredString("State is required", 2, 50)
      .transform((state) => state.toUpperCase())
      .pipe(z.enum(US_STATE_CODES, { error: CALLBACK_FORM_MESSAGES.state })),
    price: z.preprocess(
      (value) =>
        value === "" || value === null || (typeof value === "number" && Number.isNaN(value))
          ? undefined
          : typeof value === "string"
            ? Number(value)
            : value,
      z
        .number({ error: "Price is required" })
        .positive("Price is required")
        .max(LEAD_LIMITS.priceCents / 100, LEAD_MESSAGES.priceMax)
        .refine((dollars) => dollarsToCents(dollars) !== null, LEAD_MESSAGES.priceCents),
    ),
    kind: z.preprocess(
      blankAsMissing,
      z.enum(CALLBACK_KINDS, { error: CALLBACK_FORM_MESSAGES.kind }).default("callback"),
    ),
    date: z.iso.date({ error: CALLBACK_FORM_MESSAGES.date }),
    from: z.string({ error: CALLBACK_FORM_MESSAGES.from }).regex(CLOCK, CALLBACK_FORM_MESSAGES.from),
    to: z.preprocess(
      blankAsMissing,
      z.string({ error: CALLBACK_FORM_MESSAGES.to }).regex(CLOCK, CALLBACK_FORM_MESSAGES.to).optional(),
    ),
    timeZone: z.preprocess(
      blankAsMissing,
      z.enum(US_TIME_ZONES, { error: CALLBACK_FORM_MESSAGES.timeZone }).optional(),
    ),
    ...consentEvidenceShape,
  })
  .superRefine((value, context) => {
    if (value.kind === "callback" && value.to === undefined) {
      context.addIssue({ code: "custom", path: ["to"], message: CALLBACK_FORM_MESSAGES.toNeeded });
      return;
    }
    const window = windowOf(value.kind, value, value.timeZone ?? defaultTimeZone(value.state));
    if (!window) {
      context.addIssue({ code: "custom", path: ["to"], message: CALLBACK_FORM_MESSAGES.to });
      return;
    }
    const problem = windowProblem(window, Date.now());
    if (problem) context.addIssue({ code: "custom", path: ["date"], message: `Date, From and To: ${problem}` });
  });
export type CallbackOpportunity = z.output<typeof callbackOpportunitySchema>;

/** An admin places a waiting call-back in an open call-back order of their choice (docs/decisions/0063). */
export const assignCallbackSchema = z.object({
  orderId: z.string({ error: "orderId is required" }).trim().min(1, "orderId is required").max(100),
});
