/**
 * The buyer's balance (product rule 26): a ledger of credits (approved aged-lead returns) and debits (applied at
 * an aged-lead checkout). The balance is the ledger's sum, never a stored total. A debit takes at most
 * the balance in the statement that writes it, so two checkouts at once cannot spend it twice, and an
 * order's debit is written once and given back once (unique per order and reason).
 */
import { and, desc, eq, notExists, notInArray, type SQL, sql } from "drizzle-orm";
import type { BalanceView } from "../../../src/features/orders/balance";
import { balanceLedger, orders, users } from "../../db/schema";
import type { Deps } from "../../deps";

/** A fresh random id in SQL, for ledger rows written by INSERT … SELECT. */
const sqlId = sql`lower(hex(randomblob(16)))`;

export async function balanceOf(deps: Deps, userId: string): Promise<number> {
  const [row] = await deps.db
    .select({ totalCents: sql<number>`coalesce(sum(${balanceLedger.amountCents}), 0)` })
    .from(balanceLedger)
    .where(eq(balanceLedger.userId, userId));
  return Number(row?.totalCents ?? 0);
}

/** The balance and its latest ledger rows, newest first. */
export async function getBalance(deps: Deps, userId: string): Promise<BalanceView> {
  const { db } = deps;
  const [balanceCents, entries] = await Promise.all([
    balanceOf(deps, userId),
    db
      .select({
        id: balanceLedger.id,
        amountCents: balanceLedger.amountCents,
        reason: balanceLedger.reason,
        createdAt: balanceLedger.createdAt,
      })
      .from(balanceLedger)
      .where(eq(balanceLedger.userId, userId))
      .orderBy(desc(balanceLedger.createdAt), balanceLedger.id)
      .limit(100),
  ]);
  return { balanceCents, entries: entries.map((entry) => ({ ...entry, createdAt: entry.createdAt.getTime() })) };
}

/**
 * Applies the buyer's balance to an order of `totalCents`: one conditional insert that debits
 * min(balance, total) when the balance is above 0, read and written in the same statement. Answers the
 * cents applied (0 when there was no balance or the order already had its debit).
 */
export async function applyBalance(deps: Deps, userId: string, orderId: string, totalCents: number): Promise<number> {
  const { db } = deps;
  // Raw SQL: INSERT … SELECT over the ledger's own sum (drizzle's insert-select cannot aggregate in place).
  const [debit] = await db.all<{ amount_cents: number }>(sql`
    INSERT INTO balance_ledger (id, user_id, amount_cents, reason, order_id, created_by)
    SELECT ${sqlId}, ${userId}, -min(b.balance, ${totalCents}), 'checkout_debit', ${orderId}, ${userId}
    FROM (SELECT coalesce(sum(amount_cents), 0) AS balance FROM balance_ledger WHERE user_id = ${userId}) b
    WHERE b.balance > 0 AND ${totalCents} > 0
    ON CONFLICT DO NOTHING
    RETURNING amount_cents`);
  return debit ? -debit.amount_cents : 0;
}

/**
 * Gives back the balance an order held, once, when the order is cancelled or refunded or was never
 * created (for the batches that cancel or refund it). Nothing for an order without a debit or still live.
 */
export function refundBalanceStatement(deps: Deps, orderId: string) {
  const { db } = deps;
  const live = db
    .select({ one: sql`1` })
    .from(orders)
    .where(and(eq(orders.id, balanceLedger.orderId), notInArray(orders.status, ["cancelled", "refunded"])));
  return db
    .insert(balanceLedger)
    .select(
      db
        .select({
          id: sql<string>`${sqlId}`.as("id"),
          userId: balanceLedger.userId,
          amountCents: sql<number>`-${balanceLedger.amountCents}`.as("amount_cents"),
          reason: sql<"checkout_refund">`'checkout_refund'`.as("reason"),
          returnId: sql<null>`NULL`.as("return_id"),
          orderId: balanceLedger.orderId,
          createdBy: sql<null>`NULL`.as("created_by"),
          createdAt: sql<Date>`(unixepoch('subsec') * 1000)`.as("created_at"),
        })
        .from(balanceLedger)
        .where(and(eq(balanceLedger.orderId, orderId), eq(balanceLedger.reason, "checkout_debit"), notExists(live))),
    )
    .onConflictDoNothing();
}

export async function refundBalance(deps: Deps, orderId: string): Promise<void> {
  await refundBalanceStatement(deps, orderId);
}

/** The credit of an approved aged-lead return (once per return). */
export function creditReturnStatement(
  deps: Deps,
  entry: { userId: string; amountCents: number; returnId: string; createdBy: string },
) {
  return deps.db
    .insert(balanceLedger)
    .values({ id: crypto.randomUUID(), reason: "return_credit", ...entry })
    .onConflictDoNothing();
}

/**
 * The credit of an approved call-back return bought without an order (decision 0062), written only when
 * `decidedHere` holds in the same batch (the approval was this request's) and once per return.
 */
export function creditReturnWhenStatement(
  deps: Deps,
  entry: { userId: string; amountCents: number; returnId: string; createdBy: string },
  decidedHere: SQL,
) {
  const { db } = deps;
  return db
    .insert(balanceLedger)
    .select(
      db
        .select({
          id: sql<string>`${sqlId}`.as("id"),
          userId: users.id,
          amountCents: sql<number>`${entry.amountCents}`.as("amount_cents"),
          reason: sql<"return_credit">`'return_credit'`.as("reason"),
          returnId: sql<string>`${entry.returnId}`.as("return_id"),
          orderId: sql<null>`NULL`.as("order_id"),
          createdBy: sql<string>`${entry.createdBy}`.as("created_by"),
          createdAt: sql<Date>`(unixepoch('subsec') * 1000)`.as("created_at"),
        })
        .from(users)
        .where(and(eq(users.id, entry.userId), decidedHere)),
    )
    .onConflictDoNothing();
}
