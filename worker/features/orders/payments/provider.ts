/**
 * The card payment provider (product rule 9): Stripe when its three settings are configured; the
 * built-in simulated provider only when the server opts in (ALLOW_SIMULATED_PAYMENTS=true, not
 * APP_ENV=production) and the request is addressed to this machine (localhost). Anything else,
 * including a partly configured Stripe, refuses payments with 503. Both providers answer the same shapes.
 */
import { type PaymentProviderStatus, STRIPE_SETTINGS } from "../../../../src/features/orders/orders";
import type { Deps } from "../../../deps";
import type { Env } from "../../../env";
import { NotFoundError, PaymentsUnavailableError } from "../../../errors";
import type { PaymentEvent, PaymentProvider } from "./provider-types";
import { simulatedProvider } from "./simulated";

export type { PaymentEvent, PaymentProvider } from "./provider-types";

/** Host names that only reach this machine: the simulated provider answers nowhere else. */
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

const missingStripeSettings = ({ env }: Deps) => STRIPE_SETTINGS.filter((name) => !env[name]);

function simulatedPaymentsAllowed({ env }: Deps, requestUrl: string): boolean {
  return (
    env.ALLOW_SIMULATED_PAYMENTS === "true" &&
    env.APP_ENV !== "production" &&
    LOCAL_HOSTS.has(new URL(requestUrl).hostname)
  );
}

/** Which provider takes payments for this request, and why none does. */
export function paymentProviderStatus(
  deps: Deps,
  requestUrl: string,
): { provider: PaymentProviderStatus; reason?: string } {
  const missing = missingStripeSettings(deps);
  if (missing.length === 0) return { provider: "stripe" };
  if (missing.length < STRIPE_SETTINGS.length) {
    return {
      provider: "unavailable",
      reason: `Payments are not available: Stripe is only partly configured (${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} missing).`,
    };
  }
  if (simulatedPaymentsAllowed(deps, requestUrl)) return { provider: "simulated" };
  return { provider: "unavailable", reason: "Payments are not configured. Please contact support." };
}

async function stripeClient(env: Env) {
  const { default: Stripe } = await import("stripe");
  return new Stripe(env.STRIPE_SECRET_KEY ?? "", { httpClient: Stripe.createFetchHttpClient() });
}

/** Stripe's intent statuses in which the buyer can still pay. */
const STRIPE_OPEN_STATUSES = new Set(["requires_payment_method", "requires_confirmation", "requires_action"]);

function stripeProvider(env: Env): PaymentProvider {
  return {
    name: "stripe",
    ...(env.PUBLIC_STRIPE_PUBLISHABLE_KEY ? { publishableKey: env.PUBLIC_STRIPE_PUBLISHABLE_KEY } : {}),
    async createIntent({ amountCents, currency, orderId, email, cardOnly }) {
      const stripe = await stripeClient(env);
      const intent = await stripe.paymentIntents.create(
        {
          amount: amountCents,
          currency,
          ...(cardOnly ? { payment_method_types: ["card"] } : { automatic_payment_methods: { enabled: true } }),
          metadata: { orderId },
          ...(email ? { receipt_email: email } : {}),
        },
        { idempotencyKey: `order-${orderId}` },
      );
      if (!intent.client_secret) throw new Error("Stripe returned no client secret");
      return { id: intent.id, clientSecret: intent.client_secret };
    },
    async cancelIntent(intentId) {
      const stripe = await stripeClient(env);
      try {
        await stripe.paymentIntents.cancel(intentId);
        return true;
      } catch (error) {
        // Paid or cancelled already: nothing to cancel. Anything else (network) is the caller's to see.
        if ((error as { code?: string }).code === "payment_intent_unexpected_state") return false;
        throw error;
      }
    },
    async openIntentSecret(intentId) {
      const stripe = await stripeClient(env);
      const intent = await stripe.paymentIntents.retrieve(intentId);
      return STRIPE_OPEN_STATUSES.has(intent.status) ? intent.client_secret : null;
    },
    async refund(intentId, amountCents) {
      const stripe = await stripeClient(env);
      await stripe.refunds.create(
        { payment_intent: intentId, amount: amountCents },
        { idempotencyKey: `refund-${intentId}-${amountCents}` },
      );
    },
  };
}

/** The provider that starts a payment for this request; throws PaymentsUnavailableError (503) when none may. */
export function paymentProvider(deps: Deps, requestUrl: string): PaymentProvider {
  const status = paymentProviderStatus(deps, requestUrl);
  if (status.provider === "stripe") return stripeProvider(deps.env);
  if (status.provider === "simulated") return simulatedProvider(deps);
  throw new PaymentsUnavailableError(status.reason ?? "Payments are not configured.");
}

/** The simulated provider, for its own card form; 404 under Stripe, 503 where it may not run. */
export function simulatedProviderFor(deps: Deps, requestUrl: string): PaymentProvider {
  const provider = paymentProvider(deps, requestUrl);
  if (provider.name !== "simulated") throw new NotFoundError("Not found");
  return provider;
}

/**
 * The provider that made an existing intent, to cancel or refund it (also from the scheduled sweep,
 * which has no request). Simulated intents only live in this database, so touching them moves no money.
 */
export function providerOfIntent(deps: Deps, intentId: string): PaymentProvider {
  if (intentId.startsWith("pi_sim_")) return simulatedProvider(deps);
  const missing = missingStripeSettings(deps);
  if (missing.length > 0) throw new PaymentsUnavailableError(`Stripe is not configured (${missing.join(", ")}).`);
  return stripeProvider(deps.env);
}

type StripeObject = Record<string, unknown>;
const intentIdOf = (value: unknown) =>
  typeof value === "string" ? value : typeof value === "object" && value ? String((value as StripeObject).id) : "";

/** Reduces a verified Stripe event to a PaymentEvent; null for the types the shop does not act on. */
function reduceStripeEvent(event: { id: string; type: string; data: { object: unknown } }): PaymentEvent | null {
  const object = event.data.object as StripeObject;
  switch (event.type) {
    case "payment_intent.succeeded":
      return {
        id: event.id,
        type: event.type,
        paymentIntentId: String(object.id),
        amountCents: Number(object.amount_received ?? object.amount),
        currency: String(object.currency ?? ""),
      };
    case "payment_intent.payment_failed": {
      const message = (object.last_payment_error as { message?: string } | null)?.message;
      return {
        id: event.id,
        type: event.type,
        paymentIntentId: String(object.id),
        ...(message ? { failureMessage: message } : {}),
      };
    }
    case "charge.refunded":
      return {
        id: event.id,
        type: event.type,
        paymentIntentId: intentIdOf(object.payment_intent),
        amountRefundedCents: Number(object.amount_refunded ?? 0),
        fullyRefunded: object.refunded === true,
      };
    case "charge.dispute.created":
      return {
        id: event.id,
        type: event.type,
        paymentIntentId: intentIdOf(object.payment_intent),
        reason: String(object.reason ?? "unknown"),
      };
    default:
      return null;
  }
}

/**
 * Verifies a Stripe webhook's signature on the raw body and reduces the event; null for a bad or
 * missing signature, or when no webhook secret is configured.
 */
export async function verifyStripeWebhook({ env }: Deps, rawBody: string, signature: string | undefined) {
  if (!env.STRIPE_WEBHOOK_SECRET || !signature) return null;
  const { default: Stripe } = await import("stripe");
  const stripe = new Stripe(env.STRIPE_SECRET_KEY ?? "sk_unused", { httpClient: Stripe.createFetchHttpClient() });
  let event: { id: string; type: string; data: { object: unknown } };
  try {
    event = await stripe.webhooks.constructEventAsync(
      rawBody,
      signature,
      env.STRIPE_WEBHOOK_SECRET,
      undefined,
      Stripe.createSubtleCryptoProvider(),
    );
  } catch {
    return null;
  }
  const reduced = reduceStripeEvent(event);
  return reduced?.paymentIntentId ? reduced : ({ ignored: event.type } as const);
}
