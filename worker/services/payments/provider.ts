/**
 * The card payment provider (PRODUCT.md D3): Stripe when its three keys are configured, otherwise the
 * built-in simulated provider, which refuses to run in production. Both answer the same shapes.
 */
import type { Env } from "../../env";
import { PaymentsUnavailableError } from "../../errors";

export interface CreatedIntent {
  id: string;
  clientSecret: string;
}

export interface PaymentProvider {
  name: "stripe" | "simulated";
  publishableKey?: string;
  createIntent(input: {
    amountCents: number;
    currency: string;
    orderId: string;
    email: string | null;
  }): Promise<CreatedIntent>;
}

/** A provider event, reduced to what the order code needs. */
export interface PaymentEvent {
  id: string;
  type: "payment_intent.succeeded" | "payment_intent.payment_failed";
  paymentIntentId: string;
  failureMessage?: string;
}

export { PaymentsUnavailableError };

export const stripeConfigured = (env: Env) =>
  Boolean(env.STRIPE_SECRET_KEY && env.PUBLIC_STRIPE_PUBLISHABLE_KEY && env.STRIPE_WEBHOOK_SECRET);

async function stripeClient(env: Env) {
  const { default: Stripe } = await import("stripe");
  return new Stripe(env.STRIPE_SECRET_KEY ?? "", { httpClient: Stripe.createFetchHttpClient() });
}

function stripeProvider(env: Env): PaymentProvider {
  return {
    name: "stripe",
    ...(env.PUBLIC_STRIPE_PUBLISHABLE_KEY ? { publishableKey: env.PUBLIC_STRIPE_PUBLISHABLE_KEY } : {}),
    async createIntent({ amountCents, currency, orderId, email }) {
      const stripe = await stripeClient(env);
      const intent = await stripe.paymentIntents.create(
        {
          amount: amountCents,
          currency,
          automatic_payment_methods: { enabled: true },
          metadata: { orderId },
          ...(email ? { receipt_email: email } : {}),
        },
        { idempotencyKey: `order-${orderId}` },
      );
      if (!intent.client_secret) throw new Error("Stripe returned no client secret");
      return { id: intent.id, clientSecret: intent.client_secret };
    },
  };
}

function simulatedProvider(db: D1Database): PaymentProvider {
  return {
    name: "simulated",
    async createIntent({ amountCents, currency }) {
      const id = `pi_sim_${crypto.randomUUID().replaceAll("-", "")}`;
      const secret = crypto.randomUUID().replaceAll("-", "");
      const clientSecret = `${id}_secret_${secret}`;
      await db
        .prepare(
          "INSERT INTO simulated_payment_intents (id, client_secret, amount_cents, currency) VALUES (?, ?, ?, ?)",
        )
        .bind(id, clientSecret, amountCents, currency)
        .run();
      return { id, clientSecret };
    },
  };
}

export function paymentProvider(env: Env): PaymentProvider {
  if (stripeConfigured(env)) return stripeProvider(env);
  if (env.APP_ENV === "production") {
    throw new PaymentsUnavailableError("Payments are not configured. Please contact support.");
  }
  return simulatedProvider(env.DB);
}

/**
 * Verifies a Stripe webhook's signature on the raw body and reduces the event; null for a bad or
 * missing signature, or when no webhook secret is configured.
 */
export async function verifyStripeWebhook(env: Env, rawBody: string, signature: string | undefined) {
  if (!env.STRIPE_WEBHOOK_SECRET || !signature) return null;
  const { default: Stripe } = await import("stripe");
  const stripe = new Stripe(env.STRIPE_SECRET_KEY ?? "sk_unused", { httpClient: Stripe.createFetchHttpClient() });
  try {
    const event = await stripe.webhooks.constructEventAsync(
      rawBody,
      signature,
      env.STRIPE_WEBHOOK_SECRET,
      undefined,
      Stripe.createSubtleCryptoProvider(),
    );
    if (event.type !== "payment_intent.succeeded" && event.type !== "payment_intent.payment_failed") {
      return { ignored: event.type } as const;
    }
    const intent = event.data.object;
    return {
      id: event.id,
      type: event.type,
      paymentIntentId: intent.id,
      ...(intent.last_payment_error?.message ? { failureMessage: intent.last_payment_error.message } : {}),
    } satisfies PaymentEvent;
  } catch {
    return null;
  }
}
