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
  orderStatusQuerySchema,
  type PaymentIntentRequest,
  paymentIntentRequestSchema,
  simulatedCardSchema,
} from "../../src/domain/schemas/payments";
import type { OrderKind } from "../db/schema";
import type { AppBindings } from "../env";
import { NotFoundError } from "../errors";
import { errorJson } from "../http";
import { refusePartners } from "../middleware/auth";
import { clientAddress, rateLimit } from "../middleware/rate-limit";
import { findSurvey } from "../services/accounts";
import { siteOrigin } from "../services/mail";
import { orderStatusFor, processPaymentEvent, startPayment } from "../services/orders";
import { paymentProvider, simulatedProviderFor, verifyStripeWebhook } from "../services/payments/provider";
import { openSimulatedIntent, recordSimulatedOutcome } from "../services/payments/simulated";
import { checkSimulatedCard } from "../services/payments/simulated-card";
import { validate, validateJson } from "../validation";

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

const AGED_LEAD_TYPES = new Set(["Aged Leads", "partial_apps"]);

/** The payment must buy what the survey asked for: same lead type, count and (for aged leads) age band. */
function answersMatch(answers: Record<string, unknown>, request: Record<string, unknown>): boolean {
  const leadType = request.leadType ?? request.packageType;
  const askedQuantity =
    answers.leadType === "Live Transfers" ? answers.totalTransfers : (answers.totalCallbacks ?? answers.totalTransfers);
  const sameBand = !AGED_LEAD_TYPES.has(String(leadType)) || answers.ageRange === request.ageRange;
  return answers.leadType === leadType && askedQuantity === request.quantity && sameBand;
}

/** Anonymous callers start at most RATE_LIMIT_PER_MINUTE payments a minute per address; buyers are signed in. */
const anonymousIntentLimit = rateLimit("payment-intent", (c) => (c.get("user") ? null : clientAddress(c)));

export const payments = new Hono<AppBindings>()
  .post(
    "/create-payment-intent",
    refusePartners,
    anonymousIntentLimit,
    validateJson(paymentIntentRequestSchema),
    async (c) => {
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
      // An e-mail alone never attaches the order to an account: only the signed-in buyer or the survey's own.
      const userId = user?.id ?? survey?.userId ?? null;
      const orderDetails = survey ? { ...survey.answers, ...details } : details;
      const provider = paymentProvider(c.env, c.req.url);
      return c.json(await startPayment(c.env, provider, { kind, tier, quote, userId, email, details: orderDetails }));
    },
  )
  .post("/stripe/webhook", async (c) => {
    const event = await verifyStripeWebhook(c.env, await c.req.text(), c.req.header("Stripe-Signature"));
    if (!event) return errorJson(c, 400, "Invalid or missing webhook signature");
    if ("ignored" in event) return c.json({ received: true });
    const outcome = await processPaymentEvent(c.env, event, siteOrigin(c.env, c.req.url));
    return c.json({ received: true, duplicate: outcome === "duplicate" });
  })
  .post("/simulated-payments/confirm", validateJson(simulatedCardSchema), async (c) => {
    simulatedProviderFor(c.env, c.req.url);
    const { clientSecret, ...card } = c.req.valid("json");
    const intent = await openSimulatedIntent(c.env.DB, clientSecret);
    const check = checkSimulatedCard(card);
    if (!check.ok) {
      if (!check.declined) return errorJson(c, 400, check.message);
      await recordSimulatedOutcome(c.env.DB, intent.id, { succeeded: false, error: check.message });
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
    await recordSimulatedOutcome(c.env.DB, intent.id, { succeeded: true });
    await processPaymentEvent(
      c.env,
      {
        id: `evt_sim_${crypto.randomUUID()}`,
        type: "payment_intent.succeeded",
        paymentIntentId: intent.id,
        amountCents: intent.amountCents,
        currency: intent.currency,
      },
      siteOrigin(c.env, c.req.url),
    );
    return c.json({ status: "succeeded", paymentIntentId: intent.id });
  })
  .get("/orders/:orderId/status", validate("query", orderStatusQuerySchema), async (c) => {
    const order = await orderStatusFor(c.env.DB, c.req.param("orderId"), {
      userId: c.get("user")?.id ?? null,
      clientSecret: c.req.valid("query").client_secret ?? null,
    });
    if (!order) throw new NotFoundError("Order not found");
    return c.json(order);
  });
