/**
 * Buyer webhooks (docs/product-rules.md rule 41, decision 0037): the event types, the API version and
 * the limits every part of delivery reads (settings, queue consumer, log, docs). Pure: no I/O.
 */
import { bodyBytes, randomBytes, toHex, utf8 } from "./bytes.ts";

/** The events a buyer can subscribe an endpoint to. */
export const WEBHOOK_EVENT_TYPES = [
  "lead.purchased",
  "transfer.routed",
  "transfer.connected",
  "transfer.billable",
  "transfer.not_charged",
  "order.paid",
  "order.completed",
  "return.decided",
  "callback.delivered",
  "appointment.delivered",
  "lead.suppressed",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What "Send test event" sends: never subscribed to, sent only to the endpoint it was asked for. */
export const TEST_EVENT_TYPE = "test";
export const ALL_WEBHOOK_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE] as const;
export type AnyWebhookEventType = (typeof ALL_WEBHOOK_EVENT_TYPES)[number];

/** One line per event: the settings' checkboxes, the docs and the OpenAPI `webhooks` section. */
export const WEBHOOK_EVENT_DESCRIPTIONS: Record<AnyWebhookEventType, string> = {
  "lead.purchased": "An aged lead was bought: one event per lead, with its contact fields and consent.",
  "transfer.routed": "A live caller was routed to one of your transfer orders; the call is about to ring.",
  "transfer.connected": "The routed caller is connected to your transfer number.",
  "transfer.billable": "The call lasted longer than the billing buffer: it is charged to your order.",
  "transfer.not_charged": "The call ended within the buffer, was not answered, failed or expired: not charged.",
  "order.paid": "The payment for one of your orders was confirmed.",
  "order.completed": "One of your orders was fulfilled in full.",
  "return.decided": "A return you asked for (a lead or a transfer) was approved or denied.",
  "callback.delivered":
    "A call-back was placed in one of your call-back orders: the prospect's contact, window and consent.",
  "appointment.delivered":
    "An appointment was placed in one of your call-back orders: the prospect's contact, set time and consent.",
  "lead.suppressed":
    "A number you bought (a lead, a transfer or a call-back, in the last 5 years) was added to a Do Not Call list: stop calling it.",
  test: 'A test event, sent by "Send test event" in your integration settings.',
};

/**
 * The payload version, as `apiVersion` in every event (a date, like Stripe's). A change that could break
 * a receiver (a field removed or renamed, a meaning changed) gets a new version; new fields do not.
 */
export const WEBHOOK_API_VERSION = "2026-11-24";

const SECOND_MS = 1000;
const HOUR_MS = 60 * 60 * SECOND_MS;
const DAY_MS = 24 * HOUR_MS;

/** A buyer has at most this many endpoints. */
export const WEBHOOK_MAX_ENDPOINTS = 5;
export const WEBHOOK_ENDPOINT_NAME_MAX = 100;
export const WEBHOOK_URL_MAX = 2000;
/** A request body (one event) stays under this many bytes. */
export const WEBHOOK_MAX_BODY_BYTES = 256 * 1024;
/** The log keeps this many bytes of each answer. */
export const WEBHOOK_STORED_ANSWER_BYTES = 1024;
/** An attempt that has no answer within this time failed. */
export const WEBHOOK_TIMEOUT_MS = 10 * SECOND_MS;
/** Failed events are retried for this long after their first attempt, then dead-lettered. */
export const WEBHOOK_RETRY_WINDOW_MS = 3 * DAY_MS;
/** An endpoint whose every attempt failed for this long is switched off (and its buyer e-mailed). */
export const WEBHOOK_DISABLE_AFTER_MS = 3 * DAY_MS;
/** After a rotation the old secret signs too (a second `v1=`) for this long. */
export const WEBHOOK_SECRET_GRACE_MS = 24 * HOUR_MS;
/** Receivers refuse a signature whose timestamp is further than this from their clock. */
export const WEBHOOK_SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

/** Any 2xx counts as delivered; a redirect is not followed, so 3xx fails like any other status. */
export const isDeliveredStatus = (status: number): boolean => status >= 200 && status <= 299;

export function bodyTooLarge(body: string | Uint8Array): boolean {
  return (typeof body === "string" ? utf8(body).length : body.length) > WEBHOOK_MAX_BODY_BYTES;
}

/**
 * The part of an answer the log keeps: its first 1 KB, cut at a character boundary so the stored
 * text is valid UTF-8 (bytes that are not UTF-8 are replaced, as a browser would show them).
 */
export function answerExcerpt(answer: string | Uint8Array): string {
  const bytes = bodyBytes(answer);
  let end = Math.min(bytes.length, WEBHOOK_STORED_ANSWER_BYTES);
  // Step back over continuation bytes (10xxxxxx) so a multi-byte character is not cut in half.
  if (end < bytes.length) while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return new TextDecoder().decode(bytes.subarray(0, end));
}

// ——— Event ids and subjects ———

export const WEBHOOK_EVENT_ID_PATTERN = /^evt_[0-9a-f]{32}$/;

/** A fresh event id (test events, and events with no natural key). */
export const newWebhookEventId = (bytes: (length: number) => Uint8Array = randomBytes): string =>
  `evt_${toHex(bytes(16))}`;

/**
 * The id of the event that `keys` describe, the same every time: e.g. ('lead.purchased', orderId,
 * leadId). Enqueuing the same fact twice (a retried request, a replayed payment confirmation) gives the
 * same id, so a unique index on the id drops the copy and receivers can de-duplicate by it.
 */
export async function webhookEventIdFor(type: AnyWebhookEventType, ...keys: string[]): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", utf8([type, ...keys].join("\u0000")));
  return `evt_${toHex(new Uint8Array(digest)).slice(0, 32)}`;
}

/** What an event is about; events of one subject reach an endpoint in the order they happened. */
const WEBHOOK_SUBJECT_KINDS = ["lead", "transfer", "order", "return", "callback", "test"] as const;
export type WebhookSubjectKind = (typeof WEBHOOK_SUBJECT_KINDS)[number];

export const WEBHOOK_SUBJECT_OF: Record<AnyWebhookEventType, WebhookSubjectKind> = {
  "lead.purchased": "lead",
  "transfer.routed": "transfer",
  "transfer.connected": "transfer",
  "transfer.billable": "transfer",
  "transfer.not_charged": "transfer",
  "order.paid": "order",
  "order.completed": "order",
  "return.decided": "return",
  "callback.delivered": "callback",
  "appointment.delivered": "callback",
  // Ordered under its item (`lead:`, `transfer:` or `callback:`), after the item's other events: see `revokedSubject`.
  "lead.suppressed": "lead",
  test: "test",
};

/** 'transfer:<id>': the key deliveries are ordered by. */
export const webhookSubject = (type: AnyWebhookEventType, subjectId: string): string =>
  `${WEBHOOK_SUBJECT_OF[type]}:${subjectId}`;

/** The subject of a `lead.suppressed` event: the sold item it revokes, so it follows that item's own events. */
export const revokedSubject = (itemType: "lead" | "transfer" | "callback", itemId: string): string =>
  `${itemType}:${itemId}`;

/**
 * Events of one subject in their natural order, for ties in time: a transfer is routed, then connected,
 * then billable or not charged; an order is paid, then completed.
 */
export const WEBHOOK_EVENT_RANK: Record<AnyWebhookEventType, number> = {
  "lead.purchased": 0,
  "transfer.routed": 0,
  "transfer.connected": 1,
  "transfer.billable": 2,
  "transfer.not_charged": 2,
  "order.paid": 0,
  "order.completed": 1,
  "return.decided": 0,
  "callback.delivered": 0,
  "appointment.delivered": 0,
  "lead.suppressed": 9,
  test: 0,
};
