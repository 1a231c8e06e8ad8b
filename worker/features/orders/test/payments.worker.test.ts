import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { insertLeads } from "../../../../tests/worker/bundle-fixtures";
import { testDb } from "../../../../tests/worker/factories";
import { storedRow } from "../../../../tests/worker/factories/rows";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import { orders } from "../../../db/schema";

const email = "buyer-pay@example.com";

async function createIntent(json: Record<string, unknown>, cookie?: string) {
  return callApi("/api/create-payment-intent", { json: { email, ...json }, ...(cookie ? { cookie } : {}) });
}

async function orderFor(orderId: string) {
  return (await storedRow(testDb(), orders, eq(orders.id, orderId))) ?? null;
}

async function pay(clientSecret: string, cardNumber = "4242 4242 4242 4242") {
  return callApi("/api/simulated-payments/confirm", {
    json: { clientSecret, cardNumber, expiry: "12 / 34", cvc: "123" },
  });
}

describe("POST /api/create-payment-intent prices every context on the server", () => {
  it.each([
    ["special pricing", { amount: 975, callCount: 25 }, 97_500, "package", "special"],
    ["high volume 50", { amount: 1600, callCount: 50, tier: "high-volume" }, 160_000, "package", "high-volume"],
    ["high volume 100", { amount: 3000, callCount: 100, tier: "high-volume" }, 300_000, "package", "high-volume"],
    ["high volume 150", { amount: 4350, callCount: 150, tier: "high-volume" }, 435_000, "package", "high-volume"],
    ["high volume 200", { amount: 5600, callCount: 200, tier: "high-volume" }, 560_000, "package", "high-volume"],
    ["premium", { amount: 1850, callCount: 50, tier: "premium" }, 185_000, "package", "premium"],
    ["enterprise", { amount: 3500, callCount: 100, tier: "enterprise" }, 350_000, "package", "enterprise"],
    ["ultimate", { amount: 6400, callCount: 200, tier: "ultimate" }, 640_000, "package", "ultimate"],
    ["survey live transfers", { amount: 350, leadType: "Live Transfers", quantity: 10 }, 35_000, "survey", null],
    ["survey call-backs", { amount: 150, leadType: "Call-Backs", quantity: 10 }, 15_000, "survey", null],
    [
      "ringcloud live",
      { amount: 370, tier: "ringcloud", packageType: "live_transfers", quantity: 10 },
      37_000,
      "ringcloud",
      "ringcloud",
    ],
  ])("%s", async (_name, body, cents, kind, tier) => {
    const response = await createIntent(body);
    expect(response.status).toBe(200);
    const start = await response.json<Record<string, unknown>>();
    expect(start).toMatchObject({
      amountCents: cents,
      currency: "usd",
      provider: "simulated",
      orderId: expect.any(String),
    });
    expect(start.clientSecret).toMatch(/^pi_sim_\w+_secret_\w+$/);
    const order = await orderFor(String(start.orderId));
    expect(order).toMatchObject({ kind, tier, total_cents: cents, status: "pending", email });
    expect(String(start.clientSecret).startsWith(String(order?.payment_intent_id))).toBe(true);
  });

  // Aged-lead bundles go to an account's My Leads and need leads of their band in stock (decision 0057).
  it.each([
    [
      "survey aged 90-180",
      { amount: 20, leadType: "Aged Leads", quantity: 10, ageRange: "90-180" },
      120,
      2000,
      "survey",
      null,
    ],
    [
      "ringcloud partial apps 60-90",
      { amount: 40, tier: "ringcloud", packageType: "partial_apps", quantity: 10, ageRange: "60-90" },
      75,
      4000,
      "ringcloud",
      "ringcloud",
    ],
  ])("%s", async (_name, body, ageDays, cents, kind, tier) => {
    await insertLeads(10, { ageDays });
    const { user, cookie } = await signedIn();
    const response = await createIntent(body, cookie);
    expect(response.status).toBe(200);
    const start = await response.json<Record<string, unknown>>();
    expect(start).toMatchObject({ amountCents: cents, currency: "usd", provider: "simulated" });
    const order = await orderFor(String(start.orderId));
    expect(order).toMatchObject({ kind, tier, total_cents: cents, status: "pending", email: user.email });
  });

  it.each([
    ["a tampered amount", { amount: 1, callCount: 25 }, "The amount does not match the price of this order ($975.00)."],
    [
      "a sub-cent amount",
      { amount: 975.001, callCount: 25 },
      "The amount does not match the price of this order ($975.00).",
    ],
    ["special below the minimum", { amount: 0, callCount: 0 }, "Quantity must be at least 1"],
    ["special above the maximum", { amount: 39_039, callCount: 1001 }, "Quantity must be at most 1000"],
    ["high volume below 50", { amount: 1568, callCount: 49, tier: "high-volume" }, "Quantity must be at least 50"],
    ["premium above 2000", { amount: 74_037, callCount: 2001, tier: "premium" }, "Quantity must be at most 2000"],
    [
      "enterprise above 5000",
      { amount: 175_035, callCount: 5001, tier: "enterprise" },
      "Quantity must be at most 5000",
    ],
    [
      "ultimate above 10000",
      { amount: 320_032, callCount: 10_001, tier: "ultimate" },
      "Quantity must be at most 10000",
    ],
    [
      "high volume above the card maximum",
      { amount: 1_000_020, callCount: 35_715, tier: "high-volume" },
      "Quantity must be at most 35714",
    ],
    ["a non-numeric count", { amount: 975, callCount: "25" }, "Transfer count must be a whole number"],
    ["a fractional count", { amount: 97.5, callCount: 2.5 }, "Transfer count must be a whole number"],
    ["a string amount", { amount: "975", callCount: 25 }, "Amount must be a number in dollars"],
    ["an unknown tier", { amount: 975, callCount: 25, tier: "gold" }, expect.any(String)],
    [
      "aged leads without an age range",
      { amount: 40, leadType: "Aged Leads", quantity: 10 },
      "Please select an age range",
    ],
    ["an unknown lead type", { amount: 40, leadType: "Gold", quantity: 10 }, "Please select a lead type"],
  ])("refuses %s with a readable 400", async (_name, body, message) => {
    const response = await createIntent(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ message });
  });

  it("refuses a body that is not an object", async () => {
    const response = await callApi("/api/create-payment-intent", { json: [1, 2] });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: expect.any(String), errors: expect.any(Object) });
  });

  it("needs an owner: the signed-in user, or an e-mail", async () => {
    const anonymous = await callApi("/api/create-payment-intent", { json: { amount: 39, callCount: 1 } });
    expect(anonymous.status).toBe(400);
    expect(await anonymous.json()).toMatchObject({ message: "Please enter a valid email address" });

    const { user, cookie } = await signedIn();
    const response = await callApi("/api/create-payment-intent", { json: { amount: 39, callCount: 1 }, cookie });
    expect(response.status).toBe(200);
    const order = await orderFor((await response.json<{ orderId: string }>()).orderId);
    expect(order).toMatchObject({ user_id: user.id, email: user.email });
  });
});

describe("simulated card payments (product rule 9)", () => {
  it("4242… pays the order through the same path as the webhook", async () => {
    const start = await (await createIntent({ amount: 39, callCount: 1 })).json<{
      clientSecret: string;
      orderId: string;
    }>();
    const response = await pay(start.clientSecret);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "succeeded" });
    expect(await orderFor(start.orderId)).toMatchObject({ status: "paid", paid_at: expect.any(Number) });
    const status = await callApi(
      `/api/orders/${start.orderId}/status?client_secret=${encodeURIComponent(start.clientSecret)}`,
    );
    expect(await status.json()).toMatchObject({ status: "paid", totalCents: 3900 });

    const again = await pay(start.clientSecret);
    expect(again.status).toBe(409);
  });

  it("4000 0000 0000 0002 is declined with Stripe's message and the failure is recorded", async () => {
    const start = await (await createIntent({ amount: 39, callCount: 1 })).json<{
      clientSecret: string;
      orderId: string;
    }>();
    const response = await pay(start.clientSecret, "4000 0000 0000 0002");
    expect(response.status).toBe(402);
    expect(await response.json()).toEqual({ message: "Your card was declined." });
    expect(await orderFor(start.orderId)).toMatchObject({
      status: "pending",
      payment_error: "Your card was declined.",
    });
    // The buyer can try again with another card.
    expect((await pay(start.clientSecret)).status).toBe(200);
    expect(await orderFor(start.orderId)).toMatchObject({ status: "paid", payment_error: null });
  });

  it.each([
    [{ cardNumber: "4242", expiry: "12 / 34", cvc: "123" }, "Your card number is incomplete."],
    [{ cardNumber: "4242 4242 4242 4241", expiry: "12 / 34", cvc: "123" }, "Your card number is invalid."],
    [{ cardNumber: "4242 4242 4242 4242", expiry: "1", cvc: "123" }, "Your card's expiration date is incomplete."],
    [
      { cardNumber: "4242 4242 4242 4242", expiry: "01 / 20", cvc: "123" },
      "Your card's expiration date is in the past.",
    ],
    [{ cardNumber: "4242 4242 4242 4242", expiry: "12 / 34", cvc: "1" }, "Your card's security code is incomplete."],
  ])("refuses an incomplete card %j", async (card, message) => {
    const start = await (await createIntent({ amount: 39, callCount: 1 })).json<{ clientSecret: string }>();
    const response = await callApi("/api/simulated-payments/confirm", {
      json: { clientSecret: start.clientSecret, ...card },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message });
  });

  it("answers 404 for an unknown payment and for unknown orders", async () => {
    expect((await pay("pi_sim_nope_secret_nope")).status).toBe(404);
    expect((await callApi("/api/orders/nope/status")).status).toBe(404);
  });
});

describe("POST /api/stripe/webhook", () => {
  const secret = "whsec_test_secret";

  async function sendEvent(event: object, options: { sign?: boolean; signWith?: string } = {}) {
    const payload = JSON.stringify(event);
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (options.sign !== false) {
      headers["Stripe-Signature"] = await Stripe.webhooks.generateTestHeaderStringAsync({
        payload,
        secret: options.signWith ?? secret,
        cryptoProvider: Stripe.createSubtleCryptoProvider(),
      });
    }
    return callApi("/api/stripe/webhook", { body: payload, headers, env: { STRIPE_WEBHOOK_SECRET: secret } });
  }

  const intentEvent = (id: string, type: string, intentId: string, error?: string) => ({
    id,
    object: "event",
    type,
    data: {
      object: {
        id: intentId,
        object: "payment_intent",
        amount: 3900,
        amount_received: type === "payment_intent.succeeded" ? 3900 : 0,
        currency: "usd",
        last_payment_error: error ? { message: error } : null,
      },
    },
  });

  async function pendingOrder() {
    const start = await (await createIntent({ amount: 39, callCount: 1 })).json<{ orderId: string }>();
    const order = await orderFor(start.orderId);
    return { orderId: start.orderId, intentId: String(order?.payment_intent_id) };
  }

  it("payment_intent.succeeded marks the order paid, once", async () => {
    const { orderId, intentId } = await pendingOrder();
    const event = intentEvent(`evt_${crypto.randomUUID()}`, "payment_intent.succeeded", intentId);
    const first = await sendEvent(event);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true, duplicate: false });
    const paidAt = (await orderFor(orderId))?.paid_at;
    expect((await orderFor(orderId))?.status).toBe("paid");

    const second = await sendEvent(event);
    expect(await second.json()).toEqual({ received: true, duplicate: true });
    expect((await orderFor(orderId))?.paid_at).toBe(paidAt);
  });

  it("payment_intent.payment_failed records the failure and leaves the order pending", async () => {
    const { orderId, intentId } = await pendingOrder();
    const event = intentEvent(
      `evt_${crypto.randomUUID()}`,
      "payment_intent.payment_failed",
      intentId,
      "Your card has insufficient funds.",
    );
    expect((await sendEvent(event)).status).toBe(200);
    expect(await orderFor(orderId)).toMatchObject({
      status: "pending",
      payment_error: "Your card has insufficient funds.",
    });
  });

  it("a late failure does not undo a payment", async () => {
    const { orderId, intentId } = await pendingOrder();
    await sendEvent(intentEvent(`evt_${crypto.randomUUID()}`, "payment_intent.succeeded", intentId));
    await sendEvent(intentEvent(`evt_${crypto.randomUUID()}`, "payment_intent.payment_failed", intentId, "late"));
    expect(await orderFor(orderId)).toMatchObject({ status: "paid", payment_error: null });
  });

  it("refuses forged and unsigned events with 400 and changes nothing", async () => {
    const { orderId, intentId } = await pendingOrder();
    const event = intentEvent(`evt_${crypto.randomUUID()}`, "payment_intent.succeeded", intentId);
    const forged = await sendEvent(event, { signWith: "whsec_wrong" });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toEqual({ message: "Invalid or missing webhook signature" });
    expect((await sendEvent(event, { sign: false })).status).toBe(400);
    expect((await orderFor(orderId))?.status).toBe("pending");
  });

  it("acknowledges events it does not act on", async () => {
    const response = await sendEvent({
      id: `evt_${crypto.randomUUID()}`,
      object: "event",
      type: "customer.created",
      data: { object: {} },
    });
    expect(response.status).toBe(200);
  });
});
