/**
 * The marketplace's edges (docs/decisions/0075): the 30-day rule that placement applies holds for a
 * purchase too (refused at purchase before any charge, or at payment and refunded), and a marketplace
 * call-back whose payment is refunded in full is marked refunded: out of My Call-Backs, its invite, its
 * reminder and the return cap's deliveries, and never listed again.
 */

import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { icsPath, MARKET_MESSAGES } from "../../../../src/features/callbacks/callback-market";
import { testDb } from "../../../../tests/worker/factories";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import { buy, credit, freshPhone, HOUR, listing, row, stock } from "../../../../tests/worker/market-fixtures";
import { orderRow, payWithCard } from "../../../../tests/worker/payment-fixtures";
import { deps } from "../../../../tests/worker/transfer-fixtures";
import { callbackOpportunities, orders } from "../../../db/schema";
import { balanceOf } from "../../orders/balance";
import { processPaymentEvent } from "../../orders/orders";
import { sendCallbackReminders } from "../callback-notifications";

const DAY = 24 * HOUR;

beforeEach(async () => {
  await testDb().delete(callbackOpportunities);
});

/** A call-back of `phone` delivered to `userId` `ago` ms ago (placed in one of the buyer's orders). */
async function received(userId: string, phone: string, ago: number) {
  const { id } = await stock({ kind: "callback", phone, startsIn: -ago + HOUR });
  await testDb()
    .update(callbackOpportunities)
    .set({ buyerUserId: userId, orderId: crypto.randomUUID(), deliveredAt: new Date(Date.now() - ago) })
    .where(eq(callbackOpportunities.id, id));
}

async function ordersOf(userId: string) {
  return testDb().$count(orders, eq(orders.userId, userId));
}

describe("the 30-day rule at a marketplace purchase", () => {
  it("refuses a prospect the buyer received within 30 days at purchase, charging nothing; the listing is the same for all", async () => {
    const buyer = await signedIn();
    const other = await signedIn();
    await credit(buyer.user.id, 1500);
    const phone = freshPhone();
    await received(buyer.user.id, phone, 10 * DAY);
    const item = await stock({ kind: "callback", phone });
    // Hiding it from this buyer alone would tell them which masked prospect is one of theirs.
    expect((await listing(buyer.cookie, "callback")).map((listed) => listed.id)).toEqual([item.id]);
    expect(await listing(buyer.cookie, "callback")).toEqual(await listing(other.cookie, "callback"));

    const refused = await buy(buyer.cookie, item.id);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ message: MARKET_MESSAGES.hadProspect, reason: "had_prospect" });
    expect(await ordersOf(buyer.user.id)).toBe(0);
    expect(await balanceOf(deps(), buyer.user.id)).toBe(1500);
    expect(await row(item.id)).toMatchObject({ buyer_user_id: null, reserved_order_id: null });
    // Another buyer may have it.
    expect((await buy(other.cookie, item.id)).status).toBe(200);
  });

  it("sells a prospect the buyer received more than 30 days ago", async () => {
    const buyer = await signedIn();
    await credit(buyer.user.id, 1500);
    const phone = freshPhone();
    await received(buyer.user.id, phone, 31 * DAY);
    const item = await stock({ kind: "callback", phone });
    const response = await buy(buyer.cookie, item.id);
    expect(response.status).toBe(200);
    expect(await row(item.id)).toMatchObject({ buyer_user_id: buyer.user.id });
  });

  it("refuses at payment, refunded, a prospect that reached the buyer after the purchase; it is listed again", async () => {
    const buyer = await signedIn();
    const item = await stock({ kind: "callback" });
    const response = await buy(buyer.cookie, item.id);
    expect(response.status).toBe(200);
    const start = await response.json<{ clientSecret: string; orderId: string }>();
    // Meanwhile the same prospect was placed in the buyer's call-back order.
    await received(buyer.user.id, item.phone, 0);
    expect((await payWithCard(start.clientSecret)).status).toBe(200);
    expect(await orderRow(start.orderId)).toMatchObject({
      status: "refunded",
      payment_error: MARKET_MESSAGES.hadProspectAtPayment,
    });
    expect(await row(item.id)).toMatchObject({ buyer_user_id: null, order_id: null, reserved_order_id: null });
    const other = await signedIn();
    expect((await listing(other.cookie, "callback")).map((listed) => listed.id)).toEqual([item.id]);
  });
});

describe("a marketplace call-back refunded in full", () => {
  /** The provider's `charge.refunded` for the whole order, or for $1.00 of it. */
  async function refund(orderId: string, fully: boolean) {
    const order = await orderRow(orderId);
    await processPaymentEvent(
      deps(),
      {
        id: `evt_${crypto.randomUUID()}`,
        type: "charge.refunded",
        paymentIntentId: String(order?.payment_intent_id),
        amountRefundedCents: fully ? Number(order?.total_cents) : 100,
        fullyRefunded: fully,
      },
      "http://localhost",
    );
  }

  async function bought(startsIn = DAY) {
    const buyer = await signedIn();
    const item = await stock({ kind: "appointment", startsIn });
    const start = await (await buy(buyer.cookie, item.id)).json<{ clientSecret: string; orderId: string }>();
    expect((await payWithCard(start.clientSecret)).status).toBe(200);
    expect(await row(item.id)).toMatchObject({ buyer_user_id: buyer.user.id, order_id: start.orderId });
    return { ...buyer, item, orderId: start.orderId };
  }

  const myCallbacks = async (cookie: string) =>
    (await (await callApi("/api/my-callbacks", { cookie })).json<{ callbacks: { id: string }[] }>()).callbacks;
  const deliveries = async (cookie: string) =>
    (await (await callApi("/api/returns", { cookie })).json<{ deliveriesInWindow: number }>()).deliveriesInWindow;

  it("is marked refunded: out of My Call-Backs, its invite and the return cap, and never listed again", async () => {
    const { cookie, item, orderId } = await bought();
    expect((await myCallbacks(cookie)).map((mine) => mine.id)).toEqual([item.id]);
    expect(await deliveries(cookie)).toBe(1);

    await refund(orderId, true);
    expect(await orderRow(orderId)).toMatchObject({ status: "refunded" });
    const refunded = await row(item.id);
    expect(refunded?.refunded_at).toEqual(expect.any(Number));
    // Still delivered to its buyer (its number was shown), so never sold again.
    expect(refunded).toMatchObject({ order_id: orderId, delivered_at: expect.any(Number) });
    expect(await myCallbacks(cookie)).toEqual([]);
    expect((await callApi(icsPath(item.id), { cookie })).status).toBe(404);
    expect(await deliveries(cookie)).toBe(0);
    const other = await signedIn();
    expect(await listing(other.cookie, "appointment")).toEqual([]);
  });

  it("gets no reminder once refunded; a partial refund changes nothing", async () => {
    const refundedOne = await bought(10 * 60_000);
    const partlyOne = await bought(10 * 60_000);
    await refund(refundedOne.orderId, true);
    await refund(partlyOne.orderId, false);
    expect((await row(partlyOne.item.id))?.refunded_at).toBeNull();
    expect((await myCallbacks(partlyOne.cookie)).map((mine) => mine.id)).toEqual([partlyOne.item.id]);
    expect(await sendCallbackReminders(deps())).toBe(1);
    expect((await row(refundedOne.item.id))?.reminded_at).toBeNull();
    expect((await row(partlyOne.item.id))?.reminded_at).toEqual(expect.any(Number));
  });
});
