/**
 * The simulated provider (product rule 9): intents live in `simulated_payment_intents`; its card form confirms them
 * through the same order path as Stripe's webhook (worker/features/orders/orders.ts). It moves no money.
 */
import { and, eq, sql } from "drizzle-orm";
import { simulatedPaymentIntents } from "../../../db/schema";
import type { Deps } from "../../../deps";
import { ConflictError, NotFoundError } from "../../../errors";
import type { PaymentProvider } from "./provider-types";

export function simulatedProvider(deps: Deps): PaymentProvider {
  const { db } = deps;
  return {
    name: "simulated",
    async createIntent({ amountCents, currency }) {
      const id = `pi_sim_${crypto.randomUUID().replaceAll("-", "")}`;
      const clientSecret = `${id}_secret_${crypto.randomUUID().replaceAll("-", "")}`;
      await db.insert(simulatedPaymentIntents).values({ id, clientSecret, amountCents, currency });
      return { id, clientSecret };
    },
    async cancelIntent(intentId) {
      const cancelled = await db
        .update(simulatedPaymentIntents)
        .set({ status: "canceled" })
        .where(
          and(eq(simulatedPaymentIntents.id, intentId), eq(simulatedPaymentIntents.status, "requires_payment_method")),
        )
        .returning({ id: simulatedPaymentIntents.id });
      return cancelled.length > 0;
    },
    async openIntentSecret(intentId) {
      const [intent] = await db
        .select({ clientSecret: simulatedPaymentIntents.clientSecret })
        .from(simulatedPaymentIntents)
        .where(
          and(eq(simulatedPaymentIntents.id, intentId), eq(simulatedPaymentIntents.status, "requires_payment_method")),
        );
      return intent?.clientSecret ?? null;
    },
    async refund(intentId, amountCents) {
      await db
        .update(simulatedPaymentIntents)
        .set({ refundedCents: sql`${simulatedPaymentIntents.refundedCents} + ${amountCents}` })
        .where(and(eq(simulatedPaymentIntents.id, intentId), eq(simulatedPaymentIntents.status, "succeeded")));
    },
  };
}

export type SimulatedIntent = typeof simulatedPaymentIntents.$inferSelect;

/** The intent a card form confirms; 404 unknown, 409 when it is paid or cancelled already. */
export async function openSimulatedIntent(deps: Deps, clientSecret: string): Promise<SimulatedIntent> {
  const [intent] = await deps.db
    .select()
    .from(simulatedPaymentIntents)
    .where(eq(simulatedPaymentIntents.clientSecret, clientSecret));
  if (!intent) throw new NotFoundError("Payment not found");
  if (intent.status === "succeeded") throw new ConflictError("This payment is already complete.");
  if (intent.status === "canceled") {
    throw new ConflictError("This payment was cancelled because its reservation ended. Please start again.");
  }
  return intent;
}

/** Records the card form's outcome; success only while the intent is still open (not cancelled meanwhile). */
export async function recordSimulatedOutcome(
  deps: Deps,
  intentId: string,
  outcome: { succeeded: true } | { succeeded: false; error: string },
): Promise<void> {
  const updated = await deps.db
    .update(simulatedPaymentIntents)
    .set(outcome.succeeded ? { status: "succeeded", lastError: null } : { lastError: outcome.error })
    .where(and(eq(simulatedPaymentIntents.id, intentId), eq(simulatedPaymentIntents.status, "requires_payment_method")))
    .returning({ id: simulatedPaymentIntents.id });
  if (updated.length === 0) throw new ConflictError("This payment is no longer open. Please start again.");
}
