/** Starting and confirming payments (spec §7; PRODUCT.md D1, D2, D3). */
import { Hono } from "hono";
import {
  dollarsToCents,
  formatUsd,
  type Quote,
  quotePackage,
  quoteRingcloud,
  quoteSurvey,
} from "../../src/domain/pricing";
import {
  type PaymentIntentRequest,
  paymentIntentRequestSchema,
  simulatedCardSchema,
} from "../../src/domain/schemas/payments";
import type { OrderKind } from "../db/schema";
import type { AppBindings } from "../env";
import { errorJson } from "../http";
import { processPaymentEvent, startPayment } from "../services/orders";
import { PaymentsUnavailableError, stripeConfigured, verifyStripeWebhook } from "../services/payments/provider";
import { checkSimulatedCard } from "../services/payments/simulated-card";
import { findUserByEmail } from "../services/users";
import { validateJson } from "../validation";

interface PricedRequest {
  kind: OrderKind;
  tier: string | null;
  quote: Quote;
}

function priceRequest(request: PaymentIntentRequest): PricedRequest {
  switch (request.context) {
    case "special":
      return { kind: "package", tier: "special", quote: quotePackage("special", request.callCount) };
    case "package-tier":
      return { kind: "package", tier: request.tier, quote: quotePackage(request.tier, request.callCount) };
    case "survey":
      if (request.leadType === "Aged Leads" && !request.ageRange) {
        return { kind: "survey", tier: null, quote: { ok: false, message: "Please select an age range" } };
      }
      return { kind: "survey", tier: null, quote: quoteSurvey(request.leadType, request.quantity, request.ageRange) };
    case "ringcloud":
      return {
        kind: "ringcloud",
        tier: request.tier,
        quote: quoteRingcloud(request.packageType, request.quantity, request.ageRange),
      };
  }
}

export const payments = new Hono<AppBindings>()
  .post("/create-payment-intent", validateJson(paymentIntentRequestSchema), async (c) => {
    const request = c.req.valid("json");
    const { kind, tier, quote } = priceRequest(request);
    if (!quote.ok) return errorJson(c, 400, quote.message);
    if (dollarsToCents(request.amount) !== quote.totalCents) {
      return errorJson(c, 400, `The amount does not match the price of this order (${formatUsd(quote.totalCents)}).`);
    }
    const user = c.get("user");
    const email = user?.email ?? request.email ?? null;
    if (!email) return errorJson(c, 400, "Please enter a valid email address");
    const { amount: _amount, context: _context, email: _email, ...details } = request;
    try {
      const userId = user?.id ?? (await findUserByEmail(c.env.DB, email))?.id ?? null;
      return c.json(await startPayment(c.env, { kind, tier, quote, userId, email, details }));
    } catch (error) {
      if (error instanceof PaymentsUnavailableError) return errorJson(c, 503, error.message);
      throw error;
    }
  })
  .post("/stripe/webhook", async (c) => {
    const event = await verifyStripeWebhook(c.env, await c.req.text(), c.req.header("Stripe-Signature"));
    if (!event) return errorJson(c, 400, "Invalid or missing webhook signature");
    if ("ignored" in event) return c.json({ received: true });
    const outcome = await processPaymentEvent(c.env.DB, event);
    return c.json({ received: true, duplicate: outcome === "duplicate" });
  })
  .post("/simulated-payments/confirm", validateJson(simulatedCardSchema), async (c) => {
    if (stripeConfigured(c.env) || c.env.APP_ENV === "production") return errorJson(c, 404, "Not found");
    const { clientSecret, ...card } = c.req.valid("json");
    const intent = await c.env.DB.prepare("SELECT id, status FROM simulated_payment_intents WHERE client_secret = ?")
      .bind(clientSecret)
      .first<{ id: string; status: string }>();
    if (!intent) return errorJson(c, 404, "Payment not found");
    if (intent.status === "succeeded") return errorJson(c, 409, "This payment is already complete.");

    const check = checkSimulatedCard(card);
    if (!check.ok) {
      if (!check.declined) return errorJson(c, 400, check.message);
      await c.env.DB.prepare("UPDATE simulated_payment_intents SET last_error = ? WHERE id = ?")
        .bind(check.message, intent.id)
        .run();
      await processPaymentEvent(c.env.DB, {
        id: `evt_sim_${crypto.randomUUID()}`,
        type: "payment_intent.payment_failed",
        paymentIntentId: intent.id,
        failureMessage: check.message,
      });
      return errorJson(c, 402, check.message);
    }
    await c.env.DB.prepare("UPDATE simulated_payment_intents SET status = 'succeeded', last_error = NULL WHERE id = ?")
      .bind(intent.id)
      .run();
    await processPaymentEvent(c.env.DB, {
      id: `evt_sim_${crypto.randomUUID()}`,
      type: "payment_intent.succeeded",
      paymentIntentId: intent.id,
    });
    return c.json({ status: "succeeded", paymentIntentId: intent.id });
  })
  .get("/orders/:orderId/status", async (c) => {
    const order = await c.env.DB.prepare("SELECT id, kind, status, quantity, total_cents FROM orders WHERE id = ?")
      .bind(c.req.param("orderId"))
      .first<{ id: string; kind: string; status: string; quantity: number; total_cents: number }>();
    if (!order) return errorJson(c, 404, "Order not found");
    return c.json({
      id: order.id,
      kind: order.kind,
      status: order.status,
      quantity: order.quantity,
      amount: order.total_cents,
    });
  });
