/**
 * A burst of /do-not-call requests (docs/decisions/0055): more than BURST_NUMBERS distinct numbers within
 * the last hour, from all addresses together, e-mails every admin, at most once an hour. One rate limit
 * per address cannot see many addresses asking at once; this can.
 */
import { eq } from "drizzle-orm";
import {
  BURST_NUMBERS,
  BURST_WINDOW_MS,
  DO_NOT_CALL_REQUESTS_PATH,
} from "../../../src/features/do-not-call/do-not-call-requests";
import { users } from "../../db/schema";
import type { Deps } from "../../deps";
import { emails } from "../../services/email-templates";
import { sendMail, siteOrigin } from "../../services/mail";

/**
 * Checks for a burst after a request was stored; answers whether this call sent the alert. Raw SQL: it runs
 * on every public request, so the cheap test (an alert within the hour) comes first and the count stops
 * one past the threshold.
 */
export async function alertAdminsOfBurst(deps: Deps): Promise<boolean> {
  const db = deps.env.DB;
  const alertedSince = deps.now - BURST_WINDOW_MS;
  const recent = await db
    .prepare("SELECT 1 FROM do_not_call_alerts WHERE sent_at > ? LIMIT 1")
    .bind(alertedSince)
    .first();
  if (recent) return false;
  const since = deps.now - BURST_WINDOW_MS;
  const counted = await db
    .prepare(
      "SELECT count(*) AS numbers FROM (SELECT DISTINCT number FROM do_not_call_requests WHERE created_at > ? LIMIT ?)",
    )
    .bind(since, BURST_NUMBERS + 1)
    .first<{ numbers: number }>();
  if ((counted?.numbers ?? 0) <= BURST_NUMBERS) return false;
  const totals = await db
    .prepare(
      "SELECT count(DISTINCT number) AS numbers, count(DISTINCT client_hash) AS addresses FROM do_not_call_requests WHERE created_at > ?",
    )
    .bind(since)
    .first<{ numbers: number; addresses: number }>();
  const numbers = totals?.numbers ?? 0;
  const addresses = totals?.addresses ?? 0;
  // The claim and its check are one statement: of two requests at once, one sends the e-mail.
  const claim = await db
    .prepare(
      `INSERT INTO do_not_call_alerts (sent_at, numbers, addresses) SELECT ?1, ?2, ?3
       WHERE NOT EXISTS (SELECT 1 FROM do_not_call_alerts WHERE sent_at > ?4)`,
    )
    .bind(deps.now, numbers, addresses, alertedSince)
    .run();
  if (claim.meta.changes !== 1) return false;
  const admins = await deps.db.select({ email: users.email }).from(users).where(eq(users.isAdmin, true));
  const email = emails.doNotCallBurst(siteOrigin(deps), {
    numbers,
    addresses,
    windowMinutes: BURST_WINDOW_MS / 60_000,
    path: DO_NOT_CALL_REQUESTS_PATH,
  });
  const sent = await Promise.allSettled(admins.map((admin) => sendMail(deps, admin.email, email)));
  for (const result of sent) {
    // The requester's answer does not wait on the mail service: a failure is logged, the request stands.
    if (result.status === "rejected") console.error("Do Not Call burst e-mail not sent", result.reason);
  }
  return true;
}
