/**
 * The marketplace of unassigned call-backs and appointments (docs/decisions/0061): listed masked, bought
 * one at a time by card or balance like aged leads (product rule 14). A purchase reserves the call-back
 * for its pending order with one conditional UPDATE (two buyers racing: exactly one holds it); the
 * payment's success sells it in the order's own `pending → paid` batch (orders.ts), writing the buyer,
 * `delivered_at` and, as `order_id`, the purchase's own order (kind `callbacks`), so it shows in My
 * Call-Backs, gets the delivery webhook, e-mail and reminder of a placed call-back (decision 0060). A
 * prospect the buyer received within 30 days is not sold to that buyer (decision 0075).
 */
import { and, asc, eq, gt, isNull, lt, ne, or, sql } from "drizzle-orm";
import { maskName, maskPhone } from "../../../src/domain/masking";
import type { PaymentStart } from "../../../src/domain/schemas/payments";
import { defaultTimeZone } from "../../../src/domain/time-zones";
import type { PublicUser } from "../../../src/domain/user";
import {
  calendarInvite,
  MARKET_LIST_LIMIT,
  MARKET_MESSAGES,
  type MarketCallback,
} from "../../../src/features/callbacks/callback-market";
import type { CallbackKind } from "../../../src/features/callbacks/callbacks";
import { RESERVATION_MINUTES } from "../../../src/features/orders/index";
import { callbackOpportunities as callbacks } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError, NotFoundError } from "../../errors";
import { refuseStaleRegistryCallback, suppressedSql } from "../do-not-call/index";
import type { PaymentProvider } from "../orders/index";
import { applyBalance, BALANCE_INTENT_PREFIX, processPaymentEvent, refundBalance, startPayment } from "../orders/index";
import { releaseStatement } from "./callback-sale";
import { hadProspectSql } from "./same-prospect";

/**
 * For sale at `now`: nobody's (no order, no buyer), its window not yet started, no shared Do Not Call list
 * holds it. The buyer's own private list is not part of it (decision 0049: it applies at payment only).
 */
const forSale = (now: number) =>
  and(
    isNull(callbacks.orderId),
    isNull(callbacks.buyerUserId),
    gt(callbacks.windowStart, new Date(now)),
    sql`NOT ${suppressedSql(sql`${callbacks.phoneKey}`, sql`${callbacks.registryListedAt}`)}`,
  );
/** No other purchase's reservation is running. */
const notHeld = (now: number) => or(isNull(callbacks.reservedUntil), lt(callbacks.reservedUntil, new Date(now)));

/** The listing of one kind: masked, soonest window first; the same for every buyer. */
export async function listMarketCallbacks(deps: Deps, kind: CallbackKind): Promise<MarketCallback[]> {
  const rows = await deps.db
    .select()
    .from(callbacks)
    .where(and(eq(callbacks.kind, kind), forSale(deps.now), notHeld(deps.now)))
    .orderBy(asc(callbacks.windowStart), asc(callbacks.id))
    .limit(MARKET_LIST_LIMIT);
  return rows.flatMap((row) =>
    row.windowStart && row.windowEnd
      ? [
          {
            id: row.id,
            kind: row.kind,
            name: maskName(row.name),
            phone: maskPhone(row.phone),
            state: row.state,
            timeZone: row.timeZone ?? defaultTimeZone(row.state),
            windowStart: row.windowStart.toISOString(),
            windowEnd: row.windowEnd.toISOString(),
            priceCents: row.priceCents,
          },
        ]
      : [],
  );
}

/** Why `callbackId` could not be reserved for `userId` at `now` (it was read after the reservation failed). */
async function whyNotForSale(deps: Deps, callbackId: string, userId: string): Promise<Error> {
  const [row] = await deps.db.select().from(callbacks).where(eq(callbacks.id, callbackId));
  if (!row?.windowStart) return new NotFoundError(MARKET_MESSAGES.unknown);
  if (row.orderId || row.buyerUserId) return new ConflictError(MARKET_MESSAGES.sold, { reason: "sold" });
  if (row.windowStart.getTime() <= deps.now) return new ConflictError(MARKET_MESSAGES.started, { reason: "started" });
  const [listed] = await deps.db.all<{ held: number }>(
    sql`SELECT ${suppressedSql(row.phoneKey ?? 0, row.registryListedAt !== null)} AS held`,
  );
  // A number that reached a shared list is no longer sold: to a buyer it is gone, like a sold one.
  if (listed?.held) return new ConflictError(MARKET_MESSAGES.sold, { reason: "sold" });
  const [had] = await deps.db.all<{ had: number }>(
    sql`SELECT ${hadProspectSql(userId, row.phoneKey ?? 0, deps.now)} AS had`,
  );
  if (had?.had) return new ConflictError(MARKET_MESSAGES.hadProspect, { reason: "had_prospect" });
  return new ConflictError(MARKET_MESSAGES.reserved, { reason: "reserved" });
}

/**
 * Buys one call-back or appointment: reserves it for a new pending order (kind `callbacks`), applies the
 * buyer's balance and starts the card payment for the rest. Paid in full by the balance, it is sold at once.
 */
export async function purchaseCallback(
  deps: Deps,
  provider: PaymentProvider,
  user: PublicUser,
  callbackId: string,
): Promise<
  PaymentStart & { balanceAppliedCents: number; paidWithBalance: boolean; callbackId: string; kind: CallbackKind }
> {
  const { db, now } = deps;
  // A stale registry copy covering the prospect stops the purchase before any charge (docs/decisions/0085).
  await refuseStaleRegistryCallback(deps, callbackId);
  const orderId = crypto.randomUUID();
  // A buyer holds one purchase at a time, as with aged leads: the batch first ends the buyer's other
  // running holds (only when this one can be had, so a refused attempt keeps them), so no buyer can keep
  // the marketplace reserved. Then the reservation: one conditional UPDATE, so of buyers racing for one
  // call-back exactly one holds it. One batch, one transaction.
  const mine = eq(callbacks.reservedByUserId, user.id);
  // The 30-day rule: a prospect the buyer received within 30 days is refused here, before any charge. The
  // listing stays the same for every buyer (docs/decisions/0075: hiding it would unmask it).
  const newToBuyer = sql`NOT ${hadProspectSql(user.id, sql`${callbacks.phoneKey}`, now)}`;
  const obtainable = sql`EXISTS (SELECT 1 FROM ${callbacks} WHERE ${and(eq(callbacks.id, callbackId), forSale(now), or(notHeld(now), mine), newToBuyer)})`;
  // Buying again what the buyer already holds moves the hold to the new order but never extends it: a
  // buyer cannot keep one call-back off the market by buying it every 14 minutes.
  const [, reserved] = await db.batch([
    db
      .update(callbacks)
      .set({ reservedOrderId: null, reservedUntil: null, reservedByUserId: null })
      .where(and(mine, ne(callbacks.id, callbackId), isNull(callbacks.buyerUserId), obtainable)),
    db
      .update(callbacks)
      .set({
        reservedOrderId: orderId,
        reservedUntil: sql`CASE WHEN ${mine} AND ${callbacks.reservedUntil} > ${now} THEN ${callbacks.reservedUntil}
          ELSE ${now + RESERVATION_MINUTES * 60_000} END`,
        reservedByUserId: user.id,
      })
      .where(and(eq(callbacks.id, callbackId), forSale(now), or(notHeld(now), mine), newToBuyer))
      .returning(),
  ]);
  const [row] = reserved;
  if (!row) throw await whyNotForSale(deps, callbackId, user.id);
  let balanceAppliedCents = 0;
  let payment: PaymentStart;
  try {
    balanceAppliedCents = await applyBalance(deps, user.id, orderId, row.priceCents);
    payment = await startPayment(deps, provider, {
      id: orderId,
      kind: "callbacks",
      tier: null,
      quote: { ok: true, quantity: 1, unitCents: row.priceCents, totalCents: row.priceCents },
      userId: user.id,
      email: user.email,
      details: { callbackId: row.id, callbackKind: row.kind },
      balanceAppliedCents,
    });
  } catch (error) {
    await releaseStatement(deps, orderId);
    await refundBalance(deps, orderId);
    throw error;
  }
  const paidWithBalance = balanceAppliedCents > 0 && payment.amountCents === 0;
  if (paidWithBalance) {
    // Nothing left for a card: confirmed at once, through the path a provider's event takes.
    const intent = `${BALANCE_INTENT_PREFIX}${orderId}`;
    await processPaymentEvent(
      deps,
      {
        id: intent,
        type: "payment_intent.succeeded",
        paymentIntentId: intent,
        amountCents: 0,
        currency: payment.currency,
      },
      deps.env.PUBLIC_SITE_URL ?? "",
    );
  }
  return { ...payment, balanceAppliedCents, paidWithBalance, callbackId: row.id, kind: row.kind };
}

/** The `.ics` invite of a call-back or appointment delivered to `userId`; anyone else's is unknown. */
export async function callbackInvite(deps: Deps, userId: string, callbackId: string, host: string): Promise<string> {
  const [row] = await deps.db
    .select()
    .from(callbacks)
    .where(and(eq(callbacks.id, callbackId), eq(callbacks.buyerUserId, userId), isNull(callbacks.refundedAt)));
  if (!row?.windowStart || !row.windowEnd) throw new NotFoundError(MARKET_MESSAGES.unknown);
  return calendarInvite(
    {
      id: row.id,
      kind: row.kind,
      name: row.name,
      phone: row.phone,
      state: row.state,
      timeZone: row.timeZone ?? defaultTimeZone(row.state),
      windowStart: row.windowStart.getTime(),
      windowEnd: row.windowEnd.getTime(),
    },
    deps.now,
    host,
  );
}
