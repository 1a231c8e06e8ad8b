/**
 * Orders and the rules that protect payments (product rules 7-9, 14): the statuses an order can have,
 * and the size of a buyer's aged-lead reservation. Shared by the Worker and the islands.
 */

/**
 * `pending` until the provider confirms; `paid` on its confirmation; `completed`/`cancelled` by an admin
 * (or `cancelled` when an aged-lead reservation ends unpaid); `refunded` when the money went back.
 */
/** What an order bought; each kind is sold by its own screen (product rule 7). */
export const ORDER_KINDS = ["package", "survey", "ringcloud", "transfer", "aged-leads", "callbacks"] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];

export const ORDER_STATUSES = ["pending", "paid", "completed", "cancelled", "refunded"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: "Pending",
  paid: "Paid",
  completed: "Completed",
  cancelled: "Cancelled",
  refunded: "Refunded",
};

/** A buyer holds at most one open aged-lead reservation, of at most this many leads. */
export const MAX_RESERVED_LEADS = 200;
/** How long a bulk purchase holds its leads for payment (product rule 14). */
export const RESERVATION_MINUTES = 15;

/**
 * Stripe's test card that succeeds, which the simulated provider (product rule 9) also takes; it declines
 * every other well-formed card, as Stripe declines 4000 0000 0000 0002.
 */
export const SUCCEEDING_CARD = "4242424242424242";
/** '4242 4242 4242 4242', as a card shows it. */
export const cardInGroups = (digits: string) => digits.replace(/(\d{4})(?=\d)/g, "$1 ");

/** Settings that must all be present for real card payments (Stripe). */
export const STRIPE_SETTINGS = ["STRIPE_SECRET_KEY", "PUBLIC_STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"] as const;

/** The payment provider the Worker uses, as `GET /api/health` reports it. */
export type PaymentProviderStatus = "stripe" | "simulated" | "unavailable";
