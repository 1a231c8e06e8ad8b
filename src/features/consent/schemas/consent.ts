/**
 * Consent evidence of a lead (product rule 39): six optional fields, the same for the admin's
 * single-lead form and every CSV row (they are part of `adminAgedLeadSchema`), and ready for the partner
 * API's `consent` object. Blank means "not given"; each field that is given must be well-formed.
 */

import { blankAsMissing } from "../../../domain/schemas/common";
import { z } from "../../../domain/schemas/zod";
import {
  CONSENT_LIMITS,
  type ConsentField,
  isPlaceholderCertificate,
  normalizeJornayaLeadId,
  normalizeTrustedFormUrl,
  parseOptInTime,
  TRUSTEDFORM_CERT_HOST,
} from "../consent";

/** What each consent field must be: shown under the form's field and beside the import report's row. */
export const CONSENT_MESSAGES = {
  optInAt: "Opt-in time is not a date and time (use YYYY-MM-DD HH:MM:SS)",
  optInAtFuture: "Opt-in time cannot be in the future",
  optInUrl: "Opt-in page must be a web address starting with https:// or http://",
  optInUrlLength: `Opt-in page must be at most ${CONSENT_LIMITS.urlLength} characters`,
  consentText: `Consent text must be at most ${CONSENT_LIMITS.consentTextLength} characters`,
  ipAddress: "IP address must be an IPv4 address (203.0.113.7) or an IPv6 address (2001:db8::7)",
  trustedFormUrl: `TrustedForm certificate URL must be ${TRUSTEDFORM_CERT_HOST} followed by the certificate id`,
  jornayaLeadId:
    "Jornaya LeadiD must be 36 characters like XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX (digits and letters A-F)",
  trustedFormPlaceholder:
    "TrustedForm certificate URL is the template's sample or a placeholder (such as all zeros), not a real certificate",
  jornayaPlaceholder: "Jornaya LeadiD is the template's sample or a placeholder (such as all zeros), not a real token",
} as const;

/** Whether a normalized certificate value is a placeholder (docs/decisions/0054). */
const placeholderTrustedForm = (url: string) => isPlaceholderCertificate({ provider: "trustedform", url });
const placeholderJornaya = (token: string) => isPlaceholderCertificate({ provider: "jornaya", token });

/**
 * An optional trimmed text field: one message for a wrong type, the normalized value or a refusal; with
 * `placeholder`, a well-formed value that is only a sample is refused with its own message.
 */
const optionalText = (
  message: string,
  max: number,
  normalize: (text: string) => string | null,
  placeholder?: { is: (normalized: string) => boolean; message: string },
) =>
  z.preprocess(
    blankAsMissing,
    z
      .string({ error: message })
      .trim()
      .max(max, message)
      .refine((text) => normalize(text) !== null, { message, abort: true })
      .transform((text) => normalize(text) ?? text)
      .refine((text) => !placeholder?.is(text), placeholder?.message)
      .optional(),
  );

const ipv4 = z.ipv4();
/** zod's IPv6 check also takes an embedded IPv4 address ('::ffff:203.0.113.7'); a zone ('%eth0') is not an address. */
const ipv6 = z.ipv6();
const isIpAddress = (text: string) => ipv4.safeParse(text).success || ipv6.safeParse(text).success;

/**
 * The consent fields, to spread into an object schema. Outputs: `optInAt` in epoch milliseconds, the
 * TrustedForm URL as `https://cert.trustedform.com/<id>`, the LeadiD in capitals, an IPv6 address in
 * lower case; an output parses to itself (the single form sends its output on to the API).
 */
export const consentEvidenceShape = {
  optInAt: z.preprocess(
    (value) => {
      const given = blankAsMissing(value);
      if (typeof given !== "string" && typeof given !== "number") return given;
      return parseOptInTime(given) ?? given;
    },
    z
      .number({ error: CONSENT_MESSAGES.optInAt })
      .int(CONSENT_MESSAGES.optInAt)
      .nonnegative(CONSENT_MESSAGES.optInAt)
      // Read at each parse: a time a little ahead of ours is a clock's skew, not a typo.
      .refine((time) => time <= Date.now() + CONSENT_LIMITS.clockSkewMs, CONSENT_MESSAGES.optInAtFuture)
      .optional(),
  ),
  optInUrl: z.preprocess(
    blankAsMissing,
    z
      .string({ error: CONSENT_MESSAGES.optInUrl })
      .trim()
      .max(CONSENT_LIMITS.urlLength, CONSENT_MESSAGES.optInUrlLength)
      .pipe(z.url({ protocol: /^https?$/, hostname: z.regexes.domain, error: CONSENT_MESSAGES.optInUrl }))
      .optional(),
  ),
  consentText: z.preprocess(
    blankAsMissing,
    z
      .string({ error: CONSENT_MESSAGES.consentText })
      .trim()
      .max(CONSENT_LIMITS.consentTextLength, CONSENT_MESSAGES.consentText)
      .optional(),
  ),
  ipAddress: optionalText(CONSENT_MESSAGES.ipAddress, 45, (text) => (isIpAddress(text) ? text.toLowerCase() : null)),
  trustedFormUrl: optionalText(CONSENT_MESSAGES.trustedFormUrl, CONSENT_LIMITS.urlLength, normalizeTrustedFormUrl, {
    is: placeholderTrustedForm,
    message: CONSENT_MESSAGES.trustedFormPlaceholder,
  }),
  jornayaLeadId: optionalText(CONSENT_MESSAGES.jornayaLeadId, 36, normalizeJornayaLeadId, {
    is: placeholderJornaya,
    message: CONSENT_MESSAGES.jornayaPlaceholder,
  }),
} satisfies Record<ConsentField, z.ZodType>;

/** The consent evidence on its own (a transfer's consent view, a later edit form). */
export const consentEvidenceSchema = z.object(consentEvidenceShape);
