/** /admin-orders (`GET /api/transfer-orders`; product rules 8, 45): every live-transfer order and its status changes. */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { ORDER_TRANSITIONS, parseStates, type TransferOrderView } from "../../../src/domain/schemas/dashboard";
import { orders, users } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError, NotFoundError } from "../../errors";
import { orderBuyer, orderCompletedFact, webhookRecording } from "../webhook-outbox/index";
import { deliveryViews } from "./delivery-setup";

/**
 * Live transfers, whichever screen sold them: dashboard orders, pricing packages, and both surveys'
 * transfer orders. Raw SQL because drizzle has no json_extract.
 */
const LIVE_TRANSFER_ORDERS = sql`(${orders.kind} IN ('transfer', 'package')
  OR (${orders.kind} = 'survey' AND json_extract(${orders.details}, '$.leadType') = 'Live Transfers')
  OR (${orders.kind} = 'ringcloud' AND json_extract(${orders.details}, '$.packageType') = 'live_transfers'))`;

const text = (value: unknown) => (typeof value === "string" ? value : "");

interface OrderRow {
  id: string;
  kind: string;
  quantity: number;
  totalCents: number;
  status: TransferOrderView["status"];
  disputedAt: Date | null;
  disputeReason: string | null;
  createdAt: Date;
  email: string | null;
  details: Record<string, unknown>;
  firstName: string | null;
  lastName: string | null;
  userPhone: string | null;
}

function toView(row: OrderRow): Omit<TransferOrderView, "delivery"> {
  const details = row.details;
  const states = Array.isArray(details.selectedStates)
    ? details.selectedStates.map(String)
    : parseStates(text(details.workingStates) || text(details.state));
  const perDay = details.callsPerDay ?? details.transfersPerDay;
  return {
    id: row.id,
    kind: row.kind,
    firstName: text(details.firstName) || row.firstName || "",
    lastName: text(details.lastName) || row.lastName || "",
    transferNumber: text(details.transferPhone),
    phone: text(details.phone) || row.userPhone || "",
    email: row.email ?? "",
    totalTransfers: row.quantity,
    transfersPerDay: typeof perDay === "number" ? perDay : null,
    selectedStates: states,
    totalPrice: row.totalCents / 100, // spec-fixed name (admin transfer-order view), in dollars
    status: row.status,
    disputedAt: row.disputedAt === null ? null : row.disputedAt.toISOString(),
    disputeReason: row.disputeReason,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Every live-transfer order, newest first, with its delivery settings. */
export async function listTransferOrders(deps: Deps): Promise<TransferOrderView[]> {
  const rows = await deps.db
    .select({
      id: orders.id,
      kind: orders.kind,
      quantity: orders.quantity,
      totalCents: orders.totalCents,
      status: orders.status,
      disputedAt: orders.disputedAt,
      disputeReason: orders.disputeReason,
      createdAt: orders.createdAt,
      email: orders.email,
      details: orders.details,
      firstName: users.firstName,
      lastName: users.lastName,
      userPhone: users.phone,
    })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(LIVE_TRANSFER_ORDERS)
    .orderBy(desc(orders.createdAt));
  const deliveries = await deliveryViews(deps);
  return rows.map((row) => ({ ...toView(row), delivery: deliveries.get(row.id) ?? null }));
}

/**
 * Moves a live-transfer order to `status` when its current status allows it (ORDER_TRANSITIONS), atomically
 * (a completion with its buyer's `order.completed` webhook).
 */
export async function changeTransferOrderStatus(deps: Deps, orderId: string, status: keyof typeof ORDER_TRANSITIONS) {
  const { db, now } = deps;
  const hooks = await webhookRecording(
    deps,
    status === "completed" ? orderCompletedFact({ id: orderId, userId: orderBuyer(orderId) }, now) : [],
  );
  const results = await db.batch([
    db
      .update(orders)
      .set({ status, updatedAt: new Date(now) })
      .where(and(eq(orders.id, orderId), inArray(orders.status, [...ORDER_TRANSITIONS[status]]), LIVE_TRANSFER_ORDERS))
      .returning({ id: orders.id }),
    ...hooks.statements,
  ]);
  await hooks.enqueue(deps, results);
  if (results[0].length > 0) return;
  const [order] = await db
    .select({ status: orders.status })
    .from(orders)
    .where(and(eq(orders.id, orderId), LIVE_TRANSFER_ORDERS));
  if (!order) throw new NotFoundError("Order not found");
  throw new ConflictError(`A ${order.status} order cannot become ${status}.`);
}
