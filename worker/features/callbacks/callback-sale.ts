/**
 * The sale of a marketplace call-back or appointment at payment (docs/decisions/0061), joined to the
 * order's `pending → paid` batch in orders.ts the way an aged-lead sale is (leads.ts). The buyer's own
 * private Do Not Call list applies here, and only here (decision 0049); the 30-day rule again (decision 0075).
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { MARKET_MESSAGES } from "../../../src/features/callbacks/callback-market";
import { notChargedMessage } from "../../../src/features/do-not-call/index";
import { callbackOpportunities as callbacks, orders } from "../../db/schema";
import type { Deps } from "../../deps";
import {
  callbackNotCoveredSql,
  privateListHoldsSql,
  recordChecksStatement,
  staleRegistryCallbackRefusal,
  suppressedSql,
} from "../do-not-call/index";
import { recordNotCharged } from "../orders/index";
import { callbackDeliveredFact } from "../webhook-outbox/index";
import { mailCallbackDelivered } from "./callback-notifications";
import { hadProspectSql } from "./same-prospect";

type Order = typeof orders.$inferSelect;

/** Ends a purchase's reservation (a payment that could not start, or a sale refused at payment). */
export const releaseStatement = (deps: Pick<Deps, "db">, orderId: string) =>
  deps.db
    .update(callbacks)
    .set({ reservedOrderId: null, reservedUntil: null, reservedByUserId: null })
    .where(and(eq(callbacks.reservedOrderId, orderId), isNull(callbacks.buyerUserId)));

/**
 * After a full refund (docs/decisions/0075): the order's delivered call-backs are marked refunded, as an
 * aged lead is. They leave My Call-Backs, its reminders and the return cap's deliveries, and are not
 * listed again: their contact details were delivered. Runs in the refund's batch and only if that batch
 * left the order refunded.
 */
export function refundCallbacksStatement(deps: Pick<Deps, "db" | "now">, order: { id: string; userId: string | null }) {
  const refunded = sql`EXISTS (SELECT 1 FROM ${orders} WHERE ${orders.id} = ${order.id} AND ${orders.status} = 'refunded')`;
  return deps.db
    .update(callbacks)
    .set({ refundedAt: new Date(deps.now) })
    .where(
      and(
        eq(callbacks.orderId, order.id),
        eq(callbacks.buyerUserId, order.userId ?? ""),
        isNull(callbacks.refundedAt),
        refunded,
      ),
    );
}

const callbackIdOf = (order: Pick<Order, "details">) => String(order.details.callbackId ?? "");

/**
 * The sale of a marketplace order's call-back, joined to the order's `pending → paid` batch (orders.ts),
 * in the shape of an aged-lead sale: the order becomes paid only if its reservation still holds the
 * call-back and the buyer's private list does not hold its number; then the call-back is delivered.
 */
export function callbackSaleStatements(deps: Deps, order: Pick<Order, "id" | "userId" | "details">) {
  const { db, now } = deps;
  const id = callbackIdOf(order);
  const paidNow = sql`EXISTS (SELECT 1 FROM ${orders} WHERE ${orders.id} = ${order.id} AND ${orders.status} = 'paid' AND ${orders.paidAt} = ${now})`;
  const held = and(
    eq(callbacks.id, id),
    eq(callbacks.reservedOrderId, order.id),
    isNull(callbacks.orderId),
    isNull(callbacks.buyerUserId),
  );
  // Neither list holds the number, and the buyer did not receive the prospect within 30 days (decision 0075).
  const notPrivate = sql`NOT ${privateListHoldsSql(sql`${callbacks.phoneKey}`, order.userId ?? "")}
    AND NOT ${suppressedSql(sql`${callbacks.phoneKey}`, sql`${callbacks.registryListedAt}`)}
    AND NOT ${hadProspectSql(order.userId ?? "", sql`${callbacks.phoneKey}`, now)}
    AND ${callbackNotCoveredSql(sql`${callbacks.state}`, now)}`;
  const kind = order.details.callbackKind === "appointment" ? "appointment" : "callback";
  return {
    callbackId: id,
    allSellable: sql`EXISTS (SELECT 1 FROM ${callbacks} WHERE ${held} AND ${notPrivate})`,
    details: sql`${orders.details}`,
    sell: db
      .update(callbacks)
      .set({
        orderId: order.id,
        buyerUserId: order.userId,
        deliveredAt: new Date(now),
        reservedUntil: null,
        reservedByUserId: null,
      })
      .where(and(held, paidNow)),
    /** A one-item order holds nothing else: this ends no other reservation (the aged-lead sale's shape). */
    release: db
      .update(callbacks)
      .set({ reservedOrderId: null, reservedUntil: null, reservedByUserId: null })
      .where(and(eq(callbacks.reservedOrderId, order.id), isNull(callbacks.buyerUserId), paidNow)),
    checks: recordChecksStatement(
      deps,
      {
        type: "order",
        id: order.id,
        userId: order.userId,
        states: sql`SELECT state FROM ${callbacks} WHERE ${callbacks.id} = ${id}`,
      },
      now,
      paidNow,
    ),
    /** The `callback.delivered` / `appointment.delivered` webhook, recorded only if `sell` delivered it. */
    facts: callbackDeliveredFact({ id, kind }, order.id, now),
    /** After the order became paid: the buyer's delivery e-mail (decision 0060). */
    delivered: () => mailCallbackDelivered(deps, id),
    /** Why the sale was refused, once the order stayed pending (it is then refunded). */
    refusal: () => callbackRefusal(deps, order),
  };
}

/**
 * Why a marketplace order's sale was refused (it stays pending and is refunded): the buyer's own private
 * list holds the number (left out and not charged, decision 0049), or another buyer has it.
 */
async function callbackRefusal(deps: Deps, order: Pick<Order, "id" | "userId" | "details">) {
  const id = callbackIdOf(order);
  const [onList] = await deps.db
    .select({ id: callbacks.id })
    .from(callbacks)
    .where(and(eq(callbacks.id, id), privateListHoldsSql(sql`${callbacks.phoneKey}`, order.userId ?? "")));
  const [onShared] = await deps.db
    .select({ id: callbacks.id })
    .from(callbacks)
    .where(and(eq(callbacks.id, id), suppressedSql(sql`${callbacks.phoneKey}`, sql`${callbacks.registryListedAt}`)));
  const [had] = await deps.db
    .select({ id: callbacks.id })
    .from(callbacks)
    .where(and(eq(callbacks.id, id), hadProspectSql(order.userId ?? "", sql`${callbacks.phoneKey}`, deps.now)));
  const stale = await staleRegistryCallbackRefusal(deps, id);
  await releaseStatement(deps, order.id);
  if (onShared) return MARKET_MESSAGES.suppressed;
  if (stale) return stale;
  if (had) return MARKET_MESSAGES.hadProspectAtPayment;
  if (!onList) return MARKET_MESSAGES.lost;
  await recordNotCharged(deps, order.id, [id]);
  return notChargedMessage(1);
}
