/**
 * The payload of every buyer webhook event (docs/product-rules.md rule 41, decision 0037). The same
 * schemas build the events (`buildWebhookEvent`), let a receiver check them (scripts/simulate-crm.ts)
 * and generate the OpenAPI `webhooks` section (./webhooks-openapi.ts). Times are ISO 8601 UTC, money
 * integer cents. New fields may be added within an API version; receivers should ignore unknown ones.
 */

import { z } from "../../../domain/schemas/zod.ts";
import { CALLBACK_KINDS } from "../../callbacks/index.ts";
import { CERTIFICATE_STATUS_LABELS, CERTIFICATE_STATUSES } from "../../consent/index.ts";
import { REVOKED_ITEM_TYPES, REVOKING_LIST_KINDS } from "../../do-not-call/index.ts";
import { ORDER_KINDS, ORDER_STATUSES } from "../../orders/index.ts";
import { RETURN_REASON_VALUES, type ReturnKind } from "../../returns/index.ts";
import { TRANSFER_STATUSES } from "../../transfers/index.ts";
import {
  type AnyWebhookEventType,
  revokedSubject,
  TEST_EVENT_TYPE,
  WEBHOOK_API_VERSION,
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_EVENT_ID_PATTERN,
  webhookSubject,
} from "../../webhook-outbox/index.ts";

const isoTime = z.iso.datetime({ offset: false }).meta({ example: "2026-11-24T15:04:05.000Z" });
const nullableTime = (description: string) => isoTime.nullable().meta({ description });
const id = (description: string, example: string) => z.string().min(1).max(100).meta({ description, example });
const orderId = id("The order in your order history.", "ord_8c1f0e6a");
/** Text as recorded; consent fields default to null, so a builder may leave out what a lead lacks. */
const recorded = (max: number, description: string, example: string) =>
  z.string().max(max).nullable().default(null).meta({ description, example });

const webhookConsentSchema = z
  .object({
    optInAt: isoTime.nullable().default(null).meta({ description: "When the consumer opted in." }),
    optInUrl: recorded(2000, "The page the consumer opted in on.", "https://example.com/final-expense-quote"),
    consentText: recorded(10_000, "The consent language the consumer agreed to.", "By clicking Submit I agree …"),
    ipAddress: recorded(45, "The consumer's IP address at opt-in (IPv4 or IPv6).", "203.0.113.7"),
    trustedFormUrl: recorded(
      2000,
      "The TrustedForm certificate URL.",
      "https://cert.trustedform.com/4f1c2a9e7b3d5086c1e2f3a4b5c6d7e8f9a0b1c2",
    ),
    jornayaLeadId: recorded(100, "The Jornaya LeadiD token.", "8B1A2C3D-4E5F-6071-8293-A4B5C6D7E8F9"),
    certificate: z
      .enum(CERTIFICATE_STATUSES)
      .default("none")
      .meta({
        description: `Whether a consent certificate is on file and what claiming it with its issuer found: ${CERTIFICATE_STATUSES.map((status) => `\`${status}\` (${CERTIFICATE_STATUS_LABELS[status]})`).join(", ")}. Until the shop has a claim provider set up, a certificate is \`unverified\`: on file, as the seller gave it.`,
        example: "unverified",
      }),
  })
  .meta({
    description:
      "Consent evidence, the same as My Leads and its CSV show for the lead; a field is null when it was not captured.",
  });

const webhookProspectSchema = z
  .object({
    firstName: z.string().max(100).meta({ example: "Mary" }),
    lastName: z.string().max(100).meta({ example: "Johnson" }),
    phone: z.string().max(30).meta({ description: "Ten digits.", example: "2145551000" }),
  })
  .meta({ description: "The caller." });

const leadPurchasedData = z.object({
  leadId: id("The lead, as in My Leads.", "lead_5b0c4c5e"),
  orderId,
  name: z.string().max(200).meta({ example: "Mary Johnson" }),
  email: z.string().max(320).nullable().meta({ example: "mary@example.com" }),
  phone: z.string().max(30).meta({ example: "(214) 555-1000" }),
  state: z.string().max(50).meta({ example: "TX" }),
  formFillTime: nullableTime("When the consumer filled in the form."),
  purchasedAt: isoTime,
  consent: webhookConsentSchema,
});

const transferBase = {
  transferId: id("The transfer, as in the Lead Tracker.", "5b0c4c5e-8f3e-4a4b-9d83-2f0f8ad3c7a1"),
  orderId,
  state: z.string().length(2).meta({ description: "The caller's US state.", example: "TX" }),
  routedAt: isoTime,
  connectedAt: nullableTime("When the call was connected."),
  endedAt: nullableTime("When the call ended."),
  durationSeconds: z.int().min(0).nullable().meta({ description: "How long the call lasted.", example: 185 }),
};
const recordingUrl = z.string().max(2000).nullable().meta({ description: "The call recording, when reported." });
const ENDED = TRANSFER_STATUSES.filter((status) => status !== "routed" && status !== "connected");

const transferRoutedData = z.object({ ...transferBase, status: z.literal("routed"), billable: z.literal(false) });
const transferConnectedData = z.object({
  ...transferBase,
  status: z.literal("connected"),
  billable: z.literal(false),
  prospect: webhookProspectSchema,
});
const transferBillableData = z.object({
  ...transferBase,
  status: z.literal("completed"),
  billable: z.literal(true),
  prospect: webhookProspectSchema,
  recordingUrl,
});
const transferNotChargedData = z.object({
  ...transferBase,
  status: z.enum(ENDED as [(typeof ENDED)[number], ...(typeof ENDED)[number][]]).meta({
    description: "completed (within the buffer), no_answer, failed or expired.",
  }),
  billable: z.literal(false),
  recordingUrl,
});

const orderData = z.object({
  orderId,
  kind: z.enum(ORDER_KINDS),
  quantity: z.int().min(0).meta({ description: "Leads, transfers or calls bought.", example: 50 }),
  totalCents: z.int().min(0).meta({ description: "The order's total in US cents.", example: 250_000 }),
  status: z.enum(ORDER_STATUSES),
  paidAt: nullableTime("When the payment was confirmed."),
  completedAt: nullableTime("When the order was fulfilled."),
});

/** A return's subject as the payload names it ('lead', like the `lead.*` events). */
export const RETURN_SUBJECT_KINDS = ["lead", "transfer", "callback"] as const;
export const returnSubjectKind = (kind: ReturnKind): (typeof RETURN_SUBJECT_KINDS)[number] =>
  kind === "aged_lead" ? "lead" : kind;

const returnDecidedData = z.object({
  returnId: id("The return, as in your returns list.", "ret_1d2e3f4a"),
  subject: z.object({
    kind: z.enum(RETURN_SUBJECT_KINDS),
    id: id("The lead, transfer or call-back returned.", "lead_5b0c4c5e"),
  }),
  decision: z.enum(["approved", "denied"]),
  reason: z.enum(RETURN_REASON_VALUES).meta({ description: "The reason you gave." }),
  reasonText: z.string().max(500).nullable().meta({ description: "Your words, for the reason other." }),
  note: z.string().max(500).nullable().meta({ description: "The shop's note on the decision." }),
  decidedAt: isoTime,
});

const callbackProspectSchema = z
  .object({
    name: z.string().max(200).meta({ example: "Mary Johnson" }),
    phone: z.string().max(30).meta({ example: "2145551000" }),
    email: z.string().max(320).nullable().meta({ example: "mary@example.com" }),
    state: z.string().max(50).meta({ example: "TX" }),
    zip: z.string().max(10).nullable().meta({ example: "75001" }),
  })
  .meta({ description: "The prospect to call; email and zip are null when not captured." });

/** `callback.delivered` and `appointment.delivered` (docs/decisions/0058, 0060). */
const callbackDeliveredData = z.object({
  callbackId: id("The call-back, as in My Call-Backs.", "5b0c4c5e-8f3e-4a4b-9d83-2f0f8ad3c7a1"),
  kind: z.enum(CALLBACK_KINDS),
  orderId,
  prospect: callbackProspectSchema,
  window: z
    .object({
      start: isoTime.meta({ description: "When you may start calling." }),
      end: isoTime.meta({ description: "When the window closes (an appointment holds 30 minutes)." }),
      timeZone: z.string().max(64).meta({ description: "The prospect's IANA time zone.", example: "America/Chicago" }),
    })
    .meta({ description: "The window the prospect asked to be called in." }),
  deliveredAt: isoTime,
  consent: webhookConsentSchema,
});

/** `lead.suppressed` (docs/decisions/0082): a sold item's number reached a shared Do Not Call list. */
const leadSuppressedData = z.object({
  item: z.object({
    type: z.enum(REVOKED_ITEM_TYPES).meta({ description: "An aged lead, a live transfer or a call-back." }),
    id: id("The lead, transfer or call-back, as in My Leads, the Lead Tracker or My Call-Backs.", "lead_5b0c4c5e"),
  }),
  orderId: orderId.nullable(),
  phone: z
    .string()
    .max(30)
    .meta({ description: "The number, masked: match the item by its id.", example: "(214) ***-****" }),
  list: z.object({
    kind: z.enum(REVOKING_LIST_KINDS).meta({
      description:
        "The list it reached: the national registry, a state list, known litigators or the shop's own requests.",
      example: "national_dnc",
    }),
  }),
  purchasedAt: isoTime.meta({ description: "When you bought the item (a transfer: when it was routed)." }),
  suppressedAt: isoTime.meta({ description: "When the number reached the list." }),
});

const testData = z.object({ message: z.string().max(500).meta({ example: "A test event from your shop." }) });

/** Each event's `data`, by type. */
const WEBHOOK_DATA_SCHEMAS = {
  "lead.purchased": leadPurchasedData,
  "transfer.routed": transferRoutedData,
  "transfer.connected": transferConnectedData,
  "transfer.billable": transferBillableData,
  "transfer.not_charged": transferNotChargedData,
  "order.paid": orderData,
  "order.completed": orderData,
  "return.decided": returnDecidedData,
  "callback.delivered": callbackDeliveredData,
  "appointment.delivered": callbackDeliveredData,
  "lead.suppressed": leadSuppressedData,
  [TEST_EVENT_TYPE]: testData,
} as const satisfies Record<AnyWebhookEventType, z.ZodType>;
type DataSchemas = typeof WEBHOOK_DATA_SCHEMAS;

/** The component name of each event's schema in the OpenAPI document. */
export const WEBHOOK_SCHEMA_NAMES: Record<AnyWebhookEventType, string> = {
  "lead.purchased": "LeadPurchasedEvent",
  "transfer.routed": "TransferRoutedEvent",
  "transfer.connected": "TransferConnectedEvent",
  "transfer.billable": "TransferBillableEvent",
  "transfer.not_charged": "TransferNotChargedEvent",
  "order.paid": "OrderPaidEvent",
  "order.completed": "OrderCompletedEvent",
  "return.decided": "ReturnDecidedEvent",
  "callback.delivered": "CallbackDeliveredEvent",
  "appointment.delivered": "AppointmentDeliveredEvent",
  "lead.suppressed": "LeadSuppressedEvent",
  [TEST_EVENT_TYPE]: "TestEvent",
};

function envelope<T extends AnyWebhookEventType>(type: T) {
  return z
    .object({
      id: z.string().regex(WEBHOOK_EVENT_ID_PATTERN).meta({
        description: "The event's id: the same on every retry and resend, so receivers can de-duplicate by it.",
        example: "evt_3f9a0c1b2d4e5f60718293a4b5c6d7e8",
      }),
      type: z.literal(type),
      createdAt: isoTime.meta({ description: "When the event happened." }),
      apiVersion: z.string().meta({ description: "The payload version.", example: WEBHOOK_API_VERSION }),
      data: WEBHOOK_DATA_SCHEMAS[type] as DataSchemas[T],
    })
    .meta({ description: WEBHOOK_EVENT_DESCRIPTIONS[type] });
}

/** Each event's whole payload, by type. */
export const WEBHOOK_EVENT_SCHEMAS = {
  "lead.purchased": envelope("lead.purchased"),
  "transfer.routed": envelope("transfer.routed"),
  "transfer.connected": envelope("transfer.connected"),
  "transfer.billable": envelope("transfer.billable"),
  "transfer.not_charged": envelope("transfer.not_charged"),
  "order.paid": envelope("order.paid"),
  "order.completed": envelope("order.completed"),
  "return.decided": envelope("return.decided"),
  "callback.delivered": envelope("callback.delivered"),
  "appointment.delivered": envelope("appointment.delivered"),
  "lead.suppressed": envelope("lead.suppressed"),
  [TEST_EVENT_TYPE]: envelope(TEST_EVENT_TYPE),
};

/**
 * The named schemas of the OpenAPI document (components/schemas). A registry of its own rather than
 * zod's global one, so loading this module twice (dev reloads, tests) never collides on an id.
 */
export const webhookSchemaRegistry = z.registry<{ id: string }>();
webhookSchemaRegistry.add(webhookConsentSchema, { id: "WebhookConsent" });
webhookSchemaRegistry.add(webhookProspectSchema, { id: "WebhookProspect" });
webhookSchemaRegistry.add(callbackProspectSchema, { id: "WebhookCallbackProspect" });
for (const [type, schema] of Object.entries(WEBHOOK_EVENT_SCHEMAS)) {
  webhookSchemaRegistry.add(schema, { id: WEBHOOK_SCHEMA_NAMES[type as AnyWebhookEventType] });
}

/** Any event: what a receiver parses a request body with. */
export const webhookEventSchema = z.discriminatedUnion(
  "type",
  Object.values(WEBHOOK_EVENT_SCHEMAS) as [
    (typeof WEBHOOK_EVENT_SCHEMAS)[AnyWebhookEventType],
    ...(typeof WEBHOOK_EVENT_SCHEMAS)[AnyWebhookEventType][],
  ],
);

export type WebhookEvent = z.output<typeof webhookEventSchema>;
export type WebhookEventOf<T extends AnyWebhookEventType> = z.output<(typeof WEBHOOK_EVENT_SCHEMAS)[T]>;
export type WebhookDataInput<T extends AnyWebhookEventType> = z.input<DataSchemas[T]>;

/**
 * One event, its data checked and completed (consent fields left out become null). Throws a ZodError
 * when the data breaks its schema: a bug in the caller, never the buyer's input.
 */
export function buildWebhookEvent<T extends AnyWebhookEventType>(
  type: T,
  data: WebhookDataInput<T>,
  meta: { id: string; createdAt: Date | number },
): WebhookEventOf<T> {
  return WEBHOOK_EVENT_SCHEMAS[type].parse({
    id: meta.id,
    type,
    createdAt: new Date(meta.createdAt).toISOString(),
    apiVersion: WEBHOOK_API_VERSION,
    data,
  }) as WebhookEventOf<T>;
}

/** The subject an event is ordered under: its lead, transfer, order or return ('test:<event id>' for tests). */
export function webhookEventSubject(event: WebhookEvent): string {
  switch (event.type) {
    case "lead.purchased":
      return webhookSubject(event.type, event.data.leadId);
    case "transfer.routed":
    case "transfer.connected":
    case "transfer.billable":
    case "transfer.not_charged":
      return webhookSubject(event.type, event.data.transferId);
    case "order.paid":
    case "order.completed":
      return webhookSubject(event.type, event.data.orderId);
    case "return.decided":
      return webhookSubject(event.type, event.data.returnId);
    case "callback.delivered":
    case "appointment.delivered":
      return webhookSubject(event.type, event.data.callbackId);
    case "lead.suppressed":
      return revokedSubject(event.data.item.type, event.data.item.id);
    case TEST_EVENT_TYPE:
      return webhookSubject(event.type, event.id);
  }
}
