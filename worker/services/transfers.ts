/**
 * Live transfers (issue 15, items 4-6): a partner's ping is routed to one eligible order, holding a slot
 * on it until the call ends or the answer expires; the dialer's events bill a completed call by the
 * buffer, complete fully delivered orders and pause orders whose calls go unanswered.
 *
 * Routing reads the open orders for the prospect's state and ranks them by the pure rule in
 * src/domain/transfers.ts (rules that need no counting first), reads the live holds and today's counts
 * of the best few, then claims a slot with a conditional insert that succeeds only if the order still
 * has one. D1 runs one statement at a time, so two pings can never both take an order's last slot; the
 * loser tries the next order.
 */
import { and, count, desc, eq, isNull, lt, sql } from "drizzle-orm";
import {
  ALL_STATES,
  CONNECTED_HOLD_SECONDS,
  DUPLICATE_WINDOW_DAYS,
  isBillable,
  localTime,
  NO_ANSWER_PAUSE_COUNT,
  NO_ANSWER_PAUSE_REASON,
  NO_ANSWER_PAUSE_WINDOW_MS,
  NO_ROUTE_REASONS,
  NOT_CHARGED_LABEL,
  type NoRouteReason,
  normalizeUsPhone,
  type PartnerPaymentTerms,
  type PayoutLine,
  payoutStatement,
  ROUTE_ANSWER_TTL_SECONDS,
  type RoutingCandidate,
  rankEligible,
  type TransferEventType,
  type TransferStatus,
  US_TIME_ZONES,
} from "../../src/domain/transfers";
import { database } from "../db/client";
import { orderDelivery, orders, partners, transferEvents, transfers, users } from "../db/schema";
import type { Env } from "../env";
import { ConflictError, InvalidError, NotFoundError } from "../errors";
import type { KeyOwner } from "./api-keys";
import { emails } from "./email-templates";
import { sendMail } from "./mail";

const DAY_MS = 24 * 60 * 60 * 1000;
/** A claim lost to a concurrent ping moves on to the next order, this many times at most. */
const MAX_CLAIM_ATTEMPTS = 5;
/** Orders whose counts are read at once, oldest paid first, and how many such pages at most. */
const COUNT_PAGE = 25;
const MAX_COUNT_PAGES = 8;

export interface PingInput {
  prospect: { firstName: string; lastName: string; phone: string; state: string; zip?: string; age?: number };
  consent: { optInAt: string; optInUrl: string; trustedFormUrl?: string };
}

export interface RouteAnswer {
  transferId: string;
  phoneNumber: string;
  expiresInSeconds: number;
}

export type TransferEventInput =
  | { type: "connected" | "no-answer" | "failed" }
  | { type: "completed"; durationSeconds: number; recordingUrl?: string };

export interface TransferView {
  transferId: string;
  status: TransferStatus;
  routedAt: string;
  state: string;
  durationSeconds: number | null;
  billable: boolean;
  /** 'billable', NOT_CHARGED_LABEL, or the call's end ('no answer', 'failed', 'expired', 'in progress'). */
  outcome: string;
}

// ——— SQL shared by the routing read and the claim (raw: correlated counts drizzle's builder cannot say) ———

/** Transfers holding a slot on order `orderId`: routed answers not yet expired and connected calls. */
const heldCount = (orderId: unknown, now: number) =>
  sql`(SELECT count(*) FROM transfers h WHERE h.order_id = ${orderId} AND h.status IN ('routed', 'connected') AND h.expires_at > ${now})`;

/** Transfers sent to order `orderId` on local day `day`, except those that expired or went unanswered. */
const deliveredOnDay = (orderId: unknown, day: unknown, now: number) =>
  sql`(SELECT count(*) FROM transfers p WHERE p.order_id = ${orderId} AND p.buyer_local_day = ${day}
      AND (p.status IN ('connected', 'completed') OR (p.status = 'routed' AND p.expires_at > ${now})))`;

/** A partner's transfers on its local day `day` (one row of the counter the triggers keep). */
const partnerCallsOn = (partnerId: string, day: string) =>
  sql`coalesce((SELECT calls FROM partner_day_calls WHERE partner_id = ${partnerId} AND day = ${day}), 0)`;

/** The buyer's key for the duplicate rule: the user id, else the order's e-mail. */
const buyerKeyOf = sql`coalesce(o.user_id, 'email:' || lower(o.email))`;

/** Local day, weekday and minute of the day in every US zone at `now`, as JSON for json_extract by an order's zone. */
function localTimes(now: number): string {
  return JSON.stringify(Object.fromEntries(US_TIME_ZONES.map((zone) => [zone, localTime(now, zone)])));
}
/** One field of localTimes for the zone in column `zoneColumn` (e.g. d.time_zone). */
const inZone = (times: string, zoneColumn: string, field: "day" | "weekday" | "minute") =>
  sql`json_extract(${times}, '$."' || ${sql.raw(zoneColumn)} || '".${sql.raw(field)}')`;

interface CandidateRow {
  order_id: string;
  buyer_key: string;
  paid_at: number;
  time_zone: string;
  hours_start_minute: number;
  hours_end_minute: number;
  days: string | null;
  per_day_cap: number;
  transfers_total: number;
  transfers_billable: number;
  held: number;
  delivered_today: number;
}

/**
 * The open orders for a state, without their counts (0 until `withCounts`): cheap even with thousands
 * of open orders, so routing ranks everything by the rules that need no counting first.
 */
async function openOrdersFor(env: Env, state: string): Promise<RoutingCandidate[]> {
  const rows = await database(env.DB).all<CandidateRow>(sql`
    SELECT d.order_id, ${buyerKeyOf} AS buyer_key, o.paid_at, d.time_zone, d.hours_start_minute, d.hours_end_minute,
      d.days, d.per_day_cap, d.transfers_total, d.transfers_billable, 0 AS held, 0 AS delivered_today
    FROM order_delivery_states s
    JOIN order_delivery d ON d.order_id = s.order_id
    JOIN orders o ON o.id = d.order_id
    WHERE s.state IN (${state}, 'ALL') AND d.setup_status = 'ready' AND d.paused = 0
      AND d.transfers_billable < d.transfers_total AND o.status = 'paid'`);
  return rows.map(toCandidate);
}

/** The live holds and today's deliveries (on each buyer's own day) of a few orders. */
async function withCounts(env: Env, orders: RoutingCandidate[], now: number): Promise<RoutingCandidate[]> {
  const times = localTimes(now);
  const ids = sql.join(
    orders.map((order) => sql`${order.orderId}`),
    sql`, `,
  );
  const rows = await database(env.DB).all<{ order_id: string; held: number; delivered_today: number }>(sql`
    SELECT d.order_id, ${heldCount(sql`d.order_id`, now)} AS held,
      ${deliveredOnDay(sql`d.order_id`, inZone(times, "d.time_zone", "day"), now)} AS delivered_today
    FROM order_delivery d WHERE d.order_id IN (${ids})`);
  const counts = new Map(rows.map((row) => [row.order_id, row]));
  return orders.map((order) => ({
    ...order,
    held: counts.get(order.orderId)?.held ?? 0,
    deliveredToday: counts.get(order.orderId)?.delivered_today ?? 0,
  }));
}

/**
 * The oldest-paid open orders for a state that pass the rules needing no counting, with their counts: at
 * most `limit` rows, read through `order_delivery_states_routing_idx` in paid order (the state's and the
 * every-state orders merged), so a ping touches a handful of orders however many are open. The SQL only
 * pre-filters and never drops an eligible order (a zone it cannot read passes); `rankEligible` decides.
 */
function candidatesFor(state: string, phone: string, now: number, limit: number) {
  const times = localTimes(now);
  const local = (field: "weekday" | "minute") => inZone(times, "d.time_zone", field);
  const open = (code: string) =>
    sql`SELECT * FROM (SELECT order_id, paid_at FROM order_delivery_states
      WHERE state = ${code} AND open = 1 ORDER BY paid_at, order_id)`;
  // Raw SQL: a merged UNION ALL in index order, JSON lookups by zone and correlated counts.
  return sql`
    WITH s AS (${open(state)} UNION ALL ${open(ALL_STATES)})
    SELECT c.*, ${heldCount(sql`c.order_id`, now)} AS held,
      ${deliveredOnDay(sql`c.order_id`, inZone(times, "c.time_zone", "day"), now)} AS delivered_today
    FROM (
      SELECT s.order_id, ${buyerKeyOf} AS buyer_key, s.paid_at, d.time_zone, d.hours_start_minute, d.hours_end_minute,
        d.days, d.per_day_cap, d.transfers_total, d.transfers_billable
      FROM s JOIN order_delivery d ON d.order_id = s.order_id JOIN orders o ON o.id = s.order_id
      WHERE (d.days IS NULL OR ${local("weekday")} IS NULL
          OR EXISTS (SELECT 1 FROM json_each(d.days) WHERE value = ${local("weekday")}))
        AND (${local("minute")} IS NULL OR d.hours_start_minute = d.hours_end_minute
          OR (d.hours_start_minute < d.hours_end_minute
              AND ${local("minute")} >= d.hours_start_minute AND ${local("minute")} < d.hours_end_minute)
          OR (d.hours_start_minute > d.hours_end_minute
              AND (${local("minute")} >= d.hours_start_minute OR ${local("minute")} < d.hours_end_minute)))
        AND NOT EXISTS (SELECT 1 FROM transfers t WHERE t.phone = ${phone} AND t.buyer_key = ${buyerKeyOf}
          AND t.routed_at > ${now - DUPLICATE_WINDOW_DAYS * DAY_MS}
          AND (t.status IN ('connected', 'completed') OR (t.status = 'routed' AND t.expires_at > ${now})))
      ORDER BY s.paid_at, s.order_id LIMIT ${limit}
    ) c`;
}

function toCandidate(row: CandidateRow): RoutingCandidate {
  return {
    orderId: row.order_id,
    buyerKey: row.buyer_key,
    paidAt: row.paid_at ?? 0,
    timeZone: row.time_zone,
    hoursStartMinute: row.hours_start_minute,
    hoursEndMinute: row.hours_end_minute,
    days: row.days ? (JSON.parse(row.days) as number[]) : null,
    perDayCap: row.per_day_cap,
    transfersTotal: row.transfers_total,
    transfersBillable: row.transfers_billable,
    held: row.held,
    deliveredToday: row.delivered_today,
  };
}

/** Buyers who got this phone within the duplicate window (a live answer, a connected or a completed call). */
async function recentBuyers(env: Env, phone: string, now: number): Promise<Set<string>> {
  const rows = await database(env.DB).all<{ buyer_key: string }>(sql`
    SELECT DISTINCT buyer_key FROM transfers
    WHERE phone = ${phone} AND routed_at > ${now - DUPLICATE_WINDOW_DAYS * DAY_MS}
      AND (status IN ('connected', 'completed') OR (status = 'routed' AND expires_at > ${now}))`);
  return new Set(rows.map((row) => row.buyer_key));
}

function noRoute(reason: NoRouteReason): never {
  throw new ConflictError(NO_ROUTE_REASONS[reason], { reason });
}

function readPing(input: PingInput, now: number) {
  const phone = normalizeUsPhone(input.prospect.phone);
  if (!phone) throw new InvalidError("prospect.phone must be a 10-digit US phone number.");
  const optInAt = Date.parse(input.consent.optInAt);
  if (Number.isNaN(optInAt)) throw new InvalidError("consent.optInAt must be an ISO 8601 date and time.");
  if (optInAt > now + 5 * 60_000) throw new InvalidError("consent.optInAt cannot be in the future.");
  return { ...input.prospect, phone, state: input.prospect.state.toUpperCase(), optInAt };
}

/** Routes a partner's ping to the oldest-paid eligible order, or throws a 409 naming why none is. */
export async function routeTransfer(
  env: Env,
  owner: KeyOwner,
  input: PingInput,
  now = Date.now(),
): Promise<RouteAnswer> {
  const db = database(env.DB);
  const prospect = readPing(input, now);
  const partnerDay = localTime(now, owner.timeZone).day;
  // One statement: the partner's calls today beside the first few candidates, already in paid order.
  const rows = await db.all<CandidateRow & { partner_calls: number }>(sql`
    SELECT pc.partner_calls, c.* FROM (SELECT ${partnerCallsOn(owner.partnerId, partnerDay)} AS partner_calls) pc
    LEFT JOIN (${candidatesFor(prospect.state, prospect.phone, now, COUNT_PAGE)}) c ON 1
    ORDER BY c.paid_at, c.order_id`);
  if ((rows[0]?.partner_calls ?? 0) >= owner.dailyCallCap) noRoute("partner_cap_reached");
  // The SQL left out this phone's recent buyers, so no candidate here is a duplicate.
  const candidates = rows.filter((row) => row.order_id !== null).map(toCandidate);
  const ranked = rankEligible(candidates, { now, recentBuyerKeys: new Set() });
  let claims = 0;
  if (!("reason" in ranked)) {
    for (const order of ranked.orders) {
      if (claims++ >= MAX_CLAIM_ATTEMPTS) return noRoute("caps_reached");
      const answer = await claim(env, owner, prospect, input.consent, order, partnerDay, now);
      if (answer) return answer;
    }
  }
  // Rarely (none of the first few can take the call, or none passes): every open order, to go further
  // down the list or to name why none is eligible.
  return routeByFullRead(env, owner, prospect, input.consent, partnerDay, now, claims);
}

/** The same rule over every open order of the state, counts read a page at a time. */
async function routeByFullRead(
  env: Env,
  owner: KeyOwner,
  prospect: ReturnType<typeof readPing>,
  consent: PingInput["consent"],
  partnerDay: string,
  now: number,
  claimsSoFar: number,
): Promise<RouteAnswer> {
  const [open, recentBuyerKeys] = await Promise.all([
    openOrdersFor(env, prospect.state),
    recentBuyers(env, prospect.phone, now),
  ]);
  // First the rules that need no counting (state, duplicates, hours) over every open order, oldest paid
  // first; then the counts (slots, the day's cap) for a page of those at a time.
  const ranked = rankEligible(open, { now, recentBuyerKeys });
  if ("reason" in ranked) noRoute(ranked.reason);
  let claims = claimsSoFar;
  for (let page = 0; page * COUNT_PAGE < ranked.orders.length && page < MAX_COUNT_PAGES; page++) {
    const counted = rankEligible(
      await withCounts(env, ranked.orders.slice(page * COUNT_PAGE, (page + 1) * COUNT_PAGE), now),
      { now, recentBuyerKeys },
    );
    if ("reason" in counted) continue;
    for (const order of counted.orders) {
      if (claims++ >= MAX_CLAIM_ATTEMPTS) return noRoute("caps_reached");
      const answer = await claim(env, owner, prospect, consent, order, partnerDay, now);
      if (answer) return answer;
    }
  }
  return noRoute("caps_reached");
}

/**
 * Takes a slot on one order, or answers null when a concurrent ping took the last one first.
 * One INSERT … SELECT: the slot, the day's cap, the partner's cap are checked again in the statement
 * that takes the slot, so concurrent pings cannot overfill an order.
 */
async function claim(
  env: Env,
  owner: KeyOwner,
  prospect: ReturnType<typeof readPing>,
  consent: PingInput["consent"],
  order: RoutingCandidate,
  partnerDay: string,
  now: number,
): Promise<RouteAnswer | null> {
  const db = database(env.DB);
  const id = crypto.randomUUID();
  const buyerDay = localTime(now, order.timeZone).day;
  const [claimed] = await db.all<{ id: string; transfer_phone: string }>(sql`
    INSERT INTO transfers (id, partner_id, api_key_id, order_id, buyer_user_id, buyer_key, first_name, last_name,
      phone, state, zip, age, opt_in_at, opt_in_url, trusted_form_url, transfer_phone, status, routed_at,
      expires_at, buyer_local_day, partner_local_day)
    SELECT ${id}, ${owner.partnerId}, ${owner.apiKeyId}, d.order_id, o.user_id, ${buyerKeyOf}, ${prospect.firstName},
      ${prospect.lastName}, ${prospect.phone}, ${prospect.state}, ${prospect.zip ?? null}, ${prospect.age ?? null},
      ${prospect.optInAt}, ${consent.optInUrl}, ${consent.trustedFormUrl ?? null}, d.transfer_phone,
      'routed', ${now}, ${now + ROUTE_ANSWER_TTL_SECONDS * 1000}, ${buyerDay}, ${partnerDay}
    FROM order_delivery d JOIN orders o ON o.id = d.order_id
    WHERE d.order_id = ${order.orderId} AND d.paused = 0 AND o.status = 'paid'
      AND d.transfers_billable + ${heldCount(sql`d.order_id`, now)} < d.transfers_total
      AND ${deliveredOnDay(sql`d.order_id`, buyerDay, now)} < d.per_day_cap
      AND ${partnerCallsOn(owner.partnerId, partnerDay)} < ${owner.dailyCallCap}
    RETURNING id, transfer_phone`);
  return claimed
    ? { transferId: claimed.id, phoneNumber: claimed.transfer_phone, expiresInSeconds: ROUTE_ANSWER_TTL_SECONDS }
    : null;
}

// ——— Events ———

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

function transferView(row: typeof transfers.$inferSelect, now: number): TransferView {
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

async function partnersTransfer(env: Env, partnerId: string, transferId: string) {
  const row = await database(env.DB).query.transfers.findFirst({
    where: and(eq(transfers.id, transferId), eq(transfers.partnerId, partnerId)),
  });
  if (!row) throw new NotFoundError("No such transfer.");
  return row;
}

/** One of the partner's own transfers; another partner's or an unknown id is 404. */
export async function getTransfer(
  env: Env,
  partnerId: string,
  transferId: string,
  now = Date.now(),
): Promise<TransferView> {
  return transferView(await partnersTransfer(env, partnerId, transferId), now);
}

/** The statuses each event may move a transfer from (the first ending wins; later ones change nothing). */
const FROM: Record<TransferEventType, TransferStatus[]> = {
  connected: ["routed"],
  completed: ["routed", "connected", "expired"],
  "no-answer": ["routed", "expired"],
  failed: ["routed", "connected", "expired"],
};

/**
 * Applies a dialer's event once. A repeated event changes nothing; an event that arrives after the
 * call ended (or `connected` after `completed`) is recorded and changes nothing. `connected` after the
 * answer expired is a 409 (the slot was given up): the dialer must ping again.
 */
export async function recordTransferEvent(
  env: Env,
  partnerId: string,
  transferId: string,
  event: TransferEventInput,
  options: { siteOrigin: string; now?: number },
): Promise<TransferView> {
  const now = options.now ?? Date.now();
  const db = database(env.DB);
  const transfer = await partnersTransfer(env, partnerId, transferId);
  const status = effectiveStatus(transfer, now);
  if (event.type === "connected" && status === "expired") {
    throw new ConflictError("This transfer's answer expired before the call connected. Ping again for a new number.", {
      reason: "expired",
    });
  }
  const { type, ...payload } = event;
  const record = db
    .insert(transferEvents)
    .values({ transferId, type, receivedAt: new Date(now), payload })
    .onConflictDoNothing();
  if (!FROM[type].includes(status)) {
    // After the call ended (or a repeat): recorded, without effect.
    await record;
    return transferView(transfer, now);
  }

  // The event and its effect in one transaction. `changes()` is the row count of the statement just
  // before in the batch: the effect applies only when this batch recorded the event (a repeat does not).
  const recordedNow = sql`changes() = 1`;
  const from = sql`${transfers.status} IN (${sql.join(
    FROM[type].map((s) => (s === "expired" ? "routed" : s)).map((s) => sql`${s}`),
    sql`, `,
  )})`;
  const mine = and(eq(transfers.id, transferId), from, recordedNow);
  const ended = { endedAt: new Date(now), expiresAt: new Date(now) };
  let updated: typeof transfers.$inferSelect | undefined;
  if (type === "connected") {
    [, [updated]] = await db.batch([
      record,
      db
        .update(transfers)
        .set({
          status: "connected",
          connectedAt: new Date(now),
          expiresAt: new Date(now + CONNECTED_HOLD_SECONDS * 1000),
        })
        .where(mine)
        .returning(),
    ]);
  } else if (event.type === "completed") {
    const billable = isBillable(event.durationSeconds);
    // Ends the call (billable by the buffer), moves its order's counts (only if the statement before ended
    // it) and completes the order once every transfer it bought is billable-delivered.
    [, [updated]] = await db.batch([
      record,
      db
        .update(transfers)
        .set({
          status: "completed",
          durationSeconds: event.durationSeconds,
          billable,
          recordingUrl: event.recordingUrl ?? null,
          connectedAt: transfer.connectedAt ?? new Date(now - event.durationSeconds * 1000),
          ...ended,
        })
        .where(mine)
        .returning(),
      db
        .update(orderDelivery)
        .set(
          billable
            ? { transfersBillable: sql`${orderDelivery.transfersBillable} + 1`, updatedAt: new Date(now) }
            : { transfersNotCharged: sql`${orderDelivery.transfersNotCharged} + 1`, updatedAt: new Date(now) },
        )
        .where(and(eq(orderDelivery.orderId, transfer.orderId), sql`changes() = 1`)),
      db
        .update(orders)
        .set({ status: "completed", updatedAt: new Date(now) })
        .where(
          and(
            eq(orders.id, transfer.orderId),
            eq(orders.status, "paid"),
            sql`EXISTS (SELECT 1 FROM order_delivery WHERE order_id = ${transfer.orderId}
                        AND transfers_billable >= transfers_total)`,
          ),
        ),
    ]);
  } else {
    [, [updated]] = await db.batch([
      record,
      db
        .update(transfers)
        .set({ status: type === "no-answer" ? "no_answer" : "failed", ...ended })
        .where(mine)
        .returning(),
    ]);
    if (updated && type === "no-answer") await pauseIfUnanswered(env, transfer.orderId, options.siteOrigin, now);
  }
  if (updated) return transferView(updated, now);
  // A repeat, or a concurrent event ended the call first: the transfer as it is now.
  return transferView(await partnersTransfer(env, partnerId, transferId), now);
}

/** NO_ANSWER_PAUSE_COUNT unanswered transfers within the window pause the order and tell its buyer once. */
async function pauseIfUnanswered(env: Env, orderId: string, siteOrigin: string, now: number) {
  const db = database(env.DB);
  const [recent] = await db
    .select({ n: count() })
    .from(transfers)
    .where(
      and(
        eq(transfers.orderId, orderId),
        eq(transfers.status, "no_answer"),
        sql`${transfers.endedAt} > ${now - NO_ANSWER_PAUSE_WINDOW_MS}`,
      ),
    );
  if ((recent?.n ?? 0) < NO_ANSWER_PAUSE_COUNT) return;
  const [paused] = await db
    .update(orderDelivery)
    .set({ paused: true, pausedReason: NO_ANSWER_PAUSE_REASON, pausedAt: new Date(now), updatedAt: new Date(now) })
    .where(and(eq(orderDelivery.orderId, orderId), eq(orderDelivery.paused, false)))
    .returning({ orderId: orderDelivery.orderId });
  if (!paused) return;
  const [buyer] = await db
    .select({ orderEmail: orders.email, userEmail: users.email, name: users.firstName })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId));
  const to = buyer?.userEmail ?? buyer?.orderEmail;
  if (!to) return;
  try {
    await sendMail(env, to, emails.transfersPaused(siteOrigin, { name: buyer?.name ?? null, orderId }));
  } catch (error) {
    // The pause stands and the Lead Tracker shows it; the partner's event is not refused for a mail.
    console.error(`Order ${orderId}: the pause e-mail failed`, error);
  }
}

// ——— The partner portal (item 6) ———

export interface PartnerProfile {
  id: string;
  businessName: string;
  dailyCallCap: number;
  timeZone: string;
  payPerTransferCents: number;
  paymentTerms: PartnerPaymentTerms;
}

/** The partner record of a partner user, or undefined. */
export async function findPartnerByUser(env: Env, userId: string): Promise<PartnerProfile | undefined> {
  const [row] = await database(env.DB)
    .select({
      id: partners.id,
      businessName: partners.businessName,
      dailyCallCap: partners.dailyCallCap,
      timeZone: partners.timeZone,
      payPerTransferCents: partners.payPerTransferCents,
      paymentTerms: partners.paymentTerms,
    })
    .from(partners)
    .where(eq(partners.userId, userId));
  return row;
}

export interface PartnerStats {
  today: { day: string; calls: number; dailyCallCap: number };
  completed: number;
  billable: number;
  /** Billable / completed, 0..1; null before any completed call. */
  billableRate: number | null;
  averageDurationSeconds: number | null;
}

export async function partnerStats(env: Env, partner: PartnerProfile, now = Date.now()): Promise<PartnerStats> {
  const db = database(env.DB);
  const day = localTime(now, partner.timeZone).day;
  const [[today], [totals]] = await Promise.all([
    db
      .select({ calls: count() })
      .from(transfers)
      .where(and(eq(transfers.partnerId, partner.id), eq(transfers.partnerLocalDay, day))),
    db
      .select({
        completed: count(),
        billable: sql<number>`coalesce(sum(${transfers.billable}), 0)`,
        averageDuration: sql<number | null>`avg(${transfers.durationSeconds})`,
      })
      .from(transfers)
      .where(and(eq(transfers.partnerId, partner.id), eq(transfers.status, "completed"))),
  ]);
  const completed = totals?.completed ?? 0;
  const billable = Number(totals?.billable ?? 0);
  return {
    today: { day, calls: today?.calls ?? 0, dailyCallCap: partner.dailyCallCap },
    completed,
    billable,
    billableRate: completed > 0 ? billable / completed : null,
    averageDurationSeconds: totals?.averageDuration == null ? null : Math.round(totals.averageDuration),
  };
}

export const TRANSFER_PAGE_SIZE = 50;

/** The partner's transfers, newest first, a page at a time (`before`: the routedAt of the last one seen). */
export async function listPartnerTransfers(
  env: Env,
  partnerId: string,
  options: { before?: number; now?: number } = {},
): Promise<TransferView[]> {
  const now = options.now ?? Date.now();
  const rows = await database(env.DB)
    .select()
    .from(transfers)
    .where(
      and(
        eq(transfers.partnerId, partnerId),
        options.before ? lt(transfers.routedAt, new Date(options.before)) : undefined,
      ),
    )
    .orderBy(desc(transfers.routedAt))
    .limit(TRANSFER_PAGE_SIZE);
  return rows.map((row) => transferView(row, now));
}

/**
 * Weekly payout lines: billable transfers × the partner's pay per transfer, due per its payment terms.
 * A transfer whose return was approved (issue 16) is not paid.
 */
export async function partnerPayouts(env: Env, partner: PartnerProfile): Promise<PayoutLine[]> {
  const perDay = await database(env.DB)
    .select({ day: transfers.partnerLocalDay, billable: count() })
    .from(transfers)
    .where(and(eq(transfers.partnerId, partner.id), eq(transfers.billable, true), isNull(transfers.returnedAt)))
    .groupBy(transfers.partnerLocalDay);
  return payoutStatement(perDay, partner.payPerTransferCents, partner.paymentTerms);
}
