/**
 * Revocations (docs/decisions/0082): when numbers become new on a shared Do Not Call list (a batch of a list
 * upload applied by the Queue, a /do-not-call request), what was sold with them in the last 5 years (aged
 * leads bought and kept, transfers billed, call-backs delivered) is written down, one row per (item, list),
 * in the same transaction that lists the numbers. The minute cron then records one `lead.suppressed`
 * webhook per row through the outbox (../webhooks/record.ts), and the 5-minute cron sends each buyer one
 * digest e-mail per day. My Leads and the Lead Tracker flag the items from the lists themselves
 * (suppression-checks.ts), so the flag needs nothing from here.
 */
import { and, asc, gte, isNull, lt, sql } from "drizzle-orm";
import { maskPhone } from "../../../src/domain/masking";
import { digestDays, revocationLine, revocationSince } from "../../../src/features/do-not-call/revocations";
import { revokedSubject } from "../../../src/features/webhook-outbox/index";
import { suppressionRevocations, users } from "../../db/schema";
import type { Deps } from "../../deps";
import { emails } from "../../services/email-templates";
import { sendMail, siteOrigin } from "../../services/mail";
import { type WebhookFact, webhookRecording } from "../webhook-outbox/index";

/**
 * The SQL of `revocationsStatement` (binds: ?1 the numbers as JSON, ?2 now, ?3 the earliest sale). Raw SQL
 * on a hot path: one INSERT … SELECT per batch, each number one index seek per kind of item
 * (aged_leads_phone_key_idx, transfers_phone_routed_idx, callback_opportunities_phone_delivered_idx),
 * never a scan, whatever the statistics of a small table say (INDEXED BY: the lookups by number are what
 * keeps a batch's cost flat); a number listed twice, or a batch applied twice, writes once (the unique (item, list) index).
 */
export function revocationsSql(list: { id: number } | "internal", guard = "1"): string {
  const which = list === "internal" ? "kind = 'internal_dnc'" : `id = ${Number(list.id)}`;
  return `INSERT INTO suppression_revocations (id, user_id, item_type, item_id, order_id, phone, list_id, list_kind, sold_at, created_at)
       SELECT lower(hex(randomblob(16))), s.user_id, s.item_type, s.item_id, s.order_id, s.phone, l.id, l.kind, s.sold_at, ?2
       FROM (SELECT id, kind FROM suppression_lists WHERE ${which} AND owner_user_id IS NULL AND status = 'active') l
       CROSS JOIN (
         SELECT 'lead' AS item_type, a.id AS item_id, a.sold_to_user_id AS user_id, a.sold_order_id AS order_id,
                a.phone AS phone, a.sold_at AS sold_at, a.phone_key AS number
           FROM json_each(?1) j CROSS JOIN aged_leads a INDEXED BY aged_leads_phone_key_idx ON a.phone_key = j.value
           WHERE a.sold_at >= ?3 AND a.sold_to_user_id IS NOT NULL AND a.returned_at IS NULL AND a.refunded_at IS NULL
         UNION ALL
         SELECT 'transfer', t.id, t.buyer_user_id, t.order_id, t.phone, t.routed_at, j.value
           FROM json_each(?1) j CROSS JOIN transfers t INDEXED BY transfers_phone_routed_idx ON t.phone = CAST(j.value AS TEXT) AND t.routed_at >= ?3
           WHERE t.billable = 1 AND t.buyer_user_id IS NOT NULL AND t.returned_at IS NULL
         UNION ALL
         SELECT 'callback', c.id, c.buyer_user_id, c.order_id, c.phone, c.delivered_at, j.value
           FROM json_each(?1) j CROSS JOIN callback_opportunities c INDEXED BY callback_opportunities_phone_delivered_idx ON c.phone_key = j.value AND c.delivered_at >= ?3
           WHERE c.buyer_user_id IS NOT NULL AND c.returned_at IS NULL AND c.refunded_at IS NULL
       ) s
       WHERE NOT EXISTS (SELECT 1 FROM suppression_numbers n WHERE n.number = s.number AND n.list_id = l.id) AND ${guard}
       ON CONFLICT DO NOTHING`;
}

/**
 * The statement that writes the revocations of `numbers` (a JSON list of phone keys, up to a batch's 2,000)
 * becoming new on the active shared list `list` at `deps.now`, guarded by `guard` (SQL text: the batch is still
 * to apply). It must run BEFORE the statement that lists the numbers: a number the list already holds
 * revokes nothing.
 */
export const revocationsStatement = (
  deps: Pick<Deps, "env" | "now">,
  numbers: string,
  list: { id: number } | "internal",
  guard = "1",
): D1PreparedStatement =>
  deps.env.DB.prepare(revocationsSql(list, guard)).bind(numbers, deps.now, revocationSince(deps.now));

/** Revocations read and marked per round: one query for them, then a D1 batch per GROUPS_PER_BATCH groups. */
const EVENTS_PER_ROUND = 500;
/**
 * Rounds per cron run at most: 10,000 revocations a minute, so a change that revokes 10,000 sales is told
 * within the first minute's run (docs/decisions/0082's amendment). A round costs about 10 subrequests (its
 * read, its batches and the Queue's sendBatch of 100 events each), so a run stays far below the Worker's limit
 * of 1,000; whatever is left goes on the next minute.
 */
const ROUNDS_PER_RUN = 20;
/** Buyers' groups recorded per D1 batch (two statements each). */
const GROUPS_PER_BATCH = 20;

/**
 * Records the `lead.suppressed` webhook of every revocation not yet told (oldest first), one event per
 * (item, list): its id derives from that key, so a run that races another records nothing twice. Only
 * buyers with a subscribed endpoint get an event (the outbox's rule); every row is marked either way.
 * Works in rounds of EVENTS_PER_ROUND until none is left or ROUNDS_PER_RUN have run. Answers how many
 * revocations it marked.
 */
export async function recordRevocationEvents(deps: Deps): Promise<number> {
  let marked = 0;
  for (let round = 0; round < ROUNDS_PER_RUN; round++) {
    const { read, marked: inRound } = await recordRevocationRound(deps);
    marked += inRound;
    // A short round read everything left; a round that marked nothing lost every row to a racing run.
    if (read < EVENTS_PER_ROUND || inRound === 0) break;
  }
  return marked;
}

/** One round of `recordRevocationEvents`: how many rows it read, and how many of them it marked. */
async function recordRevocationRound(deps: Deps): Promise<{ read: number; marked: number }> {
  const { db, now } = deps;
  const pending = await db
    .select()
    .from(suppressionRevocations)
    .where(isNull(suppressionRevocations.eventsRecordedAt))
    .orderBy(asc(suppressionRevocations.createdAt))
    .limit(EVENTS_PER_ROUND);
  if (pending.length === 0) return { read: 0, marked: 0 };
  const groups = new Map<string, typeof pending>();
  for (const row of pending) {
    const key = `${row.userId} ${row.createdAt.getTime()}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  let marked = 0;
  const all = [...groups.values()];
  for (let start = 0; start < all.length; start += GROUPS_PER_BATCH) {
    const chunk = all.slice(start, start + GROUPS_PER_BATCH);
    const ids = chunk.flat().map((row) => row.id);
    // Marked first, with this run's time: the events below are recorded only for rows this run marked. The
    // ids go as one JSON value: a buyer's group can hold hundreds of rows, and D1 binds at most 100 values.
    const mark = db
      .update(suppressionRevocations)
      .set({ eventsRecordedAt: new Date(now) })
      .where(
        and(
          sql`${suppressionRevocations.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
          isNull(suppressionRevocations.eventsRecordedAt),
        ),
      )
      .returning({ id: suppressionRevocations.id });
    const facts: WebhookFact[] = chunk.map((rows) => ({
      type: "lead.suppressed",
      userId: rows[0]?.userId ?? "",
      at: rows[0]?.createdAt.getTime() ?? now,
      subjects: rows.map((row) => ({
        subjectId: row.id,
        idKeys: [row.itemType, row.itemId, String(row.listId)],
        subject: revokedSubject(row.itemType, row.itemId),
      })),
      // This row marked by this run (the run's rounds share its time; each fact names its own row).
      when: (id) =>
        sql`EXISTS (SELECT 1 FROM suppression_revocations r WHERE r.id = ${id} AND r.events_recorded_at = ${now})`,
    }));
    const hooks = await webhookRecording(deps, facts);
    const results = await db.batch([mark, ...hooks.statements]);
    await hooks.enqueue(deps, results);
    marked += results[0].length;
  }
  return { read: pending.length, marked };
}

/** Digests sent per cron run at most. */
const DIGESTS_PER_RUN = 100;

/**
 * The daily digest: once a UTC day has ended, each buyer with revocations that day gets one e-mail listing
 * them (numbers masked; the items are flagged in My Leads and the Lead Tracker). The rows are claimed
 * (`digest_sent_at`) before the e-mail goes, so a second run never sends them again. Answers how many sent.
 */
export async function sendRevocationDigests(deps: Deps): Promise<number> {
  const { db, now } = deps;
  let sent = 0;
  for (const day of digestDays(now)) {
    const from = Date.parse(`${day}T00:00:00Z`);
    const to = from + 86_400_000;
    const inDay = and(
      isNull(suppressionRevocations.digestSentAt),
      gte(suppressionRevocations.createdAt, new Date(from)),
      lt(suppressionRevocations.createdAt, new Date(to)),
    );
    const buyers = await db
      .selectDistinct({ userId: suppressionRevocations.userId })
      .from(suppressionRevocations)
      .where(inDay)
      .limit(DIGESTS_PER_RUN - sent);
    for (const { userId } of buyers) {
      const claimed = await db
        .update(suppressionRevocations)
        .set({ digestSentAt: new Date(now) })
        .where(and(inDay, sql`${suppressionRevocations.userId} = ${userId}`))
        .returning();
      if (claimed.length === 0) continue; // another run took them
      const [buyer] = await db
        .select({ email: users.email, firstName: users.firstName })
        .from(users)
        .where(sql`${users.id} = ${userId}`);
      if (!buyer) continue;
      const lines = claimed
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.itemId.localeCompare(b.itemId))
        .map((row) => revocationLine({ ...row, phone: maskPhone(row.phone) }));
      try {
        await sendMail(
          deps,
          buyer.email,
          emails.revocationDigest(siteOrigin(deps), { firstName: buyer.firstName, day, lines }),
        );
        sent += 1;
      } catch (error) {
        // Recorded as sent: the outbox keeps the message for a person to resend.
        console.error(`Revocation digest for ${userId} on ${day} failed`, error);
      }
    }
    if (sent >= DIGESTS_PER_RUN) break;
  }
  return sent;
}
