/**
 * Each event's body, built before its first attempt from the rows of the fact it tells of, as of the
 * event (a `transfer.routed` says `routed` even if the call has ended since), through the payload
 * schemas (src/features/webhooks/schemas/webhooks.ts) the OpenAPI document is generated from. The body is then kept
 * (`webhook_events.payload`), so retries and resends send the same bytes.
 */
import { type AnyColumn, sql } from "drizzle-orm";
import type { TransferStatus } from "../../../src/features/transfers/index";
import type { AnyWebhookEventType } from "../../../src/features/webhook-outbox/index";
import {
  buildWebhookEvent,
  returnSubjectKind,
  type WebhookDataInput,
} from "../../../src/features/webhooks/schemas/webhooks";
import { agedLeads, callbackOpportunities, orders, returns, transfers } from "../../db/schema";
import type { Deps } from "../../deps";
import { checkLeadCertificates, purchasedLeadConsent } from "../consent/index";
import { type EventRow, revocationBuilder } from "./revocation-payloads";

export type { EventRow } from "./revocation-payloads";

/** `column IN (…ids)` as one bound JSON value: a batch holds up to 100 ids, and D1 binds at most 100 parameters. */
export const inJson = (column: AnyColumn, ids: readonly string[]) =>
  sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

type Builder = (row: EventRow) => unknown | null;

async function leadBuilder(deps: Deps, ids: string[]): Promise<Builder> {
  const rows = await deps.db.select().from(agedLeads).where(inJson(agedLeads.id, ids));
  const byId = new Map(rows.map((row) => [row.id, row]));
  // A sold lead's certificate is claimed before its first payload, when a provider is set up.
  const checks = await checkLeadCertificates(
    deps,
    rows.filter((row) => row.soldAt),
  );
  return (event) => {
    const lead = byId.get(event.subjectId);
    if (!lead?.soldAt || !lead.soldOrderId) return null;
    return {
      leadId: lead.id,
      orderId: lead.soldOrderId,
      name: lead.name,
      email: lead.email,
      phone: lead.phone,
      state: lead.state,
      formFillTime: iso(lead.formFillTime),
      purchasedAt: lead.soldAt.toISOString(),
      // The same consent object as My Leads and its CSV (product rule 39, docs/decisions/0054).
      consent: purchasedLeadConsent({ ...lead, certificateCheck: checks.get(lead.id) ?? lead.certificateCheck }),
    } satisfies WebhookDataInput<"lead.purchased">;
  };
}

/** What a transfer ended as, for `transfer.not_charged` (a routed answer left to run out is expired). */
const endedStatus = (status: TransferStatus) => (status === "routed" || status === "connected" ? "expired" : status);

async function transferBuilder(deps: Deps, ids: string[]): Promise<Builder> {
  const rows = await deps.db.select().from(transfers).where(inJson(transfers.id, ids));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return (event) => {
    const t = byId.get(event.subjectId);
    if (!t) return null;
    const base = { transferId: t.id, orderId: t.orderId, state: t.state, routedAt: t.routedAt.toISOString() };
    const prospect = { firstName: t.firstName, lastName: t.lastName, phone: t.phone };
    const ended = {
      connectedAt: iso(t.connectedAt),
      endedAt: iso(t.endedAt),
      durationSeconds: t.durationSeconds,
      recordingUrl: t.recordingUrl,
    };
    switch (event.type) {
      case "transfer.routed":
        return {
          ...base,
          connectedAt: null,
          endedAt: null,
          durationSeconds: null,
          status: "routed",
          billable: false,
        } satisfies WebhookDataInput<"transfer.routed">;
      case "transfer.connected":
        return {
          ...base,
          connectedAt: iso(t.connectedAt),
          endedAt: null,
          durationSeconds: null,
          status: "connected",
          billable: false,
          prospect,
        } satisfies WebhookDataInput<"transfer.connected">;
      case "transfer.billable":
        return {
          ...base,
          ...ended,
          status: "completed",
          billable: true,
          prospect,
        } satisfies WebhookDataInput<"transfer.billable">;
      default:
        return {
          ...base,
          ...ended,
          endedAt: iso(t.endedAt ?? event.createdAt),
          status: endedStatus(t.status),
          billable: false,
        } satisfies WebhookDataInput<"transfer.not_charged">;
    }
  };
}

async function orderBuilder(deps: Deps, ids: string[]): Promise<Builder> {
  const rows = await deps.db.select().from(orders).where(inJson(orders.id, ids));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return (event) => {
    const order = byId.get(event.subjectId);
    if (!order) return null;
    const completed = event.type === "order.completed";
    return {
      orderId: order.id,
      kind: order.kind,
      quantity: order.quantity,
      totalCents: order.totalCents,
      status: completed ? "completed" : "paid",
      paidAt: iso(order.paidAt),
      completedAt: completed ? event.createdAt.toISOString() : null,
    } satisfies WebhookDataInput<"order.paid">;
  };
}

async function returnBuilder(deps: Deps, ids: string[]): Promise<Builder> {
  const rows = await deps.db.select().from(returns).where(inJson(returns.id, ids));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return (event) => {
    const row = byId.get(event.subjectId);
    if (!row || row.status === "pending" || !row.decidedAt) return null;
    return {
      returnId: row.id,
      subject: {
        kind: returnSubjectKind(row.kind),
        id: (row.transferId ?? row.agedLeadId ?? row.callbackId) as string,
      },
      decision: row.status,
      reason: row.reason,
      reasonText: row.reasonText,
      note: row.adminNote,
      decidedAt: row.decidedAt.toISOString(),
    } satisfies WebhookDataInput<"return.decided">;
  };
}

/** `callback.delivered` / `appointment.delivered`: the prospect, the window and the consent as stored. */
async function callbackBuilder(deps: Deps, ids: string[]): Promise<Builder> {
  const rows = await deps.db.select().from(callbackOpportunities).where(inJson(callbackOpportunities.id, ids));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return (event) => {
    const row = byId.get(event.subjectId);
    if (!row?.orderId || !row.deliveredAt || !row.windowStart || !row.windowEnd || !row.timeZone) return null;
    return {
      callbackId: row.id,
      kind: row.kind,
      orderId: row.orderId,
      prospect: { name: row.name, phone: row.phone, email: row.email || null, state: row.state, zip: row.zip },
      window: { start: row.windowStart.toISOString(), end: row.windowEnd.toISOString(), timeZone: row.timeZone },
      deliveredAt: row.deliveredAt.toISOString(),
      consent: purchasedLeadConsent({ ...row, certificateCheck: null }),
    } satisfies WebhookDataInput<"callback.delivered">;
  };
}

const BUILDERS: Partial<Record<AnyWebhookEventType, (deps: Deps, ids: string[]) => Promise<Builder>>> = {
  "lead.purchased": leadBuilder,
  "transfer.routed": transferBuilder,
  "transfer.connected": transferBuilder,
  "transfer.billable": transferBuilder,
  "transfer.not_charged": transferBuilder,
  "order.paid": orderBuilder,
  "order.completed": orderBuilder,
  "return.decided": returnBuilder,
  "callback.delivered": callbackBuilder,
  "appointment.delivered": callbackBuilder,
  "lead.suppressed": revocationBuilder,
};

/**
 * The JSON body of each event, by id; an event whose fact's row is gone (null) cannot be sent. One read
 * per kind of subject among `events`.
 */
export async function buildPayloads(deps: Deps, events: readonly EventRow[]): Promise<Map<string, string | null>> {
  const bodies = new Map<string, string | null>();
  const byBuilder = new Map<(deps: Deps, ids: string[]) => Promise<Builder>, EventRow[]>();
  for (const event of events) {
    const builder = BUILDERS[event.type];
    if (!builder) {
      bodies.set(event.id, null);
      continue;
    }
    const group = byBuilder.get(builder);
    if (group) group.push(event);
    else byBuilder.set(builder, [event]);
  }
  for (const [load, group] of byBuilder) {
    const build = await load(deps, [...new Set(group.map((event) => event.subjectId))]);
    for (const event of group) {
      const data = build(event);
      bodies.set(
        event.id,
        data === null
          ? null
          : JSON.stringify(
              buildWebhookEvent(event.type, data as WebhookDataInput<typeof event.type>, {
                id: event.id,
                createdAt: event.createdAt,
              }),
            ),
      );
    }
  }
  return bodies;
}
