/**
 * Call-backs and appointments: taken in (a partner through the API, an admin), scrubbed, and placed in
 * the paid call-back order that src/features/callbacks/callbacks.ts `chooseOrder` picks (docs/decisions/0058).
 *
 * Placing is one conditional UPDATE that re-checks, in the database, what the choice assumed: the
 * call-back is still unassigned and its window open, the order still paid with room, and the prospect
 * has not gone to that buyer within 30 days. Two placements racing for an order's last place, or for one
 * call-back, leave exactly one winner; the loser chooses again from what is left.
 */
import { and, asc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { WINDOW_FIT_LABELS } from "../../../src/domain/callable";
import { csvLines } from "../../../src/domain/csv-writer";
import { defaultTimeZone } from "../../../src/domain/time-zones";
import { CALLBACK_OUTCOME_LABELS, callbackReturnBy } from "../../../src/features/callbacks/callback-outcomes";
import {
  type CallbackToPlace,
  callbackOrderTerms,
  chooseOrder,
  type OpenCallbackOrder,
  orderMisfit,
  prospectBuyerKey,
  SAME_PROSPECT_WINDOW_MS,
  windowLabel,
  windowOf,
  windowProblem,
} from "../../../src/features/callbacks/callbacks";
import type {
  CallbackAccepted,
  CallbackInput,
  DeliveredCallback,
} from "../../../src/features/callbacks/schemas/callbacks";
import { CONSENT_CSV_HEADER, consentCsvCells, TRUSTED_FORM_REQUIRED } from "../../../src/features/consent/index";
import { phoneKey } from "../../../src/features/do-not-call/index";
import { surveyUnitCents } from "../../../src/features/orders/index";
import { callbackOpportunities as callbacks, orders, returns } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError, InvalidError } from "../../errors";
import { purchasedLeadConsent } from "../consent/index";
import { callbackNotCoveredSql, registryDeliveryHold, registryHolds, suppressedSql } from "../do-not-call/index";
import type { PingSource } from "../transfers/index";
import { callableMemo, prospectTimeZone, windowFit } from "../transfers/index";
import { callbackDeliveredFact, webhookRecording } from "../webhook-outbox/index";
import { mailCallbackDelivered } from "./callback-notifications";
import { hadProspectSql } from "./same-prospect";

/** What a partner is told about a number on a shared Do Not Call list (the list is not named). */
const CALLBACK_SUPPRESSED = "The prospect's number is on a Do Not Call list; the call-back was not taken.";
/** How many times a placement chooses again after losing a race. */
const PLACE_ATTEMPTS = 5;

/**
 * Where a call-back came from. The admin's form (and an import) may set its own price; a partner's is the
 * survey's call-back price (product rule 4).
 */
type Source =
  | { source: "partner"; owner: PingSource }
  | { source: "admin"; createdBy: string; priceCents?: number }
  | {
      source: "import";
      createdBy: string | null;
      priceCents: number;
      /** The row's own id (decision 0069): a batch delivered again does not take the row twice. */
      id: string;
      importId: string;
      importBatch: number;
    };

/**
 * A call-back as the service takes it: a partner's payload, or the admin's form (docs/decisions/0059),
 * whose prospect may have no last name (the form has one name field) and whose consent evidence is
 * optional (the single aged-lead form's, opt-in time in epoch milliseconds).
 */
export type CallbackIntake = Omit<CallbackInput, "consent"> & {
  consent: Partial<Omit<CallbackInput["consent"], "optInAt">> & { optInAt?: string | number | undefined };
};

/** The stored name: first and last, either of which the admin's form may leave out. */
const prospectName = (prospect: { firstName: string; lastName: string }) =>
  [prospect.firstName, prospect.lastName].filter(Boolean).join(" ");

/** Takes a call-back in, checked and scrubbed, and places it at once when a paid order fits. */
export async function takeCallback(deps: Deps, input: CallbackIntake, from: Source): Promise<CallbackAccepted> {
  const { db, now } = deps;
  // An explicit zone, else the ZIP's, else the area code's state's, else the state's (docs/decisions/0064).
  const timeZone = prospectTimeZone(input.prospect);
  const window = windowOf(input.kind, input.window, timeZone);
  if (!window) throw new InvalidError("window.to must be a time after window.from");
  const problem = windowProblem(window, now);
  if (problem) throw new InvalidError(`${problem}.`);
  const given = input.consent.optInAt;
  const optInAt = given === undefined ? null : typeof given === "number" ? given : Date.parse(given);
  if (optInAt !== null && optInAt > now + 5 * 60_000)
    throw new InvalidError("consent.optInAt cannot be in the future.");
  if (from.source === "partner" && from.owner.requireTrustedForm && !input.consent.trustedFormUrl)
    throw new InvalidError(TRUSTED_FORM_REQUIRED);
  const key = phoneKey(input.prospect.phone);
  if (key === null) throw new InvalidError("prospect.phone must be a 10-digit US phone number.");
  const onRegistry = (await registryHolds(deps, key, input.prospect.state)) !== null;
  const [listed] = await db.all<{ held: number }>(sql`SELECT ${suppressedSql(key, onRegistry)} AS held`);
  if (listed?.held) throw new ConflictError(CALLBACK_SUPPRESSED, { reason: "suppressed" });

  const id = from.source === "import" ? from.id : crypto.randomUUID();
  const insert = db.insert(callbacks).values({
    id,
    kind: input.kind,
    name: prospectName(input.prospect),
    email: input.prospect.email ?? "",
    phone: input.prospect.phone,
    phoneKey: key,
    state: input.prospect.state,
    zip: input.prospect.zip ?? null,
    timeZone,
    windowStart: new Date(window.windowStart),
    windowEnd: new Date(window.windowEnd),
    priceCents: (from.source !== "partner" ? from.priceCents : undefined) ?? surveyUnitCents("Call-Backs"),
    source: from.source,
    partnerId: from.source === "partner" ? from.owner.partnerId : null,
    createdBy: from.source === "partner" ? null : from.createdBy,
    optInAt: optInAt === null ? null : new Date(optInAt),
    optInUrl: input.consent.optInUrl ?? null,
    consentText: input.consent.consentText || null,
    ipAddress: input.consent.ipAddress ?? null,
    trustedFormUrl: input.consent.trustedFormUrl ?? null,
    jornayaLeadId: input.consent.jornayaLeadId ?? null,
    importId: from.source === "import" ? from.importId : null,
    importBatch: from.source === "import" ? from.importBatch : null,
  });
  await (from.source === "import" ? insert.onConflictDoNothing() : insert);
  await placeCallback(deps, id);
  return {
    callbackId: id,
    windowStart: new Date(window.windowStart).toISOString(),
    windowEnd: new Date(window.windowEnd).toISOString(),
  };
}

/** Every paid call-back order with room left, as the choice sees it. */
export async function openCallbackOrders(deps: Pick<Deps, "db">): Promise<OpenCallbackOrder[]> {
  const delivered = deps.db
    .select({ orderId: callbacks.orderId, count: sql<number>`count(*)`.as("count") })
    .from(callbacks)
    .where(isNull(callbacks.returnedAt))
    .groupBy(callbacks.orderId)
    .as("delivered");
  const rows = await deps.db
    .select({
      id: orders.id,
      userId: orders.userId,
      kind: orders.kind,
      details: orders.details,
      paidAt: orders.paidAt,
      quantity: orders.quantity,
      delivered: sql<number>`coalesce(${delivered.count}, 0)`,
    })
    .from(orders)
    .leftJoin(delivered, eq(delivered.orderId, orders.id))
    .where(and(eq(orders.status, "paid"), inArray(orders.kind, ["survey", "ringcloud"])));
  return rows.flatMap((row) => {
    const terms = callbackOrderTerms(row.kind, row.details);
    if (!terms || !row.userId || !row.paidAt || row.delivered >= row.quantity) return [];
    return [
      {
        id: row.id,
        userId: row.userId,
        paidAt: row.paidAt.getTime(),
        quantity: row.quantity,
        delivered: row.delivered,
        ...terms,
      },
    ];
  });
}

/** What one placement did: placed the call-back now, found it already placed, or placed it nowhere (why). */
export type Placement = { placed: string } | { already: string } | { unplaced: string };

/** How a placement picks: from `open` (read once by the caller), and only `orderId` when an admin chose it. */
interface PlacementChoice {
  /** The open orders as last read, shared by a run's placements: kept up to date as they place, read again after a lost race. */
  open?: { orders: OpenCallbackOrder[] | null };
  /** The order an admin picked by hand (docs/decisions/0063): this one, or none. */
  orderId?: string;
}

const NOTHING_FITS = "No open call-back order fits it.";
const ORDER_NOT_OPEN = "That order is not an open call-back order.";
const WINDOW_PASSED = "The call-back's window has passed.";

/**
 * Places one unassigned call-back in the order `chooseOrder` picks (or the admin's, when it fits).
 * The open orders are read here unless the caller passes them; after a lost race they are read again.
 */
export async function placeCallback(deps: Deps, callbackId: string, pick: PlacementChoice = {}): Promise<Placement> {
  const { db, now } = deps;
  const open = pick.open ?? { orders: null };
  for (let attempt = 0; attempt < PLACE_ATTEMPTS; attempt++) {
    const [row] = await db.select().from(callbacks).where(eq(callbacks.id, callbackId));
    if (row?.orderId) return { already: row.orderId };
    if (!row?.windowStart || !row.windowEnd || !row.timeZone || row.phoneKey === null)
      return { unplaced: NOTHING_FITS };
    const callback: CallbackToPlace = {
      id: row.id,
      state: row.state,
      phoneKey: row.phoneKey,
      timeZone: row.timeZone,
      windowStart: row.windowStart.getTime(),
      windowEnd: row.windowEnd.getTime(),
    };
    if (callback.windowEnd <= now) return { unplaced: WINDOW_PASSED };
    // Held while a stale registry copy covers its prospect (docs/decisions/0085).
    const held = await registryDeliveryHold(deps, row.state);
    if (held) return { unplaced: held };
    open.orders ??= await openCallbackOrders(deps);
    const recent = await db
      .selectDistinct({ userId: callbacks.buyerUserId })
      .from(callbacks)
      .where(
        and(eq(callbacks.phoneKey, row.phoneKey), gt(callbacks.deliveredAt, new Date(now - SAME_PROSPECT_WINDOW_MS))),
      );
    const seen = new Set(recent.flatMap((r) => (r.userId ? [prospectBuyerKey(r.userId, row.phoneKey ?? 0)] : [])));
    const candidates =
      pick.orderId === undefined ? open.orders : open.orders.filter((order) => order.id === pick.orderId);
    if (pick.orderId !== undefined) {
      const [chosen] = candidates;
      if (!chosen) return { unplaced: ORDER_NOT_OPEN };
      const misfit = orderMisfit(callback, chosen, seen);
      if (misfit) return { unplaced: misfit };
    }
    const order = chooseOrder(callback, candidates, seen, now);
    if (!order) return { unplaced: NOTHING_FITS };
    // The buyer's webhook joins the placement's batch: recorded only if this UPDATE placed it (docs/decisions/0060).
    const hooks = await webhookRecording(deps, callbackDeliveredFact(row, order.id, now));
    const place = db
      .update(callbacks)
      .set({ orderId: order.id, buyerUserId: order.userId, deliveredAt: new Date(now) })
      .where(
        and(
          eq(callbacks.id, callbackId),
          isNull(callbacks.orderId),
          gt(callbacks.windowEnd, new Date(now)),
          // Not while a marketplace purchase holds it for payment (decision 0061).
          sql`(${callbacks.reservedUntil} IS NULL OR ${callbacks.reservedUntil} < ${now})`,
          // Not once a shared Do Not Call list holds its number (a request may come after intake).
          sql`NOT ${suppressedSql(sql`${callbacks.phoneKey}`, sql`${callbacks.registryListedAt}`)}`,
          callbackNotCoveredSql(sql`${callbacks.state}`, now),
          sql`(SELECT count(*) FROM callback_opportunities WHERE order_id = ${order.id} AND returned_at IS NULL) < ${order.quantity}`,
          sql`EXISTS (SELECT 1 FROM orders WHERE id = ${order.id} AND status = 'paid')`,
          sql`NOT ${hadProspectSql(order.userId, row.phoneKey, now)}`,
        ),
      )
      .returning({ id: callbacks.id });
    const results = await db.batch([place, ...hooks.statements]);
    await hooks.enqueue(deps, results);
    if (results[0].length > 0) {
      order.delivered++;
      await mailCallbackDelivered(deps, callbackId);
      return { placed: order.id };
    }
    // Lost a race (for the call-back or the order's last place): what is open has changed; read it again.
    open.orders = null;
  }
  return { unplaced: NOTHING_FITS };
}

/**
 * After a call-back order is paid, or an approved return gave an order a place back (decision 0062): the
 * waiting call-backs that fit go to the open orders, oldest first. An order counts its call-backs that
 * were not returned. The open orders are read once for the run (and again only after a lost race).
 */
export async function fillCallbackOrders(deps: Deps, limit = 100): Promise<number> {
  const waiting = await deps.db
    .select({ id: callbacks.id })
    .from(callbacks)
    .where(and(isNull(callbacks.orderId), gt(callbacks.windowEnd, new Date(deps.now))))
    .orderBy(asc(callbacks.windowStart), asc(callbacks.id))
    .limit(limit);
  if (waiting.length === 0) return 0;
  const open = { orders: (await openCallbackOrders(deps)) as OpenCallbackOrder[] | null };
  let placed = 0;
  for (const { id } of waiting) {
    if (open.orders?.every((order) => order.delivered >= order.quantity)) break;
    const placement = await placeCallback(deps, id, { open });
    if ("placed" in placement) placed++;
  }
  return placed;
}

/**
 * A buyer's delivered call-backs and appointments: those still to come first, soonest window first, then
 * the passed ones, latest first.
 */
export async function deliveredCallbacks(deps: Pick<Deps, "db" | "now">, userId: string): Promise<DeliveredCallback[]> {
  const passed = sql`${callbacks.windowEnd} <= ${deps.now}`;
  const rows = await deps.db
    .select({ row: callbacks, returnStatus: returns.status, returnNote: returns.adminNote })
    .from(callbacks)
    .leftJoin(returns, eq(returns.callbackId, callbacks.id))
    // A refunded one left with its order's money (docs/decisions/0075).
    .where(and(eq(callbacks.buyerUserId, userId), isNull(callbacks.refundedAt)))
    .orderBy(passed, sql`CASE WHEN ${passed} THEN -${callbacks.windowStart} ELSE ${callbacks.windowStart} END`)
    .limit(500);
  // When the buyer may call each, at the request's clock, and whether its own window is legal (decision 0070).
  const callable = callableMemo(deps.now);
  return rows.map(({ row, returnStatus, returnNote }) => {
    const place = { state: row.state, phone: row.phone, zip: row.zip, timeZone: row.timeZone };
    const windowStart = (row.windowStart ?? row.createdAt).getTime();
    const windowEnd = (row.windowEnd ?? row.createdAt).getTime();
    return {
      id: row.id,
      kind: row.kind,
      name: row.name,
      phone: row.phone,
      email: row.email,
      state: row.state,
      timeZone: row.timeZone ?? defaultTimeZone(row.state),
      windowStart: (row.windowStart ?? row.createdAt).toISOString(),
      windowEnd: (row.windowEnd ?? row.createdAt).toISOString(),
      deliveredAt: (row.deliveredAt ?? row.createdAt).toISOString(),
      orderId: row.orderId ?? "",
      consent: purchasedLeadConsent({ ...row, certificateCheck: null }),
      outcome: row.outcome,
      returnBy: new Date(callbackReturnBy((row.windowEnd ?? row.createdAt).getTime())).toISOString(),
      returnStatus,
      returnNote,
      callable: callable(place),
      windowFit: windowFit(place, windowStart, windowEnd),
    };
  });
}

/** My Call-Backs as CSV: the contact, the window in the prospect's zone and in UTC, and the consent. */
export async function deliveredCallbacksCsv(deps: Pick<Deps, "db" | "now">, userId: string): Promise<string> {
  const header = [
    "Kind",
    "Name",
    "Phone",
    "E-mail",
    "State",
    "Time zone",
    "Window (prospect's time)",
    "Window start (UTC)",
    "Window end (UTC)",
    "Delivered (UTC)",
    "Order",
    "Outcome",
    "Return",
    "Callable",
    "Window and calling hours",
    ...CONSENT_CSV_HEADER,
  ];
  const rows = (await deliveredCallbacks(deps, userId)).map((item) => [
    item.kind === "appointment" ? "Appointment" : "Call-back",
    item.name,
    item.phone,
    item.email,
    item.state,
    item.timeZone,
    windowLabel({
      windowStart: Date.parse(item.windowStart),
      windowEnd: Date.parse(item.windowEnd),
      timeZone: item.timeZone,
    }),
    item.windowStart,
    item.windowEnd,
    item.deliveredAt,
    item.orderId,
    item.outcome ? CALLBACK_OUTCOME_LABELS[item.outcome] : "",
    item.returnStatus ?? "",
    item.callable.label,
    WINDOW_FIT_LABELS[item.windowFit],
    ...consentCsvCells(item.consent),
  ]);
  return rows.length > 0 ? `${csvLines([header])}\r\n${csvLines(rows, true)}` : csvLines([header]);
}
