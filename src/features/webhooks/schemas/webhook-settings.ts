/**
 * Requests and answers of the buyer's integration settings (docs/webhooks.md): endpoints, their
 * delivery log and resends. One schema serves the settings form and the API; whether a URL may be used
 * (https, a public address) is the address guard's answer on the server (src/features/webhooks/ssrf.ts),
 * since it depends on the deployment and on DNS.
 */

import { pageQuerySchema } from "../../../domain/schemas/common";
import { z } from "../../../domain/schemas/zod";
import {
  ALL_WEBHOOK_EVENT_TYPES,
  type AnyWebhookEventType,
  WEBHOOK_ENDPOINT_NAME_MAX,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_URL_MAX,
  type WebhookEventType,
} from "../../webhook-outbox/index";
import type { DeliveryStatus } from "../delivery";

const WEBHOOK_MESSAGES = {
  name: "Give the endpoint a name (e.g. My CRM).",
  nameTooLong: `Keep the name under ${WEBHOOK_ENDPOINT_NAME_MAX} characters.`,
  url: "Enter the endpoint's full URL, starting with https://.",
  urlTooLong: `The endpoint URL is longer than ${WEBHOOK_URL_MAX} characters.`,
  events: "Choose at least one event.",
  eventName: `Unknown event. Events are ${WEBHOOK_EVENT_TYPES.join(", ")}.`,
  nothingToChange: "Send a name, URL, events or the on/off switch to change.",
  range: "Choose a time range: its start must be before its end.",
} as const;

const name = z
  .string({ error: WEBHOOK_MESSAGES.name })
  .trim()
  .min(1, WEBHOOK_MESSAGES.name)
  .max(WEBHOOK_ENDPOINT_NAME_MAX, WEBHOOK_MESSAGES.nameTooLong);
const url = z
  .string({ error: WEBHOOK_MESSAGES.url })
  .trim()
  .min(1, WEBHOOK_MESSAGES.url)
  .max(WEBHOOK_URL_MAX, WEBHOOK_MESSAGES.urlTooLong);
const events = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: WEBHOOK_MESSAGES.eventName }), { error: WEBHOOK_MESSAGES.events })
  .min(1, WEBHOOK_MESSAGES.events)
  .max(WEBHOOK_EVENT_TYPES.length * 2, WEBHOOK_MESSAGES.eventName)
  // In the list's own order, each once.
  .transform((chosen) => WEBHOOK_EVENT_TYPES.filter((type) => chosen.includes(type)));

const enabled = z.boolean({ error: "The switch must be on (true) or off (false)." });

export const webhookEndpointSchema = z.object({ name, url, events, enabled: enabled.default(true) });
export type WebhookEndpointInput = z.input<typeof webhookEndpointSchema>;
export type WebhookEndpointValues = z.output<typeof webhookEndpointSchema>;

export const webhookEndpointPatchSchema = z
  .object({ name, url, events, enabled })
  .partial()
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), WEBHOOK_MESSAGES.nothingToChange);
export type WebhookEndpointPatch = z.output<typeof webhookEndpointPatchSchema>;

const instant = (label: string) =>
  z.iso.datetime({ offset: true, error: `${label} must be a date and time (ISO 8601).` }).transform(Date.parse);

/** The delivery log's filters: a status, an event type and a time range of the events, newest first. */
export const webhookLogQuerySchema = pageQuerySchema.extend({
  status: z
    .enum(["pending", "retrying", "delivered", "dead_letter", "failed"], {
      error: "Status must be pending, retrying, delivered, dead_letter or failed.",
    })
    .optional(),
  type: z.enum(ALL_WEBHOOK_EVENT_TYPES, { error: WEBHOOK_MESSAGES.eventName }).optional(),
  from: instant("From").optional(),
  to: instant("To").optional(),
});
export type WebhookLogQuery = z.output<typeof webhookLogQuerySchema>;

/** "Resend every failed event of a time range". */
export const webhookResendRangeSchema = z
  .object({ from: instant("From"), to: instant("To") })
  .refine((range) => range.from < range.to, { message: WEBHOOK_MESSAGES.range, path: ["to"] });

// ——— Answers ———

export interface WebhookEndpointView {
  id: string;
  name: string;
  url: string;
  events: WebhookEventType[];
  enabled: boolean;
  /** When it was switched off for failing 3 days in a row (ISO), or null. */
  disabledAt: string | null;
  /** The first failed attempt since its last 2xx (ISO), or null. */
  failingSince: string | null;
  secretCreatedAt: string;
  /** Until when the previous secret still signs after a rotation (ISO), or null. */
  previousSecretExpiresAt: string | null;
  createdAt: string;
}

/** An endpoint just created or rotated: its signing secret, shown this once. */
export interface WebhookEndpointWithSecret extends WebhookEndpointView {
  secret: string;
}

export interface WebhookDeliveryView {
  eventId: string;
  type: AnyWebhookEventType;
  /** When the event happened (ISO). */
  createdAt: string;
  status: DeliveryStatus;
  attempts: number;
  lastAttemptAt: string | null;
  /** The next attempt while pending or retrying (ISO), else null. */
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  /** Why the last attempt failed when there was no answer to show (timeout, refused address…). */
  lastError: string | null;
  latencyMs: number | null;
  /** The first 1 KB of the last answer. */
  answer: string | null;
}

export interface WebhookDeliveryPage {
  items: WebhookDeliveryView[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

export const WEBHOOK_LOG_PAGE_SIZE = 25;
/**
 * One "resend failed" request re-sends at most this many events (the rest on the next press); they go
 * out on the endpoint's schedule (its rate, its back-off: docs/decisions/0052).
 */
export const WEBHOOK_RESEND_MAX = 500;
/** "Resend failed" presses per endpoint per minute. */
export const WEBHOOK_BULK_RESENDS_PER_MINUTE = 3;
export const WEBHOOK_BULK_RESEND_LIMITED = `Failed events of this endpoint can be resent ${WEBHOOK_BULK_RESENDS_PER_MINUTE} times a minute (${WEBHOOK_RESEND_MAX} events each time). Wait a minute and press again.`;
