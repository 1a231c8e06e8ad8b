/**
 * The refund-due path: money that arrives for an order which can no longer be fulfilled
 * goes back to the buyer, the order reads `refunded` with the reason, and the admins' order list shows it so.
 */
import { describe, expect, it } from "vitest";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import {
  orderRow,
  payWithCard,
  sendStripeEvent,
  simulatedIntentOf,
  succeededIntent,
} from "../../../../tests/worker/payment-fixtures";

interface ListedOrder {
  id: string;
  status: string;
  totalPrice: number;
}

async function liveTransferOrder(cookie: string) {
  const response = await callApi("/api/call-transfer-order", {
    json: {
      totalTransfers: 2,
      callsPerDay: 1,
      transferHours: "9-5",
      transferPhone: "5559990000",
      workingStates: "TX",
      leadType: "Live Transfers",
      price: 70,
    },
    cookie,
  });
  expect(response.status).toBe(200);
  return response.json<{ orderId: string; clientSecret: string }>();
}

async function adminOrders(cookie: string): Promise<ListedOrder[]> {
  const response = await callApi("/api/transfer-orders", { cookie });
  expect(response.status).toBe(200);
  return response.json<ListedOrder[]>();
}

describe("a payment for an order an admin cancelled meanwhile", () => {
  it("is refunded in full, once, and the admins' order list shows the order refunded", async () => {
    const buyer = await signedIn();
    const admin = await signedIn({ isAdmin: true });
    const order = await liveTransferOrder(buyer.cookie);
    // The buyer is still on the payment page when an admin cancels the pending order.
    const cancel = await callApi(`/api/transfer-orders/${order.orderId}/status`, {
      method: "PATCH",
      json: { status: "cancelled" },
      cookie: admin.cookie,
    });
    expect(cancel.status).toBe(200);

    expect((await payWithCard(order.clientSecret)).status).toBe(200);

    const row = await orderRow(order.orderId);
    expect(row).toMatchObject({
      status: "refunded",
      refunded_at: expect.any(Number),
      paid_at: null,
      payment_error: expect.stringMatching(/cancelled.*refunded/),
    });
    // The provider gave the whole amount back.
    expect(await simulatedIntentOf(order.orderId)).toMatchObject({ refunded_cents: row?.total_cents });

    const listed = (await adminOrders(admin.cookie)).find((o) => o.id === order.orderId);
    expect(listed).toMatchObject({ status: "refunded", totalPrice: 70 });

    // The buyer sees the same status, not a paid order.
    const status = await callApi(`/api/orders/${order.orderId}/status`, { cookie: buyer.cookie });
    expect(await status.json()).toMatchObject({ status: "refunded" });

    // The provider's own copy of the event (same payment, another event id) refunds nothing more.
    const intentId = String(row?.payment_intent_id);
    const again = await sendStripeEvent(
      "payment_intent.succeeded",
      succeededIntent(intentId, Number(row?.total_cents)),
    );
    expect(again.status).toBe(200);
    expect(await simulatedIntentOf(order.orderId)).toMatchObject({ refunded_cents: row?.total_cents });
    expect(await orderRow(order.orderId)).toMatchObject({ status: "refunded" });
  });

  it("a payment for an order still open is kept: the order is paid and nothing is refunded", async () => {
    const buyer = await signedIn();
    const admin = await signedIn({ isAdmin: true });
    const order = await liveTransferOrder(buyer.cookie);
    expect((await payWithCard(order.clientSecret)).status).toBe(200);
    expect(await orderRow(order.orderId)).toMatchObject({ status: "paid", refunded_at: null });
    expect(await simulatedIntentOf(order.orderId)).toMatchObject({ refunded_cents: 0 });
    expect((await adminOrders(admin.cookie)).find((o) => o.id === order.orderId)).toMatchObject({ status: "paid" });
  });
});
