/** Call-backs as My Call-Backs and their returns see them: paid call-back orders and delivered rows, arranged directly. */
import { env } from "cloudflare:workers";
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
  return env.DB.prepare("SELECT order_id, buyer_user_id, outcome, returned_at FROM callback_opportunities WHERE id = ?")
    .bind(id)
    .first<{
      order_id: string | null;
      buyer_user_id: string | null;
      outcome: string | null;
      returned_at: number | null;
    }>();
}

/** Call-backs of an order that count against it (not returned). */
export async function countedIn(orderId: string): Promise<number> {
  const row = await env.DB.prepare(
    "SELECT count(*) AS n FROM callback_opportunities WHERE order_id = ? AND returned_at IS NULL",
  )
    .bind(orderId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}
