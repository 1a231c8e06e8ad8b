/**
 * Order per subject (decision 0037): a delivery waits while an earlier one of its subject to the same
 * endpoint is still open (`waitsFor`); when a delivery is settled, the ones that waited behind it are
 * handed to the Queue. Only subjects with several event types (a transfer, an order) need the check:
 * a lead has one event, so a 10,000-lead purchase reads nothing more.
 */
import { sql } from "drizzle-orm";
import {
  type AnyWebhookEventType,
  WEBHOOK_SUBJECT_OF,
  type WebhookSubjectKind,
} from "../../../src/features/webhook-outbox/index";
import { type DeliveryStatus, type OrderedDelivery, waitsFor } from "../../../src/features/webhooks/delivery";
import { webhookDeliveries } from "../../db/schema";
import type { Deps } from "../../deps";

const kindCounts = new Map<WebhookSubjectKind, number>();
for (const kind of Object.values(WEBHOOK_SUBJECT_OF)) kindCounts.set(kind, (kindCounts.get(kind) ?? 0) + 1);

/** True for a subject (`transfer:<id>`) whose kind has more than one event type. */
export const subjectIsOrdered = (subject: string) =>
  (kindCounts.get(subject.slice(0, subject.indexOf(":")) as WebhookSubjectKind) ?? 0) > 1;

export interface OpenDelivery {
  eventId: string;
  endpointId: string;
  type: AnyWebhookEventType;
  subject: string;
  eventCreatedAt: Date;
  status: DeliveryStatus;
  nextAttemptAt: Date;
  leasedUntil: Date | null;
}

const toOrdered = (row: OpenDelivery): OrderedDelivery => ({
  eventId: row.eventId,
  type: row.type,
  subject: row.subject,
  createdAt: row.eventCreatedAt.getTime(),
  status: row.status,
});

const laneKey = (row: { endpointId: string; subject: string }) => `${row.endpointId} ${row.subject}`;

/** The open deliveries of each (endpoint, subject) lane named, by lane. */
export async function openLanes(
  deps: Deps,
  lanes: readonly { endpointId: string; subject: string }[],
): Promise<Map<string, OpenDelivery[]>> {
  const byLane = new Map<string, OpenDelivery[]>();
  const wanted = [...new Map(lanes.filter((lane) => subjectIsOrdered(lane.subject)).map((l) => [laneKey(l), l]))];
  if (wanted.length === 0) return byLane;
  const list = JSON.stringify(wanted.map(([, lane]) => [lane.endpointId, lane.subject]));
  const rows = await deps.db
    .select({
      eventId: webhookDeliveries.eventId,
      endpointId: webhookDeliveries.endpointId,
      type: webhookDeliveries.type,
      subject: webhookDeliveries.subject,
      eventCreatedAt: webhookDeliveries.eventCreatedAt,
      status: webhookDeliveries.status,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      leasedUntil: webhookDeliveries.leasedUntil,
    })
    .from(webhookDeliveries)
    .where(
      sql`${webhookDeliveries.status} IN ('pending', 'retrying') AND (${webhookDeliveries.endpointId}, ${webhookDeliveries.subject})
        IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(${list}))`,
    );
  for (const row of rows) {
    const lane = byLane.get(laneKey(row));
    if (lane) lane.push(row);
    else byLane.set(laneKey(row), [row]);
  }
  return byLane;
}

/** The open delivery `row` must wait for, or null when it may go now. */
export function blockerOf(row: OpenDelivery, lanes: Map<string, OpenDelivery[]>): OpenDelivery | null {
  const lane = lanes.get(laneKey(row)) ?? [];
  const blocker = waitsFor(toOrdered(row), lane.map(toOrdered));
  return blocker ? (lane.find((other) => other.eventId === blocker.eventId) ?? null) : null;
}

/**
 * After some deliveries were settled: the open ones of their lanes that no longer wait, with the delay
 * until they are due (0 when due now), to hand to the Queue.
 */
export async function freedFollowers(
  deps: Deps,
  settled: readonly { endpointId: string; subject: string }[],
): Promise<{ eventId: string; endpointId: string; delaySeconds: number }[]> {
  const lanes = await openLanes(deps, settled);
  const freed: { eventId: string; endpointId: string; delaySeconds: number }[] = [];
  for (const lane of lanes.values()) {
    for (const row of lane) {
      if (row.leasedUntil && row.leasedUntil.getTime() > deps.now) continue;
      if (blockerOf(row, lanes)) continue;
      const delaySeconds = Math.max(0, Math.ceil((row.nextAttemptAt.getTime() - deps.now) / 1000));
      freed.push({ eventId: row.eventId, endpointId: row.endpointId, delaySeconds });
    }
  }
  return freed;
}
