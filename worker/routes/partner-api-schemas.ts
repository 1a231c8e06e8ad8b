/** The partner API's request and response shapes: they validate requests and generate /api/v1/openapi.json. */
import { z } from "@hono/zod-openapi";
import { PARTNER_SUSPENDED } from "../../src/domain/schemas/partner-account";
import {
  EVENT_REFUSALS,
  NO_ROUTE_REASONS,
  TRANSFER_BUFFER_SECONDS,
  TRANSFER_STATUSES,
} from "../../src/domain/transfers";
import { US_STATE_CODES } from "../../src/domain/us-states";
import { PARTNER_KEY_RULE } from "../services/rate-limiter";

const text = (name: string, max: number) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(1, `${name} is required`)
    .max(max, `${name} must be at most ${max} characters`);

const url = (name: string) => z.url({ error: `${name} must be an http(s) URL`, protocol: /^https?$/ }).max(2000);

export const PingSchema = z
  .object(
    {
      prospect: z.object(
        {
          firstName: text("prospect.firstName", 100).openapi({ example: "Mary" }),
          lastName: text("prospect.lastName", 100).openapi({ example: "Johnson" }),
          phone: text("prospect.phone", 30).openapi({
            description: "A US number; any punctuation.",
            example: "(214) 555-1000",
          }),
          state: z
            .string({ error: "prospect.state is required" })
            .transform((value) => value.trim().toUpperCase())
            .pipe(z.enum(US_STATE_CODES, { error: "prospect.state must be a two-letter US state code" }))
            .openapi({ example: "TX" }),
          zip: z
            .string()
            .regex(/^\d{5}(-\d{4})?$/, "prospect.zip must be a 5-digit ZIP code")
            .optional()
            .openapi({ example: "75201" }),
          age: z
            .number({ error: "prospect.age must be a whole number" })
            .int("prospect.age must be a whole number")
            .min(18, "prospect.age must be between 18 and 120")
            .max(120, "prospect.age must be between 18 and 120")
            .optional()
            .openapi({ example: 67 }),
        },
        { error: "prospect is required (firstName, lastName, phone, state)" },
      ),
      consent: z.object(
        {
          optInAt: z.iso
            .datetime({ offset: true, error: "consent.optInAt must be an ISO 8601 date and time" })
            .openapi({ example: "2026-03-04T14:55:00Z" }),
          optInUrl: url("consent.optInUrl").openapi({ example: "https://example.com/final-expense-quote" }),
          trustedFormUrl: url("consent.trustedFormUrl")
            .optional()
            .openapi({ example: "https://cert.trustedform.com/0123456789abcdef" }),
        },
        { error: "consent is required (optInAt, optInUrl)" },
      ),
    },
    { error: "Send a JSON object with prospect and consent" },
  )
  .openapi("Ping");

export const RouteAnswerSchema = z
  .object({
    transferId: z.string().openapi({ example: "5b0c4c5e-8f3e-4a4b-9d83-2f0f8ad3c7a1" }),
    phoneNumber: z.string().openapi({ description: "Transfer the caller to this number.", example: "2145559000" }),
    expiresInSeconds: z.number().int().openapi({ description: "Connect within this time or ping again.", example: 60 }),
  })
  .openapi("RouteAnswer");

export const NoRouteSchema = z
  .object({
    message: z.string().openapi({ example: NO_ROUTE_REASONS.caps_reached }),
    reason: z.enum(Object.keys(NO_ROUTE_REASONS) as [keyof typeof NO_ROUTE_REASONS]).openapi({
      description: Object.entries(NO_ROUTE_REASONS)
        .map(([reason, message]) => `\`${reason}\`: ${message}`)
        .join(" "),
      example: "caps_reached",
    }),
  })
  .openapi("NoRoute");

export const EventRefusedSchema = z
  .object({
    message: z.string().openapi({ example: EVENT_REFUSALS.expired }),
    reason: z.enum(Object.keys(EVENT_REFUSALS) as [keyof typeof EVENT_REFUSALS]).openapi({
      description: Object.entries(EVENT_REFUSALS)
        .map(([reason, message]) => `\`${reason}\`: ${message}`)
        .join(" "),
      example: "expired",
    }),
  })
  .openapi("EventRefused", {
    description:
      "`connected` or `completed` arrived after the transfer's slot was released. The event is recorded and the transfer is never billed.",
  });

export const ErrorSchema = z
  .object({ message: z.string().openapi({ example: "This API key is not valid." }) })
  .openapi("Error");

/** 403: every key of a suspended partner is refused, whatever the request. */
export const SuspendedSchema = z
  .object({ message: z.string().openapi({ example: PARTNER_SUSPENDED }) })
  .openapi("PartnerSuspended");

/** 429: one key, or all of a partner's keys together, sent more than their limit in one second. */
export const RateLimitedSchema = z
  .object({
    message: z.string().openapi({
      example: `Too many requests: at most ${PARTNER_KEY_RULE.limit} a second for each API key. Slow down and retry.`,
    }),
  })
  .openapi("RateLimited");

export const EventSchema = z
  .discriminatedUnion(
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
          .openapi({
            description: `Seconds the caller stayed. Longer than ${TRANSFER_BUFFER_SECONDS} is billable.`,
            example: 185,
          }),
        recordingUrl: url("recordingUrl").optional(),
      }),
      z.object({ type: z.literal("no-answer") }),
      z.object({ type: z.literal("failed") }),
    ],
    { error: "type must be one of connected, completed, no-answer, failed" },
  )
  .openapi("TransferEvent");

export const TransferSchema = z
  .object({
    transferId: z.string(),
    status: z.enum(TRANSFER_STATUSES),
    routedAt: z.string().openapi({ example: "2026-03-04T15:00:00.000Z" }),
    state: z.string().openapi({ example: "TX" }),
    durationSeconds: z.number().int().nullable(),
    billable: z.boolean(),
    outcome: z.string().openapi({ example: "billable" }),
  })
  .openapi("Transfer");

export const TransferIdSchema = z.object({
  id: z
    .string()
    .max(100)
    .openapi({ param: { name: "id", in: "path" }, example: "5b0c4c5e-8f3e-4a4b-9d83-2f0f8ad3c7a1" }),
});
