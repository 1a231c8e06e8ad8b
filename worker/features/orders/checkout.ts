/**
 * The pricing pages' and wizards' checkouts (`/api/create-payment-intent`; product rules 3, 8, 9)
 * and the simulated provider's card form: the server prices every purchase, the browser's amount is only
 * compared.
 */

import { formatUsd } from "../../../src/domain/format";
import type { PaymentIntentRequest, SimulatedCard } from "../../../src/domain/schemas/payments";
import {
  type RingcloudCheckoutParams,
  type RingcloudStep2,
  type SurveyStep2,
  surveyQuantity,
} from "../../../src/domain/schemas/survey";
import type { PublicUser } from "../../../src/domain/user";
import {
  dollarsToCents,
  type Quote,
  quotePackage,
  quoteRingcloud,
  quoteSurvey,
} from "../../../src/features/orders/pricing";
import type { OrderKind } from "../../db/schema";
import type { Deps } from "../../deps";
import { InvalidError, PaymentDeclinedError } from "../../errors";
import { findSurvey } from "../accounts/index";
import { orderProducts } from "./order-products";
import { processPaymentEvent, startPayment } from "./orders";
import type { PaymentEvent, PaymentProvider } from "./payments/provider";
import { openSimulatedIntent, recordSimulatedOutcome } from "./payments/simulated";
import { checkSimulatedCard } from "./payments/simulated-card";

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

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

/**
 * Prices the request, checks the browser's amount and (for a wizard) that it buys what the survey
 * asked, and starts the payment. `caller` is the signed-in user, if any: an e-mail alone never attaches
 * the order to an account, only the signed-in buyer or the survey's own.
 */
export async function startCheckoutPayment(
  deps: Deps,
  provider: PaymentProvider,
  caller: PublicUser | null,
  request: PaymentIntentRequest,
) {
  const { kind, tier, quote } = priceRequest(request);
  if (!quote.ok) throw new InvalidError(quote.message);
  // The spec's `amount` (create-payment-intent) is in dollars: converted here, at the edge.
  if (dollarsToCents(request.amount) !== quote.totalCents) {
    throw new InvalidError(`The amount does not match the price of this order (${formatUsd(quote.totalCents)}).`);
  }
  const { amount: _amount, context: _context, email: _email, ...details } = request;
  const survey = "surveyId" in request && request.surveyId ? await findSurvey(deps, request.surveyId) : null;
  if (survey && (survey.kind !== kind || !answersMatch(survey.answers, details))) {
    throw new InvalidError("This payment does not match your survey answers.");
  }
  const email = caller?.email ?? survey?.email ?? request.email ?? null;
  if (!email) throw new InvalidError("Please enter a valid email address");
  const userId = caller?.id ?? survey?.userId ?? null;
  const orderDetails = survey ? { ...survey.answers, ...details } : details;
  const order = { kind, tier, quote, userId, email, details: orderDetails };
  // A product may start the payment itself: aged leads of a band are reserved first (decision 0057).
  for (const product of orderProducts()) {
    const started = product.startPayment?.(deps, provider, order);
    if (started) return started;
  }
  return startPayment(deps, provider, order);
}

/**
 * The survey wizard's save (spec: `totalPrice` in cents): the server quotes the answers, and the wizard's
 * total must be that quote. InvalidError when the answers cannot be priced or the total differs.
 */
export function surveyQuote(answers: SurveyStep2, totalCents: number) {
  const quote = quoteSurvey(answers.leadType, surveyQuantity(answers), answers.ageRange);
  if (!quote.ok) throw new InvalidError(quote.message);
  if (totalCents !== quote.totalCents) {
    throw new InvalidError(`The total price does not match this order (${formatUsd(quote.totalCents)}).`);
  }
  return quote;
}

/** Where the ringcloud wizard's save sends the buyer next: its checkout, priced by the server. */
export function ringcloudCheckout(answers: RingcloudStep2, surveyId: string): RingcloudCheckoutParams {
  const quantity = answers.totalTransfers ?? 0;
  const ageRange = answers.leadType === "partial_apps" ? answers.ageRange : undefined;
  const quote = quoteRingcloud(answers.leadType, quantity, ageRange);
  if (!quote.ok) throw new InvalidError(quote.message);
  return {
    // The ringcloud checkout's query parameters (spec): `amount` and `pricePerUnit` in dollars.
    amount: quote.totalCents / 100,
    calls: quantity,
    tier: "ringcloud",
    packageType: answers.leadType,
    pricePerUnit: quote.unitCents / 100,
    ...(ageRange ? { ageRange } : {}),
    survey: surveyId,
  };
}

/**
 * The simulated provider's card form: checks the card as Stripe would and completes or fails the payment
 * through the same event handling as Stripe's webhook. A declined card is PaymentDeclined (402).
 */
export async function confirmSimulatedPayment(
  deps: Deps,
  origin: string,
  { clientSecret, ...card }: SimulatedCard,
): Promise<{ status: "succeeded"; paymentIntentId: string }> {
  const intent = await openSimulatedIntent(deps, clientSecret);
  // The simulated provider's own event, handled as Stripe's webhook would be.
  const handle = (event: DistributiveOmit<PaymentEvent, "id" | "paymentIntentId">) =>
    processPaymentEvent(deps, { id: `evt_sim_${crypto.randomUUID()}`, paymentIntentId: intent.id, ...event }, origin);
  const check = checkSimulatedCard(card);
  if (!check.ok) {
    if (!check.declined) throw new InvalidError(check.message);
    await recordSimulatedOutcome(deps, intent.id, { succeeded: false, error: check.message });
    await handle({ type: "payment_intent.payment_failed", failureMessage: check.message });
    throw new PaymentDeclinedError(check.message);
  }
  await recordSimulatedOutcome(deps, intent.id, { succeeded: true });
  await handle({ type: "payment_intent.succeeded", amountCents: intent.amountCents, currency: intent.currency });
  return { status: "succeeded", paymentIntentId: intent.id };
}
