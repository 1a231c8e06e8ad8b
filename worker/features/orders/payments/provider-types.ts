/**
 * What a payment provider (Stripe, or the simulated one for local runs) offers the order code, and the events
 * it reports, reduced to what orders need. Apart from ./provider.ts, which picks the provider, so that each
 * provider can name these types without importing the file that imports it.
 */
interface CreatedIntent {
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
    /** Card payments only (aged leads: the reservation must be settled while it runs). */
    cardOnly?: boolean;
  }): Promise<CreatedIntent>;
  /** Cancels an unpaid intent; false when it can no longer be cancelled (paid or cancelled already). */
  cancelIntent(intentId: string): Promise<boolean>;
  /** The client secret of an intent still waiting to be paid ('Pay now' in My Orders); null once paid or cancelled. */
  openIntentSecret(intentId: string): Promise<string | null>;
  /** Gives `amountCents` of a paid intent back to the card. */
  refund(intentId: string, amountCents: number): Promise<void>;
}

/** A provider event, reduced to what the order code needs. */
export type PaymentEvent = { id: string; paymentIntentId: string } & (
  | { type: "payment_intent.succeeded"; amountCents: number; currency: string }
  | { type: "payment_intent.payment_failed"; failureMessage?: string }
  | { type: "charge.refunded"; amountRefundedCents: number; fullyRefunded: boolean }
  | { type: "charge.dispute.created"; reason: string }
);
