/**
 * The system's pause of a live-transfer order (product rule 21, decision 0027): NO_ANSWER_PAUSE_COUNT
 * unanswered transfers within the hour pause it, and its buyer is told once. A partner's no-answer event
 * calls it (transfer-events). The buyer's and the admin's resume, which answer with the Lead Tracker's view
 * of the order, are in ./delivery-pauses.
 */
import { and, count, eq, sql } from "drizzle-orm";
import {
  PAUSE_REASONS,
  SYSTEM_PAUSE_ADMIN_WINDOW_MS,
  SYSTEM_PAUSES_BEFORE_ADMIN,
} from "../../../src/features/transfers/delivery-pauses";
import { NO_ANSWER_PAUSE_COUNT, NO_ANSWER_PAUSE_WINDOW_MS } from "../../../src/features/transfers/transfers";
import { orderDelivery, orders, systemPauses, transfers, users } from "../../db/schema";
import type { Deps } from "../../deps";
import { emails } from "../../services/email-templates";
import { sendMail } from "../../services/mail";

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
