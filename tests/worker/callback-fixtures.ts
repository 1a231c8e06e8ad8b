/** Call-backs as My Call-Backs and their returns see them: paid call-back orders and delivered rows, arranged directly. */

import { env } from "cloudflare:workers";
import { and, eq, isNull } from "drizzle-orm";
import { callbackOpportunities } from "../../worker/db/schema";
import { createDeps } from "../../worker/deps";
import { createCallbackOrder, testDb } from "./factories";
import { newPhone } from "./transfer-fixtures";

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

/** A paid survey "Call-Backs" order of `userId`, paid `paidAgo` ms ago (the factories' call-back order). */
export async function paidCallbackOrder(userId: string, quantity: number, paidAgo = 0): Promise<string> {
  const order = await createCallbackOrder(testDb(), { userId, quantity, paidAt: new Date(Date.now() - paidAgo) });
  return order.id;
}

/**
 * A call-back whose two-hour window ended `endedAgo` ms ago (negative: still to come), delivered to
 * `buyerUserId` in `orderId` (null: bought without an order; both null: waiting, unassigned).
 */
export async function addCallback(options: {
  buyerUserId: string | null;
  orderId: string | null;
  endedAgo: number;
  priceCents?: number;
}): Promise<string> {
  const id = crypto.randomUUID();
  const now = Date.now();
  const phone = newPhone();
  const windowEnd = now - options.endedAgo;
  await createDeps(env)
    .db.insert(callbackOpportunities)
    .values({
      id,
      name: "Ruth Miller",
      email: "ruth@example.com",
      phone,
      phoneKey: Number(phone),
      state: "TX",
      timeZone: "America/Chicago",
      windowStart: new Date(windowEnd - 2 * HOUR),
      windowEnd: new Date(windowEnd),
      priceCents: options.priceCents ?? 1500,
      source: "admin",
      orderId: options.orderId,
      buyerUserId: options.buyerUserId,
      deliveredAt: options.buyerUserId ? new Date(Math.min(now, windowEnd - 3 * HOUR)) : null,
    });
  return id;
}

export async function callbackRow(id: string) {
  const [row] = await testDb()
    .select({
      orderId: callbackOpportunities.orderId,
      buyerUserId: callbackOpportunities.buyerUserId,
      outcome: callbackOpportunities.outcome,
      returnedAt: callbackOpportunities.returnedAt,
    })
    .from(callbackOpportunities)
    .where(eq(callbackOpportunities.id, id));
  return row
    ? {
        order_id: row.orderId,
        buyer_user_id: row.buyerUserId,
        outcome: row.outcome,
        returned_at: row.returnedAt?.getTime() ?? null,
      }
    : null;
}

/** Call-backs of an order that count against it (not returned). */
export async function countedIn(orderId: string): Promise<number> {
  return testDb().$count(
    callbackOpportunities,
    and(eq(callbackOpportunities.orderId, orderId), isNull(callbackOpportunities.returnedAt)),
  );
}
