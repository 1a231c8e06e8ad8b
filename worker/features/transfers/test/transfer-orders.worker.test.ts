import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { testDb } from "../../../../tests/worker/factories";
import { callApi, expectAdminOnly, signedIn } from "../../../../tests/worker/helpers";
import { orders } from "../../../db/schema";

async function transferOrder(cookie: string) {
  const response = await callApi("/api/call-transfer-order", {
    json: {
      totalTransfers: 3,
      callsPerDay: 1,
      transferHours: "9-5",
      transferPhone: "5559990000",
      workingStates: "TX, FL, GA, OK",
      leadType: "Live Transfers",
      price: 105,
    },
    cookie,
  });
  return response.json<{ orderId: string; clientSecret: string }>();
}

const pay = (clientSecret: string) =>
  callApi("/api/simulated-payments/confirm", {
    json: { clientSecret, cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" },
  });

describe("GET /api/transfer-orders", () => {
  it("is for admins only", () => expectAdminOnly("/api/transfer-orders"));

  it("lists live-transfer orders from every screen with the spec's fields", async () => {
    const buyer = await signedIn();
    const { orderId } = await transferOrder(buyer.cookie);
    const pkg = await (
      await callApi("/api/create-payment-intent", { json: { amount: 39, callCount: 1, email: "pkg@example.com" } })
    ).json<{ orderId: string }>();
    const callbacks = await (
      await callApi("/api/create-payment-intent", {
        json: { amount: 15, leadType: "Call-Backs", quantity: 1, email: "cb@example.com" },
      })
    ).json<{ orderId: string }>();

    const { cookie } = await signedIn({ isAdmin: true });
    const list = await (await callApi("/api/transfer-orders", { cookie })).json<Record<string, unknown>[]>();
    expect(list.find((o) => o.id === orderId)).toEqual({
      id: orderId,
      kind: "transfer",
      firstName: "Test",
      lastName: "User",
      transferNumber: "5559990000",
      phone: "",
      email: buyer.user.email,
      totalTransfers: 3,
      transfersPerDay: 1,
      selectedStates: ["TX", "FL", "GA", "OK"],
      totalPrice: 105,
      status: "pending",
      disputedAt: null,
      disputeReason: null,
      createdAt: expect.any(String),
      delivery: null,
    });
    expect(list.some((o) => o.id === pkg.orderId)).toBe(true);
    expect(list.some((o) => o.id === callbacks.orderId)).toBe(false);
  });
});

describe("PATCH /api/transfer-orders/:id/status", () => {
  it("is for admins only", async () => {
    const buyer = await signedIn();
    const { orderId } = await transferOrder(buyer.cookie);
    await expectAdminOnly(`/api/transfer-orders/${orderId}/status`, { method: "PATCH", json: { status: "cancelled" } });
  });

  it("completes paid orders, cancels pending or paid ones, and refuses the rest with 409", async () => {
    const buyer = await signedIn();
    const { cookie } = await signedIn({ isAdmin: true });
    const change = (id: string, status: string) =>
      callApi(`/api/transfer-orders/${id}/status`, { method: "PATCH", json: { status }, cookie });

    const pending = await transferOrder(buyer.cookie);
    expect((await change(pending.orderId, "completed")).status).toBe(409);
    expect((await change(pending.orderId, "cancelled")).status).toBe(200);
    expect((await change(pending.orderId, "cancelled")).status).toBe(409);

    const paid = await transferOrder(buyer.cookie);
    await pay(paid.clientSecret);
    expect((await change(paid.orderId, "completed")).status).toBe(200);
    const [row] = await testDb().select({ status: orders.status }).from(orders).where(eq(orders.id, paid.orderId));
    expect(row).toEqual({ status: "completed" });
    expect((await change(paid.orderId, "cancelled")).status).toBe(409);

    expect((await change(paid.orderId, "paid")).status).toBe(400);
    expect((await change("no-such-order", "cancelled")).status).toBe(404);
  });
});
