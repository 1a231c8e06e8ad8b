/**
 * Live transfers, routing (product rules 17-18): a partner's ping is routed to one eligible
 * order, holding a slot on it until the call ends or the answer expires.
 *
 * Routing reads the open orders for the prospect's state and ranks them by the pure rule in
 * src/features/transfers/transfers.ts (rules that need no counting first), reads the live holds and today's counts
 * of the best few, then claims a slot with a conditional insert that succeeds only if the order still
 * has one and its buyer had no contact with this phone within the duplicate window. D1 runs one
 * statement at a time, so two pings can never both take an order's last slot, nor both give one buyer
 * the same prospect; the loser tries the next order.
 *
 * Do Not Call (product rule 40, docs/decisions/0050): an order whose buyer keeps the caller's number on a
 * private list is left out as if it were not open, so the answer never tells a partner that a private
 * list exists. A shared list answers `suppressed` only once an order could take the call: a ping for a
 * call no order could take gets the same answer with or without suppression (a ping is no free registry
 * lookup), and a `suppressed` answer uses one of the partner's daily calls.
 *
 * Calling rules (docs/decisions/0064): a prospect outside their legal calling hours (federal and state, in
 * every zone they may be in) is refused with `calling_window` before any read; in a state that limits calls
 * to one number in 24 hours, the main read also takes the one bounded count (an index range seek), and a
 * number at the limit is refused with `call_limit`. Both answers say when the call may next be routed.
 *
 * Agents (docs/decisions/0072): an order with agents rings the least recently used one free now, chosen
 * in the claim itself (agent-routing-sql.ts); with none free the order is passed over like a full one.
 */
import { sql } from "drizzle-orm";
import { localTime } from "../../../src/domain/time-zones";
import { storedConsent, TRUSTED_FORM_REQUIRED } from "../../../src/features/consent/index";
import { availableAgents } from "../../../src/features/transfers/agent-routing";
import type { PingInput, RouteAnswer } from "../../../src/features/transfers/schemas/partner-api";
import {
  NO_ROUTE_REASONS,
  type NoRouteReason,
  ROUTE_ANSWER_TTL_SECONDS,
  type RoutingCandidate,
  rankEligible,
} from "../../../src/features/transfers/transfers";
import { batchable } from "../../db/raw-batch";
import type { Deps } from "../../deps";
import { ConflictError, InvalidError } from "../../errors";
import {
  pingRegistryHeld,
  pingRegistryStaleSql,
  privateListHoldsSql,
  recordChecksStatement,
  refuseRegistryStale,
  suppressedSql,
} from "../do-not-call/index";
import { transferRoutedFact, webhookRecording } from "../webhook-outbox/index";
import { agentPick, agentsJson, agentsOf, withoutAgents } from "./agent-routing-sql";
import { limitReachedAt, refuseUntil } from "./calling-refusals";
import { type CallingWindow, callingRulesClock, callingWindow, nextAllowedMoment } from "./calling-window";
import { deliveredLastHour, LIMIT_COLUMNS, withinOrderCaps } from "./order-limits-sql";
import { recordRefusal } from "./ping-refusals";
import type { PingSource } from "./ping-source";
import { type CandidateRow, candidatesFor, toCandidate } from "./routing-candidates";
import {
  buyerKeyOf,
  DAY_MS,
  deliveredOnDay,
  heldCount,
  inZone,
  localTimes,
  partnerCallsOn,
  recentContact,
} from "./routing-sql";

export type { PingInput, RouteAnswer };

/** A claim lost to a concurrent ping moves on to the next order, this many times at most. */
const MAX_CLAIM_ATTEMPTS = 5;
/** Orders whose counts are read at once, oldest paid first, and how many such pages at most. */
const COUNT_PAGE = 25;
const MAX_COUNT_PAGES = 8;

/**
 * The open orders for a state, without their counts (0 until `withCounts`): cheap even with thousands
 * of open orders, so routing ranks everything by the rules that need no counting first.
 */
export async function openOrdersFor(deps: Deps, state: string, phone: string): Promise<RoutingCandidate[]> {
  // Raw SQL: the routing read (measured hot path), joined over the routing index's per-state rows.
  // An order whose buyer keeps this number on a private Do Not Call list is left out as if it were not
  // open: with no other order, the answer is the one for a state without orders (decision 0050).
  const rows = await deps.db.all<CandidateRow>(sql`
    SELECT d.order_id, ${buyerKeyOf} AS buyer_key, o.paid_at, d.time_zone, d.hours_start_minute, d.hours_end_minute,
      d.days, ${LIMIT_COLUMNS}, d.per_day_cap, d.transfers_total, d.transfers_billable, 0 AS held, 0 AS delivered_today,
      0 AS delivered_last_hour
    FROM order_delivery_states s
    JOIN order_delivery d ON d.order_id = s.order_id
    JOIN orders o ON o.id = d.order_id
    WHERE s.state IN (${state}, 'ALL') AND d.setup_status = 'ready' AND d.paused = 0
      AND d.transfers_billable < d.transfers_total AND o.status = 'paid'
      AND NOT ${privateListHoldsSql(Number(phone), sql`o.user_id`)}`);
  return rows.map(toCandidate);
}

/** The live holds and today's deliveries (on each buyer's own day) of a few orders. */
export async function withCounts(deps: Deps, orders: RoutingCandidate[]): Promise<RoutingCandidate[]> {
  const { now } = deps;
  const times = localTimes(now);
  const ids = sql.join(
    orders.map((order) => sql`${order.orderId}`),
    sql`, `,
  );
  // Raw SQL: the routing read's correlated counts (measured hot path).
  const rows = await deps.db.all<
    Pick<CandidateRow, "order_id" | "held" | "delivered_today" | "delivered_last_hour" | "agents">
  >(sql`
    SELECT d.order_id, ${heldCount(sql`d.order_id`, now)} AS held, ${agentsJson(sql`d.order_id`, now)} AS agents,
      ${deliveredOnDay(sql`d.order_id`, inZone(times, "d.time_zone", "day"), now)} AS delivered_today,
      ${deliveredLastHour(sql`d.order_id`, sql`d.per_hour_cap`, now)} AS delivered_last_hour
    FROM order_delivery d WHERE d.order_id IN (${ids})`);
  const counts = new Map(rows.map((row) => [row.order_id, row]));
  return orders.map((order) => ({
    ...order,
    held: counts.get(order.orderId)?.held ?? 0,
    deliveredToday: counts.get(order.orderId)?.delivered_today ?? 0,
    deliveredLastHour: counts.get(order.orderId)?.delivered_last_hour ?? 0,
    agents: agentsOf(counts.get(order.orderId)?.agents),
  }));
}

/** Buyers who had a contact with this phone within the duplicate window. */
async function recentBuyers(deps: Deps, phone: string): Promise<Set<string>> {
  // Raw SQL: the duplicate rule's condition shared with the claim (recentContact).
  const rows = await deps.db.all<{ buyer_key: string }>(sql`
    SELECT DISTINCT t.buyer_key FROM transfers t WHERE ${recentContact(phone, deps.now)}`);
  return new Set(rows.map((row) => row.buyer_key));
}

const buyerId = (buyerKey: string) => (buyerKey.startsWith("email:") ? null : buyerKey);

function noRoute(reason: NoRouteReason): never {
  throw new ConflictError(NO_ROUTE_REASONS[reason], { reason });
}

/** The ping's opt-in time, which may not lie ahead of the clock, and the partner's TrustedForm rule (the schema checked every field's form). */
function readPing(input: PingInput, now: number, owner: PingSource) {
  const optInAt = Date.parse(input.consent.optInAt);
  if (optInAt > now + 5 * 60_000) throw new InvalidError("consent.optInAt cannot be in the future.");
  if (owner.requireTrustedForm && !input.consent.trustedFormUrl) throw new InvalidError(TRUSTED_FORM_REQUIRED);
  return { ...input.prospect, optInAt };
}

/** The prospect as routing uses it: the ping's fields and the calling rules' answer for now, when open. */
// `registryHeld`: a registry copy that applies holds the number (docs/decisions/0084), asked once before routing.
type Prospect = ReturnType<typeof readPing> & { window: Extract<CallingWindow, { open: true }>; registryHeld: boolean };

/**
 * Routes a partner's ping to the oldest-paid eligible order, or throws a 409 naming why none is. A ping
 * that breaks a rule (400) counts nothing; every 409 is counted for the day (ping-refusals.ts).
 */
export async function routeTransfer(deps: Deps, owner: PingSource, input: PingInput): Promise<RouteAnswer> {
  const ping = readPing(input, deps.now, owner);
  const partnerDay = localTime(deps.now, owner.timeZone).day;
  try {
    // The calling rules first: pure and cached, no read (docs/decisions/0064).
    const window = callingWindow(ping, callingRulesClock(deps));
    if (!window.open) refuseUntil("calling_window", window.nextAllowedAt);
    const registryHeld = await pingRegistryHeld(deps, ping.phone, ping.state);
    return await route(deps, owner, { ...ping, window, registryHeld }, input.consent, partnerDay);
  } catch (error) {
    const reason = error instanceof ConflictError ? error.details?.reason : undefined;
    if (typeof reason === "string" && reason in NO_ROUTE_REASONS) {
      await recordRefusal(deps, owner.partnerId, partnerDay, reason as NoRouteReason);
    }
    throw error;
  }
}

async function route(
  deps: Deps,
  owner: PingSource,
  prospect: Prospect,
  consent: PingInput["consent"],
  partnerDay: string,
): Promise<RouteAnswer> {
  const { db, now } = deps;
  // One statement (raw SQL, the measured routing path): whether a shared Do Not Call list holds the
  // caller's number (one seek) and what the partner used of its daily call cap, beside the first few
  // candidates, already in paid order. The shared verdict waits until an order would take the call.
  // In a state that limits calls per 24 hours, the same statement takes the bounded count; it also asks whether
  // a stale registry copy covers the prospect.
  const limit = prospect.window.callLimit;
  const rows = await db.all<
    CandidateRow & { partner_calls: number; suppressed: number; limit_at: number | null; registry_stale: number }
  >(sql`
    SELECT pc.partner_calls, pc.suppressed, pc.limit_at, pc.registry_stale, c.* FROM (SELECT ${partnerCallsOn(owner.partnerId, partnerDay)} AS partner_calls,
      ${suppressedSql(Number(prospect.phone), prospect.registryHeld)} AS suppressed, ${limitReachedAt(prospect.phone, limit, now)} AS limit_at,
      ${pingRegistryStaleSql(prospect.state, now)} AS registry_stale) pc
    LEFT JOIN (${candidatesFor(prospect.state, prospect.phone, now, COUNT_PAGE)}) c ON 1
    ORDER BY c.paid_at, c.order_id`);
  // A stale registry copy covering the prospect stops the call before anything is counted (docs/decisions/0085).
  if (rows[0]?.registry_stale) refuseRegistryStale();
  if ((rows[0]?.partner_calls ?? 0) >= owner.dailyCallCap) noRoute("partner_cap_reached");
  const suppressed = Boolean(rows[0]?.suppressed);
  const limitAt = rows[0]?.limit_at ?? null;
  // A shared list, then the 24-hour limit, answer only once an order would take the call, and each such
  // answer uses one of the partner's daily calls (decisions 0050 and 0064): neither is a free lookup.
  const refuseIfBarred = () => {
    if (suppressed) noRoute("suppressed");
    if (limitAt === null) return;
    const { states, zones } = prospect.window;
    refuseUntil("call_limit", nextAllowedMoment(states, zones, Math.max(now, limitAt + DAY_MS)));
  };
  // The SQL left out this phone's recent buyers, so no candidate here is a duplicate.
  const candidates = rows.filter((row) => row.order_id !== null).map(toCandidate);
  const ranked = rankEligible(candidates, { now, recentBuyerKeys: new Set(), state: prospect.state });
  let claims = 0;
  if (!("reason" in ranked)) {
    refuseIfBarred();
    for (const order of ranked.orders) {
      if (claims++ >= MAX_CLAIM_ATTEMPTS) return noRoute("caps_reached");
      const answer = await claim(deps, owner, prospect, consent, order, partnerDay);
      if (answer) return answer;
    }
  }
  // Rarely (none of the first few can take the call, or none passes): every open order, to go further
  // down the list or to name why none is eligible. It answers `suppressed` where an order would take the
  // call; for a number only at its limit, that answer becomes `call_limit`.
  const barred = suppressed || limitAt !== null;
  return routeByFullRead(deps, owner, prospect, consent, { partnerDay, suppressed: barred }, claims).catch((error) => {
    if (error instanceof ConflictError && error.details?.reason === "suppressed") refuseIfBarred();
    throw error;
  });
}

/** The same rule over every open order of the state, counts read a page at a time. */
async function routeByFullRead(
  deps: Deps,
  owner: PingSource,
  prospect: Prospect,
  consent: PingInput["consent"],
  { partnerDay, suppressed }: { partnerDay: string; suppressed: boolean },
  claimsSoFar: number,
): Promise<RouteAnswer> {
  const { now } = deps;
  const [open, recentBuyerKeys] = await Promise.all([
    openOrdersFor(deps, prospect.state, prospect.phone),
    recentBuyers(deps, prospect.phone),
  ]);
  // First the rules that need no counting (state, duplicates, hours) over every open order, oldest paid
  // first; then the counts (slots, the day's cap) for a page of those at a time.
  const ranked = rankEligible(open, { now, recentBuyerKeys, state: prospect.state });
  if ("reason" in ranked) noRoute(ranked.reason);
  let claims = claimsSoFar;
  for (let page = 0; page * COUNT_PAGE < ranked.orders.length && page < MAX_COUNT_PAGES; page++) {
    const counted = rankEligible(
      await withCounts(deps, ranked.orders.slice(page * COUNT_PAGE, (page + 1) * COUNT_PAGE)),
      { now, recentBuyerKeys, state: prospect.state },
    );
    if ("reason" in counted) continue;
    if (suppressed) noRoute("suppressed");
    for (const order of counted.orders) {
      if (claims++ >= MAX_CLAIM_ATTEMPTS) return noRoute("caps_reached");
      const answer = await claim(deps, owner, prospect, consent, order, partnerDay);
      if (answer) return answer;
    }
  }
  return noRoute("caps_reached");
}

/**
 * Takes a slot on one order, or answers null when a concurrent ping took the last one first (or gave
 * its buyer this prospect first). One INSERT … SELECT: the slot, the day's cap, the order's caps per hour
 * and at once, the partner's cap and the duplicate rule are checked again in the statement that takes the
 * slot, so concurrent pings cannot overfill an order nor deliver one prospect to one buyer twice. An order
 * with agents rings the one `agentPick` chooses in the same statement (no free agent: no row, the next
 * order is tried), so concurrent pings never put two calls on one agent (docs/decisions/0072).
 */
async function claim(
  deps: Deps,
  owner: PingSource,
  prospect: Prospect,
  consent: PingInput["consent"],
  order: RoutingCandidate,
  partnerDay: string,
): Promise<RouteAnswer | null> {
  const { db, now } = deps;
  const id = crypto.randomUUID();
  const buyerDay = localTime(now, order.timeZone).day;
  const evidence = storedConsent(consent);
  // The agents the pure rule lets through; an order without agents (or none read) rings its own phone,
  // provided it still has none.
  const agentIds = availableAgents(order.agents ?? [], prospect.state, now).map((agent) => agent.id);
  if (order.agents?.length && agentIds.length === 0) return null;
  const agent = agentIds.length > 0;
  // Raw SQL: the routing claim (measured hot path), one conditional INSERT … SELECT. In the same batch: its
  // record of the lists it was checked against (the lists are checked again in the statement that takes
  // the slot, so a number suppressed a moment ago is not routed) and the buyer's `transfer.routed`
  // webhook, each written only if the claim inserted the row.
  const hooks = await webhookRecording(deps, transferRoutedFact(id, now));
  const claim = batchable(
    db,
    db.all<{ id: string; transfer_phone: string }>(sql`
    INSERT INTO transfers (id, partner_id, api_key_id, order_id, buyer_user_id, buyer_key, first_name, last_name,
      phone, state, zip, age, opt_in_at, opt_in_url, trusted_form_url, jornaya_lead_id, consent_text, ip_address,
      transfer_phone, agent_id, status, routed_at, expires_at, buyer_local_day, partner_local_day)
    SELECT ${id}, ${owner.partnerId}, ${owner.apiKeyId}, d.order_id, o.user_id, ${buyerKeyOf}, ${prospect.firstName},
      ${prospect.lastName}, ${prospect.phone}, ${prospect.state}, ${prospect.zip ?? null}, ${prospect.age ?? null},
      ${prospect.optInAt}, ${evidence.optInUrl}, ${evidence.trustedFormUrl}, ${evidence.jornayaLeadId},
      ${evidence.consentText}, ${evidence.ipAddress}, ${agent ? sql`g.transfer_phone, g.id` : sql`d.transfer_phone, NULL`},
      'routed', ${now}, ${now + ROUTE_ANSWER_TTL_SECONDS * 1000}, ${buyerDay}, ${partnerDay}
    FROM order_delivery d JOIN orders o ON o.id = d.order_id
      ${agent ? sql`JOIN ${agentPick(order.orderId, agentIds, now)} g` : sql``}
    WHERE d.order_id = ${order.orderId} AND d.paused = 0 AND o.status = 'paid'
      AND ${agent ? sql`1` : withoutAgents(sql`d.order_id`)}
      AND d.transfers_billable + ${heldCount(sql`d.order_id`, now)} < d.transfers_total
      AND ${deliveredOnDay(sql`d.order_id`, buyerDay, now)} < d.per_day_cap
      AND ${withinOrderCaps(heldCount(sql`d.order_id`, now), now)}
      AND ${partnerCallsOn(owner.partnerId, partnerDay)} < ${owner.dailyCallCap}
      AND ${limitReachedAt(prospect.phone, prospect.window.callLimit, now)} IS NULL
      AND NOT EXISTS (SELECT 1 FROM transfers t WHERE ${recentContact(prospect.phone, now)} AND t.buyer_key = ${buyerKeyOf})
      AND NOT ${suppressedSql(Number(prospect.phone), prospect.registryHeld)} AND NOT ${privateListHoldsSql(Number(prospect.phone), sql`o.user_id`)}
    RETURNING id, transfer_phone`),
  );
  const checks = recordChecksStatement(
    deps,
    // The buyer key is the buyer's user id, or 'email:…' for an order without an account (no private list).
    { type: "transfer", id, userId: buyerId(order.buyerKey), states: [prospect.state] },
    now,
    sql`EXISTS (SELECT 1 FROM transfers WHERE id = ${id})`,
  );
  // The webhook statements go last: `hooks.enqueue` reads their results from the end.
  const results = await db.batch([claim, checks, ...hooks.statements]);
  await hooks.enqueue(deps, results);
  const [claimed] = results[0];
  return claimed
    ? { transferId: claimed.id, phoneNumber: claimed.transfer_phone, expiresInSeconds: ROUTE_ANSWER_TTL_SECONDS }
    : null;
}
