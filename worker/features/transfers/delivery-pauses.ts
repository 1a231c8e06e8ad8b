/**
 * Pausing a live-transfer order's deliveries (product rule 21, decision 0027). A paused
 * order is left out of routing (the routing index follows `order_delivery.paused` through its trigger).
 *
 * - The buyer pauses and resumes their own order with one click.
 * - NO_ANSWER_PAUSE_COUNT unanswered transfers within the hour (counted since the last system pause was
 *   lifted) pause it as the system: the buyer resumes only by confirming or changing the transfer number,
 *   and the third system pause within 24 hours only an admin can lift.
 * A buyer's pause never replaces a system pause, so it cannot be used to skip the confirmation.
 * The system's pause is in ./no-answer-pauses; the actions here answer with the
 * Lead Tracker's view.
 */
import { and, eq, isNull, or, sql } from "drizzle-orm";
import { normalizeUsPhone } from "../../../src/domain/phone";
import { PAUSE_REASONS, type PauseLift, RESUME_REFUSALS } from "../../../src/features/transfers/delivery-pauses";
import type { TrackerOrder } from "../../../src/features/transfers/order-progress";
import type { Database } from "../../db/client";
import { orderDelivery, orders, systemPauses } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError, NotFoundError } from "../../errors";
import { buyersOrder, orderProgressSelect, todayCounts, toTrackerOrder } from "./tracker";

const running = { paused: false, pausedReason: null, pausedAt: null, pauseKind: null, pauseNeedsAdmin: false } as const;

/** One order's progress as the Lead Tracker shows it. */
async function orderView(deps: Deps, orderId: string): Promise<TrackerOrder> {
  const [row] = await orderProgressSelect(deps).where(eq(orders.id, orderId));
  if (!row) throw new NotFoundError("No such order.");
  const today = await todayCounts(deps, [orderId]);
  return toTrackerOrder(row, today.get(orderId) ?? 0);
}

async function deliveryOf(db: Database, orderId: string) {
  const [delivery] = await db
    .select({
      paused: orderDelivery.paused,
      pauseKind: orderDelivery.pauseKind,
      pauseNeedsAdmin: orderDelivery.pauseNeedsAdmin,
      transferPhone: orderDelivery.transferPhone,
    })
    .from(orderDelivery)
    .where(eq(orderDelivery.orderId, orderId));
  if (!delivery) throw new NotFoundError("This order has no live-transfer deliveries.");
  return delivery;
}

const systemPaused = and(eq(orderDelivery.paused, true), eq(orderDelivery.pauseKind, "no_answer"));

/** Lifts the order's open system pause in the same batch, only if the statement before resumed the order. */
function liftStatement(db: Database, orderId: string, how: PauseLift, by: string, now: number) {
  return db
    .update(systemPauses)
    .set({ liftedAt: new Date(now), liftedBy: by, liftedHow: how })
    .where(and(eq(systemPauses.orderId, orderId), isNull(systemPauses.liftedAt), sql`changes() = 1`));
}

// ——— The buyer ———

/** Pauses deliveries to one of the buyer's orders; an order already paused (by anyone) stays as it is. */
export async function pauseDeliveries(deps: Deps, userId: string, orderId: string) {
  const { db, now } = deps;
  await buyersOrder(deps, userId, orderId);
  await deliveryOf(db, orderId);
  await db
    .update(orderDelivery)
    .set({
      paused: true,
      pausedReason: PAUSE_REASONS.buyer,
      pausedAt: new Date(now),
      pauseKind: "buyer",
      updatedAt: new Date(now),
    })
    .where(and(eq(orderDelivery.orderId, orderId), eq(orderDelivery.paused, false)));
  return orderView(deps, orderId);
}

/**
 * Resumes deliveries to one of the buyer's orders. A system pause needs the transfer number
 * (`transferPhone`: the same to confirm it, another to change it) and refuses with a 409 saying so
 * without it; a system pause that needs an admin refuses the buyer. A buyer's pause lifts with one click
 * (a number sent with it changes the transfer number too).
 */
export async function resumeDeliveries(
  deps: Deps,
  userId: string,
  orderId: string,
  input: { transferPhone?: string },
): Promise<TrackerOrder> {
  const { db, now } = deps;
  await buyersOrder(deps, userId, orderId);
  const phone = input.transferPhone ? normalizeUsPhone(input.transferPhone) : null;
  const delivery = await deliveryOf(db, orderId);
  if (delivery.paused && delivery.pauseKind === "no_answer") {
    if (delivery.pauseNeedsAdmin) {
      throw new ConflictError(RESUME_REFUSALS.needs_admin, { reason: "needs_admin" });
    }
    if (!phone) {
      throw new ConflictError(RESUME_REFUSALS.confirm_transfer_number, {
        reason: "confirm_transfer_number",
        transferPhone: delivery.transferPhone,
      });
    }
    const how: PauseLift = phone === delivery.transferPhone ? "number_confirmed" : "number_changed";
    const [[resumed]] = await db.batch([
      db
        .update(orderDelivery)
        .set({ ...running, transferPhone: phone, updatedAt: new Date(now) })
        .where(and(eq(orderDelivery.orderId, orderId), systemPaused, eq(orderDelivery.pauseNeedsAdmin, false)))
        .returning({ orderId: orderDelivery.orderId }),
      liftStatement(db, orderId, how, userId, now),
    ]);
    // An admin lifted it meanwhile (fine), or it needs an admin now: the refusal is read again.
    if (!resumed) await refuseIfSystemPaused(db, orderId);
    return orderView(deps, orderId);
  }
  const [resumed] = await db
    .update(orderDelivery)
    .set({ ...running, ...(phone ? { transferPhone: phone } : {}), updatedAt: new Date(now) })
    .where(
      and(
        eq(orderDelivery.orderId, orderId),
        or(eq(orderDelivery.paused, false), sql`coalesce(${orderDelivery.pauseKind}, 'buyer') = 'buyer'`),
      ),
    )
    .returning({ orderId: orderDelivery.orderId });
  // The system paused it between the read and the update: its rule applies.
  if (!resumed) return resumeDeliveries(deps, userId, orderId, input);
  return orderView(deps, orderId);
}

async function refuseIfSystemPaused(db: Database, orderId: string) {
  const delivery = await deliveryOf(db, orderId);
  if (!delivery.paused || delivery.pauseKind !== "no_answer") return;
  const reason = delivery.pauseNeedsAdmin ? "needs_admin" : "confirm_transfer_number";
  throw new ConflictError(RESUME_REFUSALS[reason], { reason });
}

// ——— The admin ———

/** An admin lifts an order's system pause (the only way once it needs an admin). */
export async function liftSystemPause(deps: Deps, adminId: string, orderId: string): Promise<TrackerOrder> {
  const { db, now } = deps;
  await deliveryOf(db, orderId);
  const [[resumed]] = await db.batch([
    db
      .update(orderDelivery)
      .set({ ...running, updatedAt: new Date(now) })
      .where(and(eq(orderDelivery.orderId, orderId), systemPaused))
      .returning({ orderId: orderDelivery.orderId }),
    liftStatement(db, orderId, "admin", adminId, now),
  ]);
  if (!resumed) throw new ConflictError("This order has no pause set by the system to lift.");
  return orderView(deps, orderId);
}
