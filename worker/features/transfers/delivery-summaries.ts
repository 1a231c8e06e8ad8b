/**
 * The buyer's daily delivery summary (product rule 27): from the cron, one e-mail per buyer for each
 * local day with completed transfers, once that day has ended in every US zone. Each (buyer, day) is
 * recorded before its e-mail goes, so a second cron run never sends it again.
 */
import { and, eq, gte, isNotNull, lt, notExists, sql } from "drizzle-orm";
import { localTime } from "../../../src/domain/time-zones";
import { deliverySummaries, transfers, users } from "../../db/schema";
import type { Deps } from "../../deps";
import { emails } from "../../services/email-templates";
import { sendMail, siteOrigin } from "../../services/mail";

/** Days further back than this are not summarised any more (a cron that was down for long). */
const LOOK_BACK_DAYS = 2;
/** Summaries sent per cron run at most (the rest go on the next run). */
const PER_RUN = 100;

function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Sends the summaries that are due; answers how many were sent. */
export async function sendDeliverySummaries(deps: Deps): Promise<number> {
  const { db, now } = deps;
  // The last US zone to finish a day is Hawaii: days before its today have ended everywhere.
  const endedBefore = localTime(now, "Pacific/Honolulu").day;
  const due = await db
    .select({
      userId: transfers.buyerUserId,
      day: transfers.buyerLocalDay,
      email: users.email,
      firstName: users.firstName,
      completed: sql<number>`count(*)`,
      billable: sql<number>`coalesce(sum(${transfers.billable}), 0)`,
    })
    .from(transfers)
    .innerJoin(users, eq(users.id, transfers.buyerUserId))
    .where(
      and(
        gte(transfers.buyerLocalDay, addDays(endedBefore, -LOOK_BACK_DAYS)),
        lt(transfers.buyerLocalDay, endedBefore),
        eq(transfers.status, "completed"),
        isNotNull(transfers.buyerUserId),
        notExists(
          db
            .select({ one: sql`1` })
            .from(deliverySummaries)
            .where(
              and(
                eq(deliverySummaries.userId, transfers.buyerUserId),
                eq(deliverySummaries.day, transfers.buyerLocalDay),
              ),
            ),
        ),
      ),
    )
    .groupBy(transfers.buyerUserId, transfers.buyerLocalDay)
    .limit(PER_RUN);
  let sent = 0;
  for (const summary of due) {
    if (!summary.userId) continue;
    const [claimed] = await db
      .insert(deliverySummaries)
      .values({ userId: summary.userId, day: summary.day, sentAt: new Date(now) })
      .onConflictDoNothing()
      .returning({ day: deliverySummaries.day });
    if (!claimed) continue; // another run took it
    const billable = Number(summary.billable);
    const notCharged = Number(summary.completed) - billable;
    try {
      await sendMail(
        deps,
        summary.email,
        emails.deliverySummary(siteOrigin(deps), {
          firstName: summary.firstName,
          day: summary.day,
          billable,
          notCharged,
        }),
      );
      sent += 1;
    } catch (error) {
      // Recorded as sent: the outbox keeps the message for a person to resend.
      console.error(`Delivery summary for ${summary.userId} on ${summary.day} failed`, error);
    }
  }
  return sent;
}
