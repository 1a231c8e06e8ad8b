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
import { refusePartners } from "../middleware/auth";
import { siteOrigin } from "../services/mail";
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

async function findSurvey(db: D1Database, surveyId: string) {
  const row = await db
    .prepare(
      `SELECT s.kind, s.answers, s.user_id, u.email FROM survey_responses s JOIN users u ON u.id = s.user_id WHERE s.id = ?`,
    )
    .bind(surveyId)
    .first<{ kind: string; answers: string; user_id: string; email: string }>();
  if (!row) return null;
  return {
    kind: row.kind,
    answers: JSON.parse(row.answers) as Record<string, unknown>,
    userId: row.user_id,
    email: row.email,
  };
}

const AGED_LEAD_TYPES = new Set(["Aged Leads", "partial_apps"]);

/** The payment must buy what the survey asked for: same lead type, count and (for aged leads) age band. */
function answersMatch(answers: Record<string, unknown>, request: Record<string, unknown>): boolean {
  const leadType = request.leadType ?? request.packageType;
  const askedQuantity =
    answers.leadType === "Live Transfers" ? answers.totalTransfers : (answers.totalCallbacks ?? answers.totalTransfers);
  const sameBand = !AGED_LEAD_TYPES.has(String(leadType)) || answers.ageRange === request.ageRange;
  return answers.leadType === leadType && askedQuantity === request.quantity && sameBand;
}

export const payments = new Hono<AppBindings>()
  .post("/create-payment-intent", refusePartners, validateJson(paymentIntentRequestSchema), async (c) => {
    const request = c.req.valid("json");
    const { kind, tier, quote } = priceRequest(request);
    if (!quote.ok) return errorJson(c, 400, quote.message);
    if (dollarsToCents(request.amount) !== quote.totalCents) {
      return errorJson(c, 400, `The amount does not match the price of this order (${formatUsd(quote.totalCents)}).`);
    }
    const { amount: _amount, context: _context, email: _email, ...details } = request;
    const survey = "surveyId" in request && request.surveyId ? await findSurvey(c.env.DB, request.surveyId) : null;
    if (survey && (survey.kind !== kind || !answersMatch(survey.answers, details))) {
      return errorJson(c, 400, "This payment does not match your survey answers.");
    }
    const user = c.get("user");
    const email = user?.email ?? survey?.email ?? request.email ?? null;
    if (!email) return errorJson(c, 400, "Please enter a valid email address");
    try {
      const userId = user?.id ?? survey?.userId ?? (await findUserByEmail(c.env.DB, email))?.id ?? null;
      const orderDetails = survey ? { ...survey.answers, ...details } : details;
      return c.json(await startPayment(c.env, { kind, tier, quote, userId, email, details: orderDetails }));
    } catch (error) {
      if (error instanceof PaymentsUnavailableError) return errorJson(c, 503, error.message);
      throw error;
    }
  })
  .post("/stripe/webhook", async (c) => {
    const event = await verifyStripeWebhook(c.env, await c.req.text(), c.req.header("Stripe-Signature"));
    if (!event) return errorJson(c, 400, "Invalid or missing webhook signature");
    if ("ignored" in event) return c.json({ received: true });
    const outcome = await processPaymentEvent(c.env, event, siteOrigin(c.env, c.req.url));
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
      await processPaymentEvent(
        c.env,
        {
          id: `evt_sim_${crypto.randomUUID()}`,
          type: "payment_intent.payment_failed",
          paymentIntentId: intent.id,
          failureMessage: check.message,
        },
        siteOrigin(c.env, c.req.url),
      );
      return errorJson(c, 402, check.message);
    }
    await c.env.DB.prepare("UPDATE simulated_payment_intents SET status = 'succeeded', last_error = NULL WHERE id = ?")
      .bind(intent.id)
      .run();
    await processPaymentEvent(
      c.env,
      {
        id: `evt_sim_${crypto.randomUUID()}`,
        type: "payment_intent.succeeded",
        paymentIntentId: intent.id,
      },
      siteOrigin(c.env, c.req.url),
    );
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
