/**
 * Outcomes and returns of delivered call-backs and appointments (product rule 24, docs/decisions/0062):
 * the buyer marks each one reached, no answer or wrong number; one not reached can be returned from the
 * end of its window until 24 hours after, within the buyer's cap (worker/features/returns/returns.ts records
 * it). An approved return gives its order a place back, or credits a call-back bought without an order.
 */
import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { CallbackOutcome } from "../../../src/features/callbacks/index";
import {
  CALLBACK_RETURN_MESSAGES,
  callbackReturnProblem,
  UNREACHED_OUTCOMES,
} from "../../../src/features/returns/callback-returns";
import { callbackOpportunities as callbacks, orders, returns } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError, NotFoundError } from "../../errors";
import { fillCallbackOrders } from "../callbacks/index";
import { creditReturnWhenStatement } from "../orders/index";

const NO_SUCH_CALLBACK = "No such call-back.";

/**
 * Marks the buyer's delivered call-back; changeable until a return of it is pending or approved (a
 * denied one leaves it open). 404 for a call-back that is not the buyer's.
 */
export async function setCallbackOutcome(
  deps: Deps,
  userId: string,
  callbackId: string,
  outcome: CallbackOutcome,
): Promise<{ id: string; outcome: CallbackOutcome }> {
  const { db, now } = deps;
  const updated = await db
    .update(callbacks)
    .set({ outcome, outcomeAt: new Date(now) })
    .where(
      and(
        eq(callbacks.id, callbackId),
        eq(callbacks.buyerUserId, userId),
        sql`NOT EXISTS (SELECT 1 FROM ${returns} WHERE ${returns.callbackId} = ${callbackId}
          AND ${returns.status} <> 'denied')`,
      ),
    )
    .returning({ id: callbacks.id });
  if (updated.length > 0) return { id: callbackId, outcome };
  const [mine] = await db
    .select({ id: callbacks.id })
    .from(callbacks)
    .where(and(eq(callbacks.id, callbackId), eq(callbacks.buyerUserId, userId)));
  if (!mine) throw new NotFoundError(NO_SUCH_CALLBACK);
  throw new ConflictError(CALLBACK_RETURN_MESSAGES.outcomeLocked);
}

/**
 * The buyer's call-back as a return needs it: 404 when not the buyer's, 409 when not marked unreached or
 * outside its return period. Its order is '' when it was bought without one.
 */
export async function returnableCallback(deps: Deps, userId: string, callbackId: string) {
  const { db, now } = deps;
  const [row] = await db
    .select({ orderId: callbacks.orderId, outcome: callbacks.outcome, windowEnd: callbacks.windowEnd })
    .from(callbacks)
    .where(and(eq(callbacks.id, callbackId), eq(callbacks.buyerUserId, userId)));
  if (!row?.windowEnd) throw new NotFoundError(NO_SUCH_CALLBACK);
  const problem = callbackReturnProblem({ outcome: row.outcome, windowEnd: row.windowEnd.getTime() }, now);
  if (problem) throw new ConflictError(problem);
  return { orderId: row.orderId ?? "" };
}

/**
 * For the return's INSERT (returns.ts), in the same statement: a call-back is still the buyer's and marked
 * not reached. The outcome's UPDATE refuses once a return is pending, and D1 runs one statement at a time,
 * so an outcome changed to "reached" and a return racing it never both stand. Other kinds: no condition.
 */
export function stillUnreached(userId: string, input: { kind: string; itemId: string }): SQL {
  if (input.kind !== "callback") return sql`1`;
  const unreached = sql.join(
    UNREACHED_OUTCOMES.map((outcome) => sql`${outcome}`),
    sql`, `,
  );
  return sql`EXISTS (SELECT 1 FROM ${callbacks} WHERE ${callbacks.id} = ${input.itemId}
    AND ${callbacks.buyerUserId} = ${userId} AND ${callbacks.outcome} IN (${unreached}))`;
}

/**
 * What an approval of a call-back return writes in the decision's batch, each only if `decidedHere`: the
 * call-back marked returned (no longer counted in its order), and for one bought without an order its
 * price credited to the buyer's balance (so is one bought from the marketplace). `refill` tells whether an order got a place back.
 */
export async function callbackApprovalStatements(
  deps: Deps,
  approval: { returnId: string; callbackId: string; buyerUserId: string; adminId: string },
  decidedHere: SQL,
) {
  const { db, now } = deps;
  const [row] = await db
    .select({ orderId: callbacks.orderId, priceCents: callbacks.priceCents, orderKind: orders.kind })
    .from(callbacks)
    .leftJoin(orders, eq(orders.id, callbacks.orderId))
    .where(eq(callbacks.id, approval.callbackId));
  if (!row) throw new NotFoundError(NO_SUCH_CALLBACK);
  // A marketplace purchase (its own order of kind 'callbacks', decision 0061) has no place to give back:
  // it is credited like a call-back bought without an order.
  const refill = Boolean(row.orderId) && row.orderKind !== "callbacks";
  const markReturned = db
    .update(callbacks)
    .set({ returnedAt: new Date(now) })
    .where(and(eq(callbacks.id, approval.callbackId), isNull(callbacks.returnedAt), decidedHere));
  const credit = refill
    ? []
    : [
        creditReturnWhenStatement(
          deps,
          {
            userId: approval.buyerUserId,
            amountCents: row.priceCents,
            returnId: approval.returnId,
            createdBy: approval.adminId,
          },
          decidedHere,
        ),
      ];
  return { statements: [markReturned, ...credit] as const, refill };
}

/** After an approval gave an order a place back: the next waiting call-back fills it (failures logged). */
export async function refillAfterReturn(deps: Deps, returnId: string): Promise<void> {
  try {
    await fillCallbackOrders(deps);
  } catch (error) {
    console.error(`Return ${returnId}: placing waiting call-backs failed`, error);
  }
}
