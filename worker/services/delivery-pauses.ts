/**
 * Pausing a live-transfer order's deliveries (product rule 21, decision 0027). A paused
 * order is left out of routing (the routing index follows `order_delivery.paused` through its trigger).
 *
 * - The buyer pauses and resumes their own order with one click.
 * - NO_ANSWER_PAUSE_COUNT unanswered transfers within the hour (counted since the last system pause was
 *   lifted) pause it as the system: the buyer resumes only by confirming or changing the transfer number,
 *   and the third system pause within 24 hours only an admin can lift.
 * A buyer's pause never replaces a system pause, so it cannot be used to skip the confirmation.
 */
import { and, count, eq, isNull, or, sql } from "drizzle-orm";
import {
  PAUSE_REASONS,
  type PauseLift,
  RESUME_REFUSALS,
  SYSTEM_PAUSE_ADMIN_WINDOW_MS,
  SYSTEM_PAUSES_BEFORE_ADMIN,
} from "../../src/domain/delivery-pauses";
import { normalizeUsPhone } from "../../src/domain/phone";
import type { TrackerOrder } from "../../src/features/returns/returns";
import { NO_ANSWER_PAUSE_COUNT, NO_ANSWER_PAUSE_WINDOW_MS } from "../../src/features/transfers/transfers";
import type { Database } from "../db/client";
import { orderDelivery, orders, systemPauses, transfers, users } from "../db/schema";
import type { Deps } from "../deps";
import { ConflictError, NotFoundError } from "../errors";
import { emails } from "./email-templates";
import { sendMail } from "./mail";
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

// ——— The system ———

/**
 * NO_ANSWER_PAUSE_COUNT unanswered transfers within the window, since the order's last system pause was
 * lifted, pause the order and tell its buyer once. The pause is recorded; the third within
 * SYSTEM_PAUSE_ADMIN_WINDOW_MS needs an admin.
 */
export async function pauseIfUnanswered(deps: Deps, orderId: string, siteOrigin: string) {
  const { db, now } = deps;
  const lastLifted = sql`coalesce((SELECT max(${systemPauses.liftedAt}) FROM ${systemPauses}
    WHERE ${systemPauses.orderId} = ${orderId}), 0)`;
  const [recent] = await db
    .select({ n: count() })
    .from(transfers)
    .where(
      and(
        eq(transfers.orderId, orderId),
        eq(transfers.status, "no_answer"),
        sql`${transfers.endedAt} > ${now - NO_ANSWER_PAUSE_WINDOW_MS}`,
        sql`${transfers.endedAt} > ${lastLifted}`,
      ),
    );
  if ((recent?.n ?? 0) < NO_ANSWER_PAUSE_COUNT) return;
  const pausesBefore = sql`(SELECT count(*) FROM ${systemPauses} WHERE ${systemPauses.orderId} = ${orderId}
    AND ${systemPauses.pausedAt} > ${now - SYSTEM_PAUSE_ADMIN_WINDOW_MS})`;
  const [[paused]] = await db.batch([
    db
      .update(orderDelivery)
      .set({
        paused: true,
        pausedReason: PAUSE_REASONS.no_answer,
        pausedAt: new Date(now),
        pauseKind: "no_answer",
        pauseNeedsAdmin: sql`${pausesBefore} + 1 >= ${SYSTEM_PAUSES_BEFORE_ADMIN}`,
        updatedAt: new Date(now),
      })
      .where(and(eq(orderDelivery.orderId, orderId), eq(orderDelivery.paused, false)))
      .returning({ needsAdmin: orderDelivery.pauseNeedsAdmin }),
    db.insert(systemPauses).select(
      db
        .select({
          id: sql<string>`${crypto.randomUUID()}`.as("id"),
          orderId: orderDelivery.orderId,
          pausedAt: sql<Date>`${now}`.as("paused_at"),
          needsAdmin: orderDelivery.pauseNeedsAdmin,
          liftedAt: sql<null>`NULL`.as("lifted_at"),
          liftedBy: sql<null>`NULL`.as("lifted_by"),
          liftedHow: sql<null>`NULL`.as("lifted_how"),
        })
        .from(orderDelivery)
        .where(and(eq(orderDelivery.orderId, orderId), sql`changes() = 1`)),
    ),
  ]);
  if (!paused) return;
  await tellBuyerOfPause(deps, orderId, paused.needsAdmin, siteOrigin);
}

async function tellBuyerOfPause(deps: Deps, orderId: string, needsAdmin: boolean, siteOrigin: string) {
  const [buyer] = await deps.db
    .select({ orderEmail: orders.email, userEmail: users.email, name: users.firstName })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  const to = buyer?.userEmail ?? buyer?.orderEmail;
  if (!to) return;
  try {
    await sendMail(deps, to, emails.transfersPaused(siteOrigin, { name: buyer?.name ?? null, orderId, needsAdmin }));
  } catch (error) {
    // The pause stands and the Lead Tracker shows it; the partner's event is not refused for a mail.
    console.error(`Order ${orderId}: the pause e-mail failed`, error);
  }
}
