/**
 * The partner API's payloads (/api/v1): the zod schemas that validate a dialer's
 * requests, describe the answers, and generate /api/v1/openapi.json (the Worker names them as OpenAPI
 * components in worker/features/partners/routes/partner-api-schemas.ts). The services' types are inferred from them, so a
 * field is declared and checked once: a phone is normalized here, a state upper-cased here, a time parsed
 * here; the services only apply the rules that need the database or the clock.
 */

import { normalizeUsPhone } from "../../../domain/phone.ts";
import { z } from "../../../domain/schemas/zod.ts";
import { US_STATE_CODES } from "../../../domain/us-states.ts";
import {
  CONSENT_LIMITS,
  isPlaceholderCertificate,
  normalizeJornayaLeadId,
  normalizeTrustedFormUrl,
  TRUSTED_FORM_REQUIRED,
  TRUSTEDFORM_CERT_HOST,
} from "../../consent/index.ts";
import { EVENT_REFUSALS, NO_ROUTE_REASONS, TRANSFER_BUFFER_SECONDS, TRANSFER_STATUSES } from "../transfers.ts";

const text = (name: string, max: number) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(1, `${name} is required`)
    .max(max, `${name} must be at most ${max} characters`);

const url = (name: string) => z.url({ error: `${name} must be an http(s) URL`, protocol: /^https?$/ }).max(2000);

/** An optional consent field, normalized here (src/features/consent/consent.ts): a malformed one is a 400 naming the field. */
const normalized = (message: string, max: number, normalize: (text: string) => string | null) =>
  z
    .string({ error: message })
    .trim()
    .max(max, message)
    .transform((value, context) => {
      const result = normalize(value);
      if (result !== null) return result;
      context.addIssue({ code: "custom", message });
      return z.NEVER;
    })
    .optional();

const CONSENT_TEXT_TOO_LONG = `consent.consentText must be at most ${CONSENT_LIMITS.consentTextLength} characters`;

export const PROSPECT_PHONE_INVALID = "prospect.phone must be a 10-digit US phone number.";

export const pingSchema = z.object(
  {
    prospect: z.object(
      {
        firstName: text("prospect.firstName", 100).meta({ example: "Mary" }),
        lastName: text("prospect.lastName", 100).meta({ example: "Johnson" }),
        // Ten digits, whatever punctuation was sent.
        phone: text("prospect.phone", 30)
          .transform((value, context) => {
            const phone = normalizeUsPhone(value);
            if (phone) return phone;
            context.addIssue({ code: "custom", message: PROSPECT_PHONE_INVALID });
            return z.NEVER;
          })
          .meta({ description: "A US number; any punctuation.", example: "(214) 555-1000" }),
        state: z
          .string({ error: "prospect.state is required" })
          .transform((value) => value.trim().toUpperCase())
          .pipe(z.enum(US_STATE_CODES, { error: "prospect.state must be a two-letter US state code" }))
          .meta({ example: "TX" }),
        zip: z
          .string()
          .regex(/^\d{5}(-\d{4})?$/, "prospect.zip must be a 5-digit ZIP code")
          .optional()
          .meta({ example: "75201" }),
        age: z
          .number({ error: "prospect.age must be a whole number" })
          .int("prospect.age must be a whole number")
          .min(18, "prospect.age must be between 18 and 120")
          .max(120, "prospect.age must be between 18 and 120")
          .optional()
          .meta({ example: 67 }),
      },
      { error: "prospect is required (firstName, lastName, phone, state)" },
    ),
    consent: z.object(
      {
        optInAt: z.iso
          .datetime({ offset: true, error: "consent.optInAt must be an ISO 8601 date and time" })
          .meta({ example: "2026-03-04T14:55:00Z" }),
        optInUrl: url("consent.optInUrl").meta({ example: "https://example.com/final-expense-quote" }),
        trustedFormUrl: normalized(
          `consent.trustedFormUrl must be ${TRUSTEDFORM_CERT_HOST} followed by the certificate id`,
          CONSENT_LIMITS.urlLength,
          normalizeTrustedFormUrl,
        )
          .refine(
            (url) => url === undefined || !isPlaceholderCertificate({ provider: "trustedform", url }),
            "consent.trustedFormUrl is a sample or placeholder certificate (such as all zeros), not a real one",
          )
          .meta({
            description: `The TrustedForm certificate URL (${TRUSTEDFORM_CERT_HOST} and the 40- or 80-character certificate id). Required when the shop has set your account to require one: a ping without it answers 400 with "${TRUSTED_FORM_REQUIRED}" Buyers see it on the transfer once the call connects.`,
            example: "https://cert.trustedform.com/4f1c2a9e7b3d5086c1e2f3a4b5c6d7e8f9a0b1c2",
          }),
        jornayaLeadId: normalized(
          "consent.jornayaLeadId must be a Jornaya LeadiD token: 36 characters like XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX",
          36,
          normalizeJornayaLeadId,
        )
          .refine(
            (token) => token === undefined || !isPlaceholderCertificate({ provider: "jornaya", token }),
            "consent.jornayaLeadId is a sample or placeholder token (such as all zeros), not a real one",
          )
          .meta({
            description: "The Jornaya LeadiD token of the opt-in.",
            example: "9C2B7E14-3A5D-4F60-8B1C-2D3E4F5A6B7C",
          }),
        consentText: z
          .string({ error: CONSENT_TEXT_TOO_LONG })
          .trim()
          .max(CONSENT_LIMITS.consentTextLength, CONSENT_TEXT_TOO_LONG)
          .optional()
          .meta({
            description: "The consent language the prospect agreed to, or the id of its version.",
            example: "tcpa-consent-v3",
          }),
        ipAddress: normalized("consent.ipAddress must be an IPv4 or IPv6 address", 45, (text) =>
          z.ipv4().safeParse(text).success || z.ipv6().safeParse(text).success ? text.toLowerCase() : null,
        ).meta({ description: "The prospect's IP address at opt-in.", example: "203.0.113.7" }),
      },
      { error: "consent is required (optInAt, optInUrl)" },
    ),
  },
  { error: "Send a JSON object with prospect and consent" },
);
/** A ping as routing receives it: the phone is ten digits, the state a code, the opt-in time ISO 8601. */
export type PingInput = z.output<typeof pingSchema>;

export const routeAnswerSchema = z.object({
  transferId: z.string().meta({ example: "5b0c4c5e-8f3e-4a4b-9d83-2f0f8ad3c7a1" }),
  phoneNumber: z.string().meta({ description: "Transfer the caller to this number.", example: "2145559000" }),
  expiresInSeconds: z.number().int().meta({ description: "Connect within this time or ping again.", example: 60 }),
});
export type RouteAnswer = z.infer<typeof routeAnswerSchema>;

export const noRouteSchema = z.object({
  message: z.string().meta({ example: NO_ROUTE_REASONS.caps_reached }),
  reason: z.enum(Object.keys(NO_ROUTE_REASONS) as [keyof typeof NO_ROUTE_REASONS]).meta({
    description: Object.entries(NO_ROUTE_REASONS)
      .map(([reason, message]) => `\`${reason}\`: ${message}`)
      .join(" "),
    example: "caps_reached",
  }),
  nextAllowedAt: z.string().optional().meta({
    description:
      "With `calling_window` and `call_limit`: the first moment (ISO 8601, UTC) at which the prospect may lawfully be called, under the federal and state rules in force at their location. Absent when none lies within 14 days.",
    example: "2026-03-05T14:00:00.000Z",
  }),
});

export const eventRefusedSchema = z
  .object({
    message: z.string().meta({ example: EVENT_REFUSALS.expired }),
    reason: z.enum(Object.keys(EVENT_REFUSALS) as [keyof typeof EVENT_REFUSALS]).meta({
      description: Object.entries(EVENT_REFUSALS)
        .map(([reason, message]) => `\`${reason}\`: ${message}`)
        .join(" "),
      example: "expired",
    }),
  })
  .meta({
    description:
      "`connected` or `completed` arrived after the transfer's slot was released. The event is recorded and the transfer is never billed.",
  });

export const transferEventSchema = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("connected") }),
    z.object({
      type: z.literal("completed"),
      durationSeconds: z
        .number({ error: "durationSeconds is required for a completed call" })
        .int("durationSeconds must be a whole number of seconds")
        .min(0, "durationSeconds cannot be negative")
        .max(24 * 60 * 60, "durationSeconds must be at most one day")
        .meta({
          description: `Seconds the caller stayed. Longer than ${TRANSFER_BUFFER_SECONDS} is billable.`,
          example: 185,
        }),
      recordingUrl: url("recordingUrl").optional(),
    }),
    z.object({ type: z.literal("no-answer") }),
    z.object({ type: z.literal("failed") }),
  ],
  { error: "type must be one of connected, completed, no-answer, failed" },
);
/** A dialer's event as the events service receives it. */
export type TransferEventInput = z.output<typeof transferEventSchema>;

export const transferSchema = z.object({
  transferId: z.string(),
  status: z.enum(TRANSFER_STATUSES),
  routedAt: z.string().meta({ example: "2026-03-04T15:00:00.000Z" }),
  state: z.string().meta({ example: "TX" }),
  durationSeconds: z.number().int().nullable(),
  billable: z.boolean(),
  /** 'billable', NOT_CHARGED_LABEL, or the call's end ('no answer', 'failed', 'expired', 'in progress'). */
  outcome: z.string().meta({ example: "billable" }),
});
/** A partner's view of one transfer. */
export type TransferView = z.infer<typeof transferSchema>;

export const transferIdSchema = z.object({
  id: z
    .string()
    .max(100)
    .meta({ param: { name: "id", in: "path" }, example: "5b0c4c5e-8f3e-4a4b-9d83-2f0f8ad3c7a1" }),
});
