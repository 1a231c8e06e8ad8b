/**
 * Webhook payloads (decision 0037): every event has an id, a type, a time and an API
 * version; the builder fills what a caller may leave out; the OpenAPI 3.1 `webhooks` section is generated
 * from the same schemas and merges into a document @hono/zod-openapi builds.
 */
import { readFileSync } from "node:fs";
import { OpenAPIHono } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { CERTIFICATE_STATUS_LABELS, CERTIFICATE_STATUSES, CONSENT_FIELDS } from "../../consent/consent";
import {
  ALL_WEBHOOK_EVENT_TYPES,
  type AnyWebhookEventType,
  newWebhookEventId,
  WEBHOOK_API_VERSION,
  WEBHOOK_EVENT_TYPES,
} from "../../webhook-outbox/events";
import { nominalRetrySchedule } from "../delivery";
import {
  buildWebhookEvent,
  returnSubjectKind,
  WEBHOOK_EVENT_SCHEMAS,
  WEBHOOK_SCHEMA_NAMES,
  type WebhookDataInput,
  webhookEventSchema,
  webhookEventSubject,
} from "../schemas/webhooks";
import { webhooksOpenApi } from "../schemas/webhooks-openapi";

const AT = Date.UTC(2026, 10, 24, 15, 4, 5);
const transfer = {
  transferId: "5b0c4c5e-8f3e-4a4b-9d83-2f0f8ad3c7a1",
  orderId: "ord_1",
  state: "TX",
  routedAt: "2026-11-24T15:00:00.000Z",
  connectedAt: null,
  endedAt: null,
  durationSeconds: null,
};
const prospect = { firstName: "Mary", lastName: "Johnson", phone: "2145551000" };
const order = {
  orderId: "ord_1",
  kind: "aged-leads",
  quantity: 50,
  totalCents: 250_000,
  status: "paid",
  paidAt: "2026-11-24T15:00:00.000Z",
  completedAt: null,
} as const;

/** One valid `data` per event type. */
const SAMPLES: { [T in AnyWebhookEventType]: WebhookDataInput<T> } = {
  "lead.purchased": {
    leadId: "lead_1",
    orderId: "ord_1",
    name: "Mary Johnson",
    email: null,
    phone: "(214) 555-1000",
    state: "TX",
    formFillTime: null,
    purchasedAt: "2026-11-24T15:00:00.000Z",
    consent: { optInAt: "2026-03-04T14:55:00.000Z", trustedFormUrl: "https://cert.trustedform.com/abc" },
  },
  "transfer.routed": { ...transfer, status: "routed", billable: false },
  "transfer.connected": { ...transfer, status: "connected", billable: false, connectedAt: transfer.routedAt, prospect },
  "transfer.billable": {
    ...transfer,
    status: "completed",
    billable: true,
    endedAt: "2026-11-24T15:03:05.000Z",
    durationSeconds: 185,
    prospect,
    recordingUrl: null,
  },
  "transfer.not_charged": { ...transfer, status: "no_answer", billable: false, recordingUrl: null },
  "order.paid": order,
  "order.completed": { ...order, status: "completed", completedAt: "2026-11-25T10:00:00.000Z" },
  "return.decided": {
    returnId: "ret_1",
    subject: { kind: returnSubjectKind("aged_lead"), id: "lead_1" },
    decision: "approved",
    reason: "disconnected",
    reasonText: null,
    note: null,
    decidedAt: "2026-11-25T10:00:00.000Z",
  },
  "callback.delivered": {
    callbackId: "cb_1",
    kind: "callback",
    orderId: "ord_1",
    prospect: { name: "Mary Johnson", phone: "2145551000", email: null, state: "TX", zip: "75001" },
    window: { start: "2026-11-25T20:00:00.000Z", end: "2026-11-25T22:00:00.000Z", timeZone: "America/Chicago" },
    deliveredAt: "2026-11-24T15:00:00.000Z",
    consent: { optInAt: "2026-11-24T14:55:00.000Z", optInUrl: "https://example.com/quote" },
  },
  "appointment.delivered": {
    callbackId: "cb_2",
    kind: "appointment",
    orderId: "ord_1",
    prospect: { name: "Mary Johnson", phone: "2145551000", email: "mary@example.com", state: "TX", zip: null },
    window: { start: "2026-11-25T20:00:00.000Z", end: "2026-11-25T20:30:00.000Z", timeZone: "America/Chicago" },
    deliveredAt: "2026-11-24T15:00:00.000Z",
    consent: { optInAt: "2026-11-24T14:55:00.000Z" },
  },
  "lead.suppressed": {
    item: { type: "transfer", id: "tr_1" },
    orderId: "ord_1",
    phone: "(214) ***-****",
    list: { kind: "national_dnc" },
    purchasedAt: "2026-11-24T15:00:00.000Z",
    suppressedAt: "2026-11-25T10:00:00.000Z",
  },
  test: { message: "A test event from your shop." },
};

const build = <T extends AnyWebhookEventType>(type: T) =>
  buildWebhookEvent(type, SAMPLES[type], { id: newWebhookEventId(), createdAt: AT });

describe("webhook payloads", () => {
  it.each(ALL_WEBHOOK_EVENT_TYPES)("%s has an id, a type, a time, the API version and data", (type) => {
    const event = build(type);
    expect(event).toMatchObject({ type, createdAt: "2026-11-24T15:04:05.000Z", apiVersion: WEBHOOK_API_VERSION });
    expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
    // What is sent parses back as the same event: receivers can use the schema as documented.
    expect(webhookEventSchema.parse(JSON.parse(JSON.stringify(event)))).toEqual(event);
  });

  it("covers the eight events of the issue, the two call-back deliveries (docs/decisions/0060), the revocation (docs/decisions/0082) and the test event", () => {
    expect(WEBHOOK_EVENT_TYPES).toEqual([
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
    ]);
    expect(Object.keys(WEBHOOK_EVENT_SCHEMAS).sort()).toEqual([...ALL_WEBHOOK_EVENT_TYPES].sort());
  });

  it("lead.purchased carries consent, each field null when not captured", () => {
    expect(build("lead.purchased").data.consent).toEqual({
      optInAt: "2026-03-04T14:55:00.000Z",
      optInUrl: null,
      consentText: null,
      ipAddress: null,
      trustedFormUrl: "https://cert.trustedform.com/abc",
      jornayaLeadId: null,
      certificate: "none",
    });
  });

  it("gives the prospect's name and phone only once the call is connected or billable", () => {
    expect(build("transfer.connected").data.prospect).toEqual(prospect);
    expect(build("transfer.billable").data.prospect).toEqual(prospect);
    expect(build("transfer.routed").data).not.toHaveProperty("prospect");
    expect(build("transfer.not_charged").data).not.toHaveProperty("prospect");
    // Extra keys a caller passes by mistake are not sent.
    const routed = buildWebhookEvent("transfer.routed", { ...SAMPLES["transfer.routed"], prospect } as never, {
      id: newWebhookEventId(),
      createdAt: AT,
    });
    expect(routed.data).not.toHaveProperty("prospect");
  });

  it("refuses data that breaks its event's schema (a caller's bug), naming the field", () => {
    const bad = (type: AnyWebhookEventType, data: unknown) => () =>
      buildWebhookEvent(type, data as never, { id: newWebhookEventId(), createdAt: AT });
    expect(bad("transfer.billable", { ...SAMPLES["transfer.billable"], billable: false })).toThrow(/billable/);
    expect(bad("order.paid", { ...order, totalCents: 12.5 })).toThrow(/totalCents/);
    expect(bad("order.paid", { ...order, kind: "gift-card" })).toThrow(/kind/);
    expect(bad("transfer.not_charged", { ...SAMPLES["transfer.not_charged"], status: "routed" })).toThrow(/status/);
    expect(() => buildWebhookEvent("test", { message: "x" }, { id: "evt_short", createdAt: AT })).toThrow(/id/);
  });

  it("names the subject each event is ordered under", () => {
    expect(webhookEventSubject(build("lead.purchased"))).toBe("lead:lead_1");
    expect(webhookEventSubject(build("transfer.routed"))).toBe(`transfer:${transfer.transferId}`);
    expect(webhookEventSubject(build("transfer.billable"))).toBe(`transfer:${transfer.transferId}`);
    expect(webhookEventSubject(build("order.completed"))).toBe("order:ord_1");
    expect(webhookEventSubject(build("return.decided"))).toBe("return:ret_1");
    expect(webhookEventSubject(build("callback.delivered"))).toBe("callback:cb_1");
    expect(webhookEventSubject(build("appointment.delivered"))).toBe("callback:cb_2");
    // A revocation is ordered under the item it revokes, after that item's own events.
    expect(webhookEventSubject(build("lead.suppressed"))).toBe("transfer:tr_1");
    const test = build("test");
    expect(webhookEventSubject(test)).toBe(`test:${test.id}`);
    expect(returnSubjectKind("transfer")).toBe("transfer");
  });

  it("lead.suppressed names the item, a masked number and a shared list only, never a buyer's private list", () => {
    expect(build("lead.suppressed").data).toMatchObject({ phone: "(214) ***-****", list: { kind: "national_dnc" } });
    const privateList = { ...SAMPLES["lead.suppressed"], list: { kind: "buyer_private" } };
    expect(() =>
      buildWebhookEvent("lead.suppressed", privateList as WebhookDataInput<"lead.suppressed">, {
        id: newWebhookEventId(),
        createdAt: AT,
      }),
    ).toThrow(/kind/);
  });
});

describe("the OpenAPI 3.1 webhooks section", () => {
  const { webhooks, components } = webhooksOpenApi();

  it("has one POST per event type, its body a $ref to the event's schema, signed", () => {
    expect(Object.keys(webhooks)).toEqual([...ALL_WEBHOOK_EVENT_TYPES]);
    for (const type of ALL_WEBHOOK_EVENT_TYPES) {
      const post = webhooks[type]?.post;
      expect(post?.requestBody.content["application/json"].schema.$ref).toBe(
        `#/components/schemas/${WEBHOOK_SCHEMA_NAMES[type]}`,
      );
      expect(post?.parameters[0]).toMatchObject({ name: "Webhook-Signature", in: "header", required: true });
      expect(Object.keys(post?.responses ?? {})).toEqual(["2XX", "default"]);
    }
  });

  it("describes each payload as JSON Schema generated from the zod schemas, shared parts as components", () => {
    const lead = components.schemas.LeadPurchasedEvent as {
      required: string[];
      properties: { type: unknown; data: { properties: Record<string, unknown> } };
    };
    expect(lead.required).toEqual(["id", "type", "createdAt", "apiVersion", "data"]);
    expect(lead.properties.type).toEqual({ type: "string", const: "lead.purchased" });
    expect(lead.properties.data.properties.consent).toEqual({ $ref: "#/components/schemas/WebhookConsent" });
    expect(components.schemas.WebhookConsent).toMatchObject({
      type: "object",
      required: expect.arrayContaining(["jornayaLeadId"]),
    });
    const text = JSON.stringify(components.schemas);
    expect(text).not.toContain('"additionalProperties":false');
    expect(text).not.toContain("$schema");
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
    // Every $ref points at a schema that is there.
    for (const [, name] of text.matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)) {
      expect(components.schemas, name).toHaveProperty(name ?? "");
    }
  });

  it("documents lead.purchased's consent object: the evidence and the certificate's status (docs/decisions/0054)", () => {
    const consent = components.schemas.WebhookConsent as {
      required: string[];
      properties: Record<string, { enum?: string[]; description?: string }>;
    };
    expect(Object.keys(consent.properties)).toEqual([...CONSENT_FIELDS, "certificate"]);
    expect(consent.required).toEqual([...CONSENT_FIELDS, "certificate"]);
    expect(consent.properties.certificate?.enum).toEqual([...CERTIFICATE_STATUSES]);
    for (const status of CERTIFICATE_STATUSES) {
      expect(consent.properties.certificate?.description).toContain(CERTIFICATE_STATUS_LABELS[status]);
    }
  });

  it("merges into a 3.1 document that @hono/zod-openapi generates", () => {
    const app = new OpenAPIHono();
    const base = app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "Shop", version: "1" } });
    const document = { ...base, webhooks, components: { ...base.components, schemas: { ...components.schemas } } };
    const json = JSON.parse(JSON.stringify(document));
    expect(json.openapi).toBe("3.1.0");
    expect(Object.keys(json.webhooks)).toHaveLength(ALL_WEBHOOK_EVENT_TYPES.length);
    expect(json.components.schemas.TransferBillableEvent.properties.data.properties.billable).toEqual({
      type: "boolean",
      const: true,
    });
  });
});

describe("docs/webhooks.md", () => {
  const docs = readFileSync(new URL("../../../../docs/webhooks.md", import.meta.url), "utf8");

  it("lists every event and the API version", () => {
    for (const type of ALL_WEBHOOK_EVENT_TYPES) expect(docs, type).toContain(`\`${type}\``);
    expect(docs).toContain(WEBHOOK_API_VERSION);
  });

  it("shows the retry schedule the code runs", () => {
    const offsets = nominalRetrySchedule();
    const rows = [...docs.matchAll(/^\| (\d+) +\| ([^|]+?) +\|/gm)].map(([, n, at]) => [Number(n), at]);
    const label = (ms: number) => {
      const minutes = Math.round(ms / 60_000);
      const [d, h, m] = [Math.floor(minutes / 1440), Math.floor((minutes % 1440) / 60), minutes % 60];
      return [d && `${d} d`, h && `${h} h`, m && `${m} min`].filter(Boolean).join(" ") || "0";
    };
    expect(rows).toEqual(offsets.map((offset, i) => [i + 1, i === 0 ? "at once" : label(offset)]));
  });
});
