/**
 * What a buyer is told about a delivered call-back or appointment (docs/decisions/0060): an e-mail when
 * it is placed in the buyer's order (the `callback.delivered` / `appointment.delivered` webhook joins the
 * placement's own batch, ./webhooks/facts.ts), and a reminder e-mail 15 minutes before its window opens,
 * sent by the scheduled handler at most once per call-back.
 */
import { and, eq, gt, inArray, isNotNull, isNull, lte } from "drizzle-orm";
import { defaultTimeZone } from "../../../src/domain/time-zones";
import { prospectFirstName, REMINDER_MINUTES_BEFORE, windowLabel } from "../../../src/features/callbacks/callbacks";
import { callbackOpportunities as callbacks, users } from "../../db/schema";
import type { Deps } from "../../deps";
import { emails } from "../../services/email-templates";
import { sendMail, siteOrigin } from "../../services/mail";

/** Reminders claimed per scheduled run (a run every 5 minutes). */
const REMINDER_BATCH = 50;

type Template = typeof emails.callbackDelivered;

/** The call-backs `ids` with their buyers' addresses, and the e-mail `template` for each. */
async function mailCallbacks(deps: Deps, ids: readonly string[], template: Template, what: string): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await deps.db
    .select({
      id: callbacks.id,
      kind: callbacks.kind,
      name: callbacks.name,
      phone: callbacks.phone,
      state: callbacks.state,
      timeZone: callbacks.timeZone,
      windowStart: callbacks.windowStart,
      windowEnd: callbacks.windowEnd,
      buyerEmail: users.email,
      buyerFirstName: users.firstName,
    })
    .from(callbacks)
    .innerJoin(users, eq(users.id, callbacks.buyerUserId))
    .where(inArray(callbacks.id, [...ids]));
  const origin = siteOrigin(deps);
  let sent = 0;
  for (const row of rows) {
    if (!row.windowStart || !row.windowEnd) continue;
    const window = windowLabel({
      windowStart: row.windowStart.getTime(),
      windowEnd: row.windowEnd.getTime(),
      timeZone: row.timeZone ?? defaultTimeZone(row.state),
    });
    const email = template(origin, {
      buyerName: row.buyerFirstName || null,
      kind: row.kind,
      prospectFirstName: prospectFirstName(row.name),
      phone: row.phone,
      window,
    });
    try {
      await sendMail(deps, row.buyerEmail, email);
      sent++;
    } catch (error) {
      // The call-back stays delivered and in My Call-Backs; the outbox keeps the message.
      console.error(`Call-back ${row.id}: the ${what} e-mail failed`, error);
    }
  }
  return sent;
}

/** The buyer's e-mail for a call-back just placed in the buyer's order. Never throws. */
export async function mailCallbackDelivered(deps: Deps, callbackId: string): Promise<void> {
  try {
    await mailCallbacks(deps, [callbackId], emails.callbackDelivered, "delivery");
  } catch (error) {
    console.error(`Call-back ${callbackId}: the delivery e-mail failed`, error);
  }
}

/**
 * Reminds buyers of delivered call-backs whose window opens within the next 15 minutes and that have had
 * no reminder. Claims them first with one conditional UPDATE (`reminded_at`), then sends: two overlapping
 * runs never remind of one call-back twice, and a window already open gets none. Returns how many were sent.
 */
export async function sendCallbackReminders(deps: Deps): Promise<number> {
  const { db, now } = deps;
  const due = db
    .select({ id: callbacks.id })
    .from(callbacks)
    .where(
      and(
        isNull(callbacks.remindedAt),
        isNotNull(callbacks.orderId),
        isNull(callbacks.refundedAt),
        gt(callbacks.windowStart, new Date(now)),
        lte(callbacks.windowStart, new Date(now + REMINDER_MINUTES_BEFORE * 60_000)),
      ),
    )
    .limit(REMINDER_BATCH);
  const claimed = await db
    .update(callbacks)
    .set({ remindedAt: new Date(now) })
    .where(and(inArray(callbacks.id, due), isNull(callbacks.remindedAt)))
    .returning({ id: callbacks.id });
  return mailCallbacks(
    deps,
    claimed.map((row) => row.id),
    emails.callbackReminder,
    "reminder",
  );
}
