/**
 * Live transfers, the dialer's events: each event is recorded once;
 * `completed` bills a call by the buffer only while the transfer still holds its slot (a routed answer
 * within its 60 seconds, a connected call within its 4 hours), and only while its order has a transfer
 * left; fully delivered orders complete themselves; unanswered calls may pause their order.
 *
 * A transfer's slot is `expires_at` (decision 0014). A `connected` or `completed` that arrives after it
 * passed is recorded and refused with a 409 naming why (EVENT_REFUSALS): the slot may already serve
 * another caller, so billing it could pass what the buyer bought (decision 0026).
 */
import { and, eq, gt, inArray, lte, sql } from "drizzle-orm";
import type { TransferEventInput, TransferView } from "../../../src/features/transfers/schemas/partner-api";
import {
  CONNECTED_HOLD_SECONDS,
  EVENT_REFUSALS,
  type EventRefusal,
  isBillable,
  NOT_CHARGED_LABEL,
  type TransferEventType,
  type TransferStatus,
} from "../../../src/features/transfers/transfers";
import type { Database } from "../../db/client";
import { orderDelivery, orders, transferEvents, transfers } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError, NotFoundError } from "../../errors";
import { transferEventFacts, webhookRecording } from "../webhook-outbox/index";
import { pauseIfUnanswered } from "./no-answer-pauses";

export type { TransferEventInput, TransferView };

function effectiveStatus(row: { status: TransferStatus; expiresAt: Date }, now: number): TransferStatus {
  return row.status === "routed" && row.expiresAt.getTime() <= now ? "expired" : row.status;
}

const OUTCOMES: Record<TransferStatus, string> = {
  routed: "in progress",
  connected: "in progress",
  completed: "billable",
  no_answer: "no answer",
  failed: "failed",
  expired: "expired",
};

export function transferView(row: typeof transfers.$inferSelect, now: number): TransferView {
  const status = effectiveStatus(row, now);
  return {
    transferId: row.id,
    status,
    routedAt: row.routedAt.toISOString(),
    state: row.state,
    durationSeconds: row.durationSeconds,
    billable: row.billable,
    outcome: status === "completed" && !row.billable ? NOT_CHARGED_LABEL : OUTCOMES[status],
  };
}

async function partnersTransfer(deps: Deps, partnerId: string, transferId: string) {
  const row = await deps.db.query.transfers.findFirst({
    where: and(eq(transfers.id, transferId), eq(transfers.partnerId, partnerId)),
  });
  if (!row) throw new NotFoundError("No such transfer.");
  return row;
}

/** One of the partner's own transfers; another partner's or an unknown id is 404. */
export async function getTransfer(deps: Deps, partnerId: string, transferId: string): Promise<TransferView> {
  return transferView(await partnersTransfer(deps, partnerId, transferId), deps.now);
}

/**
 * The stored statuses each event may move a transfer from (the first ending wins; later ones change
 * nothing). `connected` and `completed` also need the slot still held (`expires_at` ahead); `no-answer`
 * and `failed` end a transfer whatever its slot, which also ends its count as a contact.
 */
const FROM: Record<TransferEventType, TransferStatus[]> = {
  connected: ["routed"],
  completed: ["routed", "connected"],
  "no-answer": ["routed"],
  failed: ["routed", "connected"],
};

/** Events that need the transfer's slot: without it they are refused, and never billed. */
const NEEDS_SLOT: ReadonlySet<TransferEventType> = new Set(["connected", "completed"]);

/** Why a slot-needing event on this transfer is refused now, or null while its slot is held. */
function refusal(row: typeof transfers.$inferSelect, now: number): EventRefusal | null {
  const held = (row.status === "routed" || row.status === "connected") && row.expiresAt.getTime() > now;
  if (held) return null;
  return row.connectedAt && row.status !== "routed" ? "hold_expired" : "expired";
}

/**
 * Applies a dialer's event once. A repeated event changes nothing; an event that arrives after the
 * call ended (or `connected` after `completed`) is recorded and changes nothing. `connected` or
 * `completed` after the transfer's slot was released (an answer past its 60 seconds, a connected call
 * past its 4 hours) is recorded and refused with a 409: the transfer is never billed. A late `completed`
 * ends the transfer as `expired`; it stays a contact for the duplicate rule.
 */
export async function recordTransferEvent(
  deps: Deps,
  partnerId: string,
  transferId: string,
  event: TransferEventInput,
  options: { siteOrigin: string },
): Promise<TransferView> {
  const { db, now } = deps;
  const transfer = await partnersTransfer(deps, partnerId, transferId);
  const { type, ...payload } = event;
  const record = db
    .insert(transferEvents)
    .values({ transferId, type, receivedAt: new Date(now), payload })
    .onConflictDoNothing();
  // The event and its effect in one transaction. `changes()` is the row count of the statement just
  // before in the batch: the effect applies only when this batch recorded the event (a repeat does not).
  const recordedNow = sql`changes() = 1`;
  const from = (statuses: TransferStatus[]) => inArray(transfers.status, statuses);
  const ended = { endedAt: new Date(now), expiresAt: new Date(now) };

  // The buyer's webhooks (transfer.connected, .billable, .not_charged, order.completed) join the batch.
  const hooks = await webhookRecording(deps, transferEventFacts(transfer, type, now));
  const late = NEEDS_SLOT.has(type) && (transfer.status === "expired" || FROM[type].includes(transfer.status));
  const refused = late ? refusal(transfer, now) : null;
  if (refused) {
    if (event.type === "completed") {
      const results = await db.batch([
        record,
        db
          .update(transfers)
          .set({
            status: "expired",
            durationSeconds: event.durationSeconds,
            recordingUrl: event.recordingUrl ?? null,
            endedAt: new Date(now),
          })
          .where(
            and(
              eq(transfers.id, transferId),
              from(FROM.completed),
              lte(transfers.expiresAt, new Date(now)),
              recordedNow,
            ),
          ),
        ...hooks.statements,
      ]);
      await hooks.enqueue(deps, results);
    } else {
      await record;
    }
    throw new ConflictError(EVENT_REFUSALS[refused], { reason: refused });
  }
  if (!FROM[type].includes(transfer.status)) {
    // After the call ended (or a repeat): recorded, without effect.
    await record;
    return transferView(transfer, now);
  }

  const mine = and(eq(transfers.id, transferId), from(FROM[type]), recordedNow);
  const slotHeld = gt(transfers.expiresAt, new Date(now));
  let results: readonly unknown[] = [];
  if (type === "connected") {
    results = await db.batch([
      record,
      db
        .update(transfers)
        .set({
          status: "connected",
          connectedAt: new Date(now),
          expiresAt: new Date(now + CONNECTED_HOLD_SECONDS * 1000),
        })
        .where(and(mine, slotHeld))
        .returning(),
      ...hooks.statements,
    ]);
  } else if (event.type === "completed") {
    results = await db.batch([record, ...completion(db, transfer, event, now), ...hooks.statements]);
  } else {
    results = await db.batch([
      record,
      db
        .update(transfers)
        .set({ status: type === "no-answer" ? "no_answer" : "failed", ...ended })
        .where(mine)
        .returning(),
      ...hooks.statements,
    ]);
  }
  const [, [updated]] = results as [unknown, (typeof transfers.$inferSelect)[]];
  await hooks.enqueue(deps, results);
  if (updated && type === "no-answer") await pauseIfUnanswered(deps, transfer.orderId, options.siteOrigin);
  if (updated) return transferView(updated, now);
  // A repeat, or a concurrent event ended the call first: the transfer as it is now.
  return transferView(await partnersTransfer(deps, partnerId, transferId), now);
}

/**
 * The statements that end a call reported `completed` while it holds its slot (to follow the event's
 * insert in one batch):
 * 1. the transfer ends, billable when it lasted longer than the buffer AND its order has a transfer left
 *    (read in the same statement), only if this batch recorded the event and the slot is still held;
 * 2. the order's billable or not-charged count moves by that outcome, only if statement 1 ended the call,
 *    and the billable one only while it stays within the order's total (the triggers of migration 0014
 *    refuse anything else, whoever writes);
 * 3. the order completes itself once every transfer it bought is billable-delivered.
 */
function completion(
  db: Database,
  transfer: typeof transfers.$inferSelect,
  event: Extract<TransferEventInput, { type: "completed" }>,
  now: number,
) {
  const { orderId } = transfer;
  const roomLeft = sql`EXISTS (SELECT 1 FROM order_delivery WHERE order_id = ${orderId}
    AND transfers_billable < transfers_total)`;
  const billed = sql<number>`(SELECT billable FROM transfers WHERE id = ${transfer.id})`;
  return [
    db
      .update(transfers)
      .set({
        status: "completed",
        durationSeconds: event.durationSeconds,
        billable: isBillable(event.durationSeconds) ? sql`${roomLeft}` : false,
        recordingUrl: event.recordingUrl ?? null,
        connectedAt: transfer.connectedAt ?? new Date(now - event.durationSeconds * 1000),
        endedAt: new Date(now),
        expiresAt: new Date(now),
      })
      .where(
        and(
          eq(transfers.id, transfer.id),
          inArray(transfers.status, FROM.completed),
          gt(transfers.expiresAt, new Date(now)),
          sql`changes() = 1`,
        ),
      )
      .returning(),
    db
      .update(orderDelivery)
      .set({
        transfersBillable: sql`${orderDelivery.transfersBillable} + ${billed}`,
        transfersNotCharged: sql`${orderDelivery.transfersNotCharged} + 1 - ${billed}`,
        updatedAt: new Date(now),
      })
      .where(
        and(
          eq(orderDelivery.orderId, orderId),
          sql`changes() = 1`,
          sql`${orderDelivery.transfersBillable} + ${billed} <= ${orderDelivery.transfersTotal}`,
        ),
      ),
    db
      .update(orders)
      .set({ status: "completed", updatedAt: new Date(now) })
      .where(
        and(
          eq(orders.id, orderId),
          eq(orders.status, "paid"),
          sql`EXISTS (SELECT 1 FROM order_delivery WHERE order_id = ${orderId}
                      AND transfers_billable >= transfers_total)`,
        ),
      ),
  ] as const;
}
