/**
 * The order-status route's access rule (docs/features.md, "Order status"): GET
 * /api/orders/:orderId/status answers the order's signed-in owner, or whoever holds that order's payment
 * client secret (the return pages read it from the return URL); everyone else gets the same 404 as for an
 * order that does not exist, so order ids cannot be probed.
 */
import { describe, expect, it } from "vitest";
import { callApi, latestMailTo, signedIn } from "../../../../tests/worker/helpers";
import { payWithCard } from "../../../../tests/worker/payment-fixtures";

interface Started {
  orderId: string;
  clientSecret: string;
}

async function startOrder(cookie?: string, email?: string): Promise<Started> {
  const response = await callApi("/api/create-payment-intent", {
    json: { amount: 39, callCount: 1, ...(email ? { email } : {}) },
    cookie,
  });
  expect(response.status).toBe(200);
  return response.json<Started>();
}

const statusPath = (orderId: string, clientSecret?: string) =>
  `/api/orders/${orderId}/status${clientSecret ? `?client_secret=${encodeURIComponent(clientSecret)}` : ""}`;

async function expectNotFound(response: Response) {
  expect(response.status).toBe(404);
  expect(await response.json()).toEqual({ message: "Order not found" });
}

describe("GET /api/orders/:orderId/status: who may read an order", () => {
  it("the owner, signed in, without the secret; the answer names no secret", async () => {
    const owner = await signedIn();
    const order = await startOrder(owner.cookie);
    const response = await callApi(statusPath(order.orderId), { cookie: owner.cookie });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: order.orderId,
      kind: "package",
      status: "pending",
      quantity: 1,
      totalCents: 3900,
      // Leads left out for the buyer's private list (aged-lead orders, after payment only: decision 0049).
      notCharged: 0,
      notice: null,
      deliverySetupEmailedTo: null,
    });
  });

  it("not another buyer, an admin, or an anonymous caller without the secret", async () => {
    const owner = await signedIn();
    const order = await startOrder(owner.cookie);
    const otherBuyer = await signedIn();
    const admin = await signedIn({ isAdmin: true });
    await expectNotFound(await callApi(statusPath(order.orderId), { cookie: otherBuyer.cookie }));
    await expectNotFound(await callApi(statusPath(order.orderId), { cookie: admin.cookie }));
    await expectNotFound(await callApi(statusPath(order.orderId)));
  });

  it("whoever holds the order's own secret, signed in or not", async () => {
    const owner = await signedIn();
    const order = await startOrder(owner.cookie);
    const stranger = await signedIn();
    expect((await callApi(statusPath(order.orderId, order.clientSecret))).status).toBe(200);
    const asStranger = await callApi(statusPath(order.orderId, order.clientSecret), { cookie: stranger.cookie });
    expect(asStranger.status).toBe(200);
    expect(await asStranger.json()).toMatchObject({ id: order.orderId, status: "pending" });
  });

  it("not with another order's secret, and an unknown order looks the same as a forbidden one", async () => {
    const order = await startOrder(undefined, "status-a@example.com");
    const other = await startOrder(undefined, "status-b@example.com");
    await expectNotFound(await callApi(statusPath(order.orderId, other.clientSecret)));
    await expectNotFound(await callApi(statusPath(crypto.randomUUID(), order.clientSecret)));
  });
});

describe("GET /api/orders/:orderId/status: the delivery-setup link", () => {
  it("names the address the setup link went to, once the anonymous package order is paid", async () => {
    const email = `setup-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const order = await startOrder(undefined, email);
    const before = await callApi(statusPath(order.orderId, order.clientSecret));
    expect(await before.json()).toMatchObject({ status: "pending", deliverySetupEmailedTo: null });
    expect((await payWithCard(order.clientSecret)).status).toBe(200);
    const after = await callApi(statusPath(order.orderId, order.clientSecret));
    expect(await after.json()).toMatchObject({ status: "paid", deliverySetupEmailedTo: email });
    expect(await latestMailTo(email)).not.toBeNull();
  });
});
