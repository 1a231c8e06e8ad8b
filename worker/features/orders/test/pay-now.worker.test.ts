/**
 * 'Pay now' in My Orders: the buyer's own pending order is paid on the intent it already
 * has, so paying later makes no second order; nobody else's order, and no order past pending, can be resumed.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { testDb } from "../../../../tests/worker/factories";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import { payWithCard } from "../../../../tests/worker/payment-fixtures";
import { orders, simulatedPaymentIntents } from "../../../db/schema";

const ORDER_FORM = {
  totalTransfers: 2,
  callsPerDay: 1,
  transferHours: "9-5",
  transferPhone: "5551112222",
  workingStates: "tx",
  leadType: "Live Transfers",
  price: 70,
};

interface Start {
  orderId: string;
  clientSecret: string;
  amountCents: number;
  provider: string;
}

async function pendingOrder(cookie: string): Promise<Start> {
  const response = await callApi("/api/call-transfer-order", { json: ORDER_FORM, cookie });
  expect(response.status).toBe(200);
  return response.json<Start>();
}

const payNow = (orderId: string, cookie?: string) =>
  callApi(`/api/my-orders/${orderId}/payment`, { method: "POST", ...(cookie ? { cookie } : {}) });

describe("POST /api/my-orders/:orderId/payment", () => {
  it("gives the owner the pending order's own payment again, and paying it pays that order", async () => {
    const { cookie } = await signedIn();
    const started = await pendingOrder(cookie);
    const response = await payNow(started.orderId, cookie);
    expect(response.status).toBe(200);
    const resumed = await response.json<Start>();
    expect(resumed).toMatchObject({
      orderId: started.orderId,
      clientSecret: started.clientSecret,
      amountCents: 7_000,
      provider: "simulated",
    });
    expect((await payWithCard(resumed.clientSecret)).status).toBe(200);
    const rows = await testDb().select({ status: orders.status }).from(orders).where(eq(orders.id, started.orderId));
    expect(rows).toEqual([{ status: "paid" }]);
  });

  it("answers 409 once the order is paid", async () => {
    const { cookie } = await signedIn();
    const started = await pendingOrder(cookie);
    await payWithCard(started.clientSecret);
    const response = await payNow(started.orderId, cookie);
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ message: "This order is not waiting for payment." });
  });

  it("answers 409 when the order's payment was cancelled meanwhile", async () => {
    const { cookie } = await signedIn();
    const started = await pendingOrder(cookie);
    const db = testDb();
    const [order] = await db
      .select({ intent: orders.paymentIntentId })
      .from(orders)
      .where(eq(orders.id, started.orderId));
    await db
      .update(simulatedPaymentIntents)
      .set({ status: "canceled" })
      .where(eq(simulatedPaymentIntents.id, order?.intent ?? ""));
    const response = await payNow(started.orderId, cookie);
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ message: "This payment can no longer be made. Please place a new order." });
  });

  it("answers 404 for another buyer's order and for an unknown one, 401 signed out", async () => {
    const owner = await signedIn();
    const started = await pendingOrder(owner.cookie);
    const other = await signedIn();
    expect((await payNow(started.orderId, other.cookie)).status).toBe(404);
    expect((await payNow(crypto.randomUUID(), owner.cookie)).status).toBe(404);
    expect((await payNow(started.orderId)).status).toBe(401);
  });
});
