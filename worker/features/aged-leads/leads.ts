/** Aged leads for buyers (product rules 5, 12, 14): pricing, reservation, sale (the list is in lead-listing.ts). */
import { and, count, eq, exists, isNull, sql } from "drizzle-orm";
import { maskName } from "../../../src/domain/masking";
import { RESERVATION_MINUTES } from "../../../src/domain/schemas/dashboard";
import { SUPPRESSED_LEAD_MESSAGE } from "../../../src/features/do-not-call/index";
import { type AgeRange, agedLeadPrice } from "../../../src/features/orders/index";
import { agedLeads, orders } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError, InvalidError } from "../../errors";
import {
  noLeadCoveredByStaleRegistry,
  privateListHoldsSql,
  recordChecksStatement,
  refuseStaleRegistryLeads,
  suppressedLeadIds,
} from "../do-not-call/index";

interface LeadRow {
  id: string;
  name: string;
  email: string | null;
  phone: string;
  state: string;
  age_range: AgeRange | null;
  price_cents: number;
  form_fill_time: number | null;
}

export function priceLead(row: Pick<LeadRow, "form_fill_time" | "age_range" | "price_cents">, now: number) {
  return agedLeadPrice({ formFillTime: row.form_fill_time, ageRange: row.age_range, priceCents: row.price_cents }, now);
}

/**
 * For sale: unsold, not withheld by its upload's certificate rule (decision 0041) and not suppressed (an
 * active shared Do Not Call list holds its number). The one "for sale" test. The buyer's own private list
 * is not part of it: it applies only when the order is paid (`onPrivateList`, docs/decisions/0049), so a
 * reservation answers the same whatever that list holds.
 */
export const FOR_SALE = sql`${agedLeads.soldAt} IS NULL AND ${agedLeads.withheld} = 0 AND ${agedLeads.suppressedAt} IS NULL`;

/** The lead's number is on the active private list of the buyer `userId`: left out of the sale when paid. */
const onPrivateList = (userId: string | null) => privateListHoldsSql(sql`${agedLeads.phoneKey}`, userId ?? "");

/** A lead this order may take: for sale, and not held by another order's running reservation. */
export const sellableTo = (order: { id: string; userId: string | null }, now: number) =>
  sql`${FOR_SALE} AND (${agedLeads.reservedByOrderId} = ${order.id} OR ${agedLeads.reservedUntil} IS NULL OR ${agedLeads.reservedUntil} < ${now})`;

/** `id IN (…)` for any number of ids as one bound JSON parameter (D1 allows 100 parameters a statement). */
const leadIdIn = (ids: readonly string[]) =>
  sql`${agedLeads.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;

const CONFLICT_PREFIX = "Another buyer just bought or reserved these leads, so we took them out of your selection: ";

/**
 * Reserves every lead for the buyer's new order, or none of them (product rule 14), for RESERVATION_MINUTES. A buyer
 * holds one reservation: the same batch releases the buyer's previous one, but only when every lead asked
 * for can be had, so a refused attempt leaves it as it was. Unknown ids → 400; taken ones → 409 naming them.
 */
export async function reserveLeads(
  deps: Deps,
  reservation: { orderId: string; userId: string; leadIds: readonly string[] },
): Promise<{ id: string; priceCents: number }[]> {
  const { db, now } = deps;
  const { orderId, userId } = reservation;
  const ids = [...new Set(reservation.leadIds)];
  // A stale registry copy covering a lead's state stops the whole selection (docs/decisions/0085).
  await refuseStaleRegistryLeads(deps, ids);
  const obtainable = sql`${FOR_SALE} AND (${agedLeads.reservedUntil} IS NULL OR ${agedLeads.reservedUntil} < ${now} OR ${agedLeads.reservedByUserId} = ${userId})`;
  const [known, , reserved] = await db.batch([
    // A withheld lead is never listed: to a buyer it is unknown.
    db
      .select({ id: agedLeads.id, name: agedLeads.name })
      .from(agedLeads)
      .where(and(leadIdIn(ids), eq(agedLeads.withheld, false))),
    db
      .update(agedLeads)
      .set({ reservedByOrderId: null, reservedUntil: null, reservedByUserId: null })
      .where(
        and(
          eq(agedLeads.reservedByUserId, userId),
          isNull(agedLeads.soldAt),
          sql`(SELECT count(*) FROM ${agedLeads} WHERE ${leadIdIn(ids)} AND ${obtainable}) = ${ids.length}`,
        ),
      ),
    db
      .update(agedLeads)
      .set({
        reservedByOrderId: orderId,
        reservedUntil: new Date(now + RESERVATION_MINUTES * 60_000),
        reservedByUserId: userId,
      })
      .where(
        and(leadIdIn(ids), FOR_SALE, sql`(${agedLeads.reservedUntil} IS NULL OR ${agedLeads.reservedUntil} < ${now})`),
      )
      .returning({
        id: agedLeads.id,
        age_range: agedLeads.ageRange,
        price_cents: agedLeads.priceCents,
        form_fill_time: sql<number | null>`${agedLeads.formFillTime}`,
      }),
  ]);
  if (reserved.length === ids.length) {
    return reserved.map((row) => ({ id: row.id, priceCents: priceLead(row, now).priceCents }));
  }
  await releaseLeads(deps, orderId);
  const knownNames = new Map(known.map((row) => [row.id, row.name]));
  const unknown = ids.filter((id) => !knownNames.has(id));
  if (unknown.length > 0) throw new InvalidError(`Unknown leads: ${unknown.join(", ")}`, { unavailable: unknown });
  const reservedIds = new Set(reserved.map((row) => row.id));
  const taken = ids.filter((id) => !reservedIds.has(id));
  // A lead whose number reached a Do Not Call list since it was shown: said so, and never named by its list.
  const suppressed = await suppressedLeadIds(deps, taken);
  if (suppressed.size > 0) {
    throw new ConflictError(SUPPRESSED_LEAD_MESSAGE, { unavailable: taken });
  }
  // Named as the buyer saw them in the list (masked), never by id.
  throw new ConflictError(`${CONFLICT_PREFIX}${taken.map((id) => maskName(knownNames.get(id) ?? "")).join(", ")}`, {
    unavailable: taken,
  });
}

/**
 * After a full refund: the order's sold leads are marked refunded, so they leave My
 * Leads and cannot be returned for balance credit on top of the card refund. They stay off sale (a lead
 * is sold once). Runs in the refund's batch and only if that batch left the order refunded.
 */
export function refundLeadsStatement(deps: Deps, order: { id: string; userId: string | null }) {
  const { db } = deps;
  const refunded = db
    .select({ one: sql`1` })
    .from(orders)
    .where(and(eq(orders.id, order.id), eq(orders.status, "refunded")));
  return db
    .update(agedLeads)
    .set({ refundedAt: new Date(deps.now) })
    .where(
      and(
        // The buyer's own leads first (aged_leads_sold_to_idx), then the order's among them.
        eq(agedLeads.soldToUserId, order.userId ?? ""),
        eq(agedLeads.soldOrderId, order.id),
        isNull(agedLeads.refundedAt),
        exists(refunded),
      ),
    );
}

/** Frees the order's unsold leads. */
export function releaseLeadsStatement(deps: Deps, orderId: string) {
  return deps.db
    .update(agedLeads)
    .set({ reservedByOrderId: null, reservedUntil: null, reservedByUserId: null })
    .where(and(eq(agedLeads.reservedByOrderId, orderId), isNull(agedLeads.soldAt)));
}

export async function releaseLeads(deps: Deps, orderId: string): Promise<void> {
  await releaseLeadsStatement(deps, orderId);
}

/** How many of the order's leads are still reserved by it and running. */
export async function liveReservationSize(deps: Deps, orderId: string): Promise<number> {
  const { db, now } = deps;
  const [row] = await db
    .select({ count: count() })
    .from(agedLeads)
    .where(
      and(
        eq(agedLeads.reservedByOrderId, orderId),
        isNull(agedLeads.soldAt),
        // Unary + keeps the planner on the order's partial index: by `reserved_until` it would walk every
        // running reservation of every buyer (30 ms at a million leads instead of 0.05).
        sql`+${agedLeads.reservedUntil} > ${now}`,
      ),
    );
  return row?.count ?? 0;
}

/**
 * The paid sale of an order's leads, as statements for the payment event's batch: the order becomes paid
 * only if every lead can still go to it (a lead whose reservation ran out is still sold to this buyer
 * unless another buyer has reserved or bought it since) and at least one is not on the buyer's private
 * list. The leads on that list are left out of the sale and named in the order's `notChargedLeadIds`
 * (refunded at once by not-charged.ts); the others are assigned only if the order did become paid at `now`.
 */
export function leadSaleStatements(
  deps: Deps,
  order: { id: string; userId: string | null; leadIds: readonly string[] },
) {
  const { db, now } = deps;
  const ids = leadIdIn(order.leadIds);
  const sellable = sql`(SELECT count(*) FROM ${agedLeads} WHERE ${ids} AND ${sellableTo(order, now)}) = ${order.leadIds.length}`;
  const someCharged = sql`EXISTS (SELECT 1 FROM ${agedLeads} WHERE ${ids} AND NOT ${onPrivateList(order.userId)})`;
  const paidNow = sql`EXISTS (SELECT 1 FROM ${orders} WHERE ${orders.id} = ${order.id} AND ${orders.status} = 'paid' AND ${orders.paidAt} = ${now})`;
  return {
    /** Added to the order's `pending → paid` update. */
    allSellable: sql`${sellable} AND ${someCharged} AND ${noLeadCoveredByStaleRegistry(order.leadIds, now)}`,
    /** The order's `details` with the ids of its leads on the buyer's private list, set by that update. */
    details: sql`json_set(${orders.details}, '$.notChargedLeadIds', json((SELECT json_group_array(${agedLeads.id})
      FROM ${agedLeads} WHERE ${ids} AND ${onPrivateList(order.userId)})))`,
    sell: db
      .update(agedLeads)
      .set({
        soldToUserId: order.userId,
        soldOrderId: order.id,
        soldAt: new Date(now),
        reservedUntil: null,
        reservedByUserId: null,
      })
      .where(and(ids, sellableTo(order, now), sql`NOT ${onPrivateList(order.userId)}`, paidNow)),
    /** The leads left out stay listed for everyone else: the buyer's reservation of them ends. */
    release: db
      .update(agedLeads)
      .set({ reservedByOrderId: null, reservedUntil: null, reservedByUserId: null })
      .where(and(eq(agedLeads.reservedByOrderId, order.id), isNull(agedLeads.soldAt), paidNow)),
    /** What the sale was checked against (every list that applied), recorded only if the order became paid. */
    checks: recordChecksStatement(
      deps,
      { type: "order", id: order.id, userId: order.userId, states: sql`SELECT state FROM ${agedLeads} WHERE ${ids}` },
      now,
      paidNow,
    ),
  };
}

/** Which of these leads are on the buyer's active private list (read after payment only). */
export async function privateListLeadIds(deps: Deps, userId: string | null, leadIds: readonly string[]) {
  const rows = await deps.db
    .select({ id: agedLeads.id })
    .from(agedLeads)
    .where(and(leadIdIn(leadIds), onPrivateList(userId)));
  return rows.map((row) => row.id);
}
