/**
 * The facts buyer webhooks tell of, as the services that write them hand them to `webhookRecording`
 * (./record.ts): each names its buyer, its subjects, the natural key of its event id and the SQL that
 * says the fact happened in the batch it joins (a status written with that batch's own time).
 */
import { type SQL, sql } from "drizzle-orm";
import type { WebhookFact } from "./record";

/** An order became paid at `at` (its leads sold with it, for an aged-lead order). */
export function orderPaidFacts(
  order: { id: string; userId: string | null; leadIds?: readonly string[] | null },
  at: number,
): WebhookFact[] {
  if (!order.userId) return [];
  const paidNow = sql`EXISTS (SELECT 1 FROM orders o WHERE o.id = ${order.id} AND o.status = 'paid' AND o.paid_at = ${at})`;
  const facts: WebhookFact[] = [
    {
      type: "order.paid",
      userId: order.userId,
      at,
      subjects: [{ subjectId: order.id, idKeys: [order.id] }],
      when: () => paidNow,
    },
  ];
  return facts.concat(leadsPurchasedFacts({ ...order, leadIds: order.leadIds ?? [] }, at));
}

/** An order's aged leads were sold with it at `at` (each recorded only if it did go to the order). */
export function leadsPurchasedFacts(
  order: { id: string; userId: string | null; leadIds: readonly string[] },
  at: number,
): WebhookFact[] {
  if (!order.userId || order.leadIds.length === 0) return [];
  return [
    {
      type: "lead.purchased",
      userId: order.userId,
      at,
      subjects: order.leadIds.map((leadId) => ({ subjectId: leadId, idKeys: [order.id, leadId] })),
      when: (leadId) =>
        sql`EXISTS (SELECT 1 FROM aged_leads a WHERE a.id = ${leadId} AND a.sold_order_id = ${order.id} AND a.sold_at = ${at})`,
    },
  ];
}

/** The order completed at `at` (every transfer delivered, or an admin completed it). */
export function orderCompletedFact(order: { id: string; userId: string | null | SQL }, at: number): WebhookFact[] {
  if (order.userId === null) return [];
  return [
    {
      type: "order.completed",
      userId: order.userId,
      at,
      // An order reopened by a return can complete again: each completion is its own event.
      subjects: [{ subjectId: order.id, idKeys: [order.id, String(at)] }],
      when: () =>
        sql`EXISTS (SELECT 1 FROM orders o WHERE o.id = ${order.id} AND o.status = 'completed' AND o.updated_at = ${at})`,
    },
  ];
}

/** The buyer of an order, read in the batch (for a transfer's order, known only by id). */
export const orderBuyer = (orderId: string): SQL => sql`(SELECT o.user_id FROM orders o WHERE o.id = ${orderId})`;

/** A transfer was routed (claimed) at `at`; its buyer is read from the row the claim inserted. */
export function transferRoutedFact(transferId: string, at: number): WebhookFact[] {
  return [
    {
      type: "transfer.routed",
      userId: sql`(SELECT t.buyer_user_id FROM transfers t WHERE t.id = ${transferId} AND t.routed_at = ${at})`,
      at,
      subjects: [{ subjectId: transferId, idKeys: [transferId] }],
      when: () => sql`1`,
    },
  ];
}

const transferNow = (transferId: string, condition: SQL) =>
  sql`EXISTS (SELECT 1 FROM transfers t WHERE t.id = ${transferId} AND ${condition})`;

/** The call was connected at `at`. */
function transferConnectedFact(transfer: { id: string; buyerUserId: string | null }, at: number): WebhookFact[] {
  if (!transfer.buyerUserId) return [];
  return [
    {
      type: "transfer.connected",
      userId: transfer.buyerUserId,
      at,
      subjects: [{ subjectId: transfer.id, idKeys: [transfer.id] }],
      when: () => transferNow(transfer.id, sql`t.status = 'connected' AND t.connected_at = ${at}`),
    },
  ];
}

/**
 * The call ended at `at`: billable, or not charged (within the buffer, unanswered, failed, expired).
 * Both facts join the batch; the ended row says which one happened. A transfer is not charged once:
 * a later end (a late `completed` after `no-answer`) keeps the first event's id.
 */
function transferEndedFacts(transfer: { id: string; buyerUserId: string | null }, at: number): WebhookFact[] {
  if (!transfer.buyerUserId) return [];
  const subjects = [{ subjectId: transfer.id, idKeys: [transfer.id] }];
  const ended = sql`t.ended_at = ${at} AND t.status NOT IN ('routed', 'connected')`;
  return [
    {
      type: "transfer.billable",
      userId: transfer.buyerUserId,
      at,
      subjects,
      when: () => transferNow(transfer.id, sql`${ended} AND t.billable = 1`),
    },
    {
      type: "transfer.not_charged",
      userId: transfer.buyerUserId,
      at,
      subjects,
      when: () => transferNow(transfer.id, sql`${ended} AND t.billable = 0`),
    },
  ];
}

/** What a dialer's event on a transfer may set off (the batch's SQL says which did). */
export function transferEventFacts(
  transfer: { id: string; orderId: string; buyerUserId: string | null },
  type: "connected" | "completed" | "no-answer" | "failed",
  at: number,
): WebhookFact[] {
  if (type === "connected") return transferConnectedFact(transfer, at);
  const ended = transferEndedFacts(transfer, at);
  return type === "completed"
    ? [...ended, ...orderCompletedFact({ id: transfer.orderId, userId: transfer.buyerUserId }, at)]
    : ended;
}

/** An admin decided the return at `at`. */
export function returnDecidedFact(
  decision: { returnId: string; buyerUserId: string; adminId: string; status: "approved" | "denied" },
  at: number,
): WebhookFact[] {
  return [
    {
      type: "return.decided",
      userId: decision.buyerUserId,
      at,
      subjects: [{ subjectId: decision.returnId, idKeys: [decision.returnId] }],
      when: () =>
        sql`EXISTS (SELECT 1 FROM returns r WHERE r.id = ${decision.returnId} AND r.status = ${decision.status}
          AND r.decided_by = ${decision.adminId} AND r.decided_at = ${at})`,
    },
  ];
}

/**
 * A call-back or an appointment was placed in order `orderId` at `at` (docs/decisions/0060). Its buyer is
 * read from the row the placement updated, so a placement that lost (or found the call-back placed
 * already) records nothing; its event id is the call-back's, so one call-back is told of once.
 */
export function callbackDeliveredFact(
  callback: { id: string; kind: "callback" | "appointment" },
  orderId: string,
  at: number,
): WebhookFact[] {
  return [
    {
      type: callback.kind === "appointment" ? "appointment.delivered" : "callback.delivered",
      userId: sql`(SELECT c.buyer_user_id FROM callback_opportunities c
        WHERE c.id = ${callback.id} AND c.order_id = ${orderId} AND c.delivered_at = ${at})`,
      at,
      subjects: [{ subjectId: callback.id, idKeys: [callback.id] }],
      when: () => sql`1`,
    },
  ];
}
