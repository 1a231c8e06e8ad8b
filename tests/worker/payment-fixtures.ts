/** Fixtures for the payment-hardening tests: plain leads, simulated card payments, signed Stripe events. */

import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { expect } from "vitest";
import { orders, simulatedPaymentIntents } from "../../worker/db/schema";
import { createLeads as createLeadRows, testDb } from "./factories";
import { storedRow } from "./factories/rows";
import { callApi } from "./helpers";

const WEBHOOK_SECRET = "whsec_payment_hardening";

/** `count` unsold leads (ten days old, $5.00 each by the pricing rule) in a state of their own; answers their ids. */
export function createLeads(count: number): Promise<string[]> {
  return createLeadRows(testDb(), count, { name: "Pat Lee", email: null, state: "ZZ" });
}

/** Starts a checkout (`/api/create-payment-intent`): its order and the client secret to pay it with. */
export async function startPayment(json: Record<string, unknown>) {
  const response = await callApi("/api/create-payment-intent", { json });
  expect(response.status).toBe(200);
  return response.json<{ orderId: string; clientSecret: string }>();
}

export async function payWithCard(clientSecret: string, cardNumber = "4242424242424242") {
  return callApi("/api/simulated-payments/confirm", {
    json: { clientSecret, cardNumber, expiry: "12/34", cvc: "123" },
  });
}

export async function buyLeads(cookie: string, leadIds: string[]) {
  return callApi("/api/bulk-purchase-leads", { json: { leadIds }, cookie });
}

export interface Started {
  clientSecret: string;
  orderId: string;
  amountCents: number;
}

export async function orderRow(orderId: string) {
  return (await storedRow(testDb(), orders, eq(orders.id, orderId))) ?? null;
}

export async function simulatedIntentOf(orderId: string) {
  const [order] = await testDb().select({ intent: orders.paymentIntentId }).from(orders).where(eq(orders.id, orderId));
  const intent = await storedRow(
    testDb(),
    simulatedPaymentIntents,
    eq(simulatedPaymentIntents.id, order?.intent ?? ""),
  );
  return (intent ?? null) as { id: string; status: string; refunded_cents: number } | null;
}

/** Sends a Stripe-signed event to the webhook (the webhook secret set for that request only). */
export async function sendStripeEvent(
  type: string,
  object: Record<string, unknown>,
  id = `evt_${crypto.randomUUID()}`,
) {
  const payload = JSON.stringify({ id, object: "event", type, data: { object } });
  const signature = await Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: WEBHOOK_SECRET,
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
  return callApi("/api/stripe/webhook", {
    body: payload,
    headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
    env: { STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET },
  });
}

export const succeededIntent = (intentId: string, amountCents: number, currency = "usd") => ({
  id: intentId,
  object: "payment_intent",
  amount: amountCents,
  amount_received: amountCents,
  currency,
});
