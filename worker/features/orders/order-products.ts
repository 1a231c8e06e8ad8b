/**
 * What an order does for the product it bought (docs/decisions/0077): orders know no product. Each product
 * sold through an order (aged leads and their bundles, call-backs, live transfers, returns' credits)
 * registers one `OrderProduct` from its own folder; `worker/order-products.ts`, above every feature,
 * registers them all once for the API, the Queue consumer and the cron. Orders call each registration in
 * turn: at checkout, in the payment's batch, once paid, on a cancel and on a refund.
 */
import type { SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { PaymentStart } from "../../../src/domain/schemas/payments";
import type { Quote } from "../../../src/features/orders/pricing";
import type { OrderKind, orders } from "../../db/schema";
import type { Deps } from "../../deps";
import type { WebhookFact } from "../webhook-outbox/index";
import type { PaymentProvider } from "./payments/provider";

export type Order = typeof orders.$inferSelect;

type PricedQuote = Extract<Quote, { ok: true }>;
export interface NewOrder {
  /** Given when something (a lead reservation) must point at the order before it exists. */
  id?: string;
  kind: OrderKind;
  tier: string | null;
  quote: PricedQuote;
  userId: string | null;
  email: string | null;
  details: Record<string, unknown>;
  /** The part of the total the buyer's balance already paid: the card is charged the rest. */
  balanceAppliedCents?: number;
}
type Statement = BatchItem<"sqlite">;

/**
 * The sale of what a paid order bought, joined to its `pending → paid` batch: the order becomes paid only
 * if `allSellable` holds then, and `sell`, `release`, `checks` and the facts' webhooks take effect only if
 * it did.
 */
export interface PaymentSale {
  /** Added to the order's `pending → paid` update. */
  allSellable: SQL;
  /** The order's `details` as that update sets them. */
  details: SQL;
  sell: Statement;
  release: Statement;
  checks: Statement;
  /** The product's own webhook facts, recorded after the order's `order.paid`. */
  facts: WebhookFact[];
  /** After the order became paid, beside its confirmation e-mail (a delivery e-mail). */
  delivered?: () => Promise<void>;
  /** Once the order stayed pending (the sale was refused): why, for the refund; null for the default. */
  refusal?: () => Promise<string | null>;
}

export interface OrderProduct {
  /** Who registers it: a feature's name, for the messages. */
  name: string;
  /** The checkout's start of a payment this product takes over (a bundle reserves its leads first), else null. */
  startPayment?: (deps: Deps, provider: PaymentProvider, order: NewOrder) => Promise<PaymentStart> | null;
  /** The sale joined to the payment's batch, or null when the order sells nothing of this product. */
  saleAtPayment?: (deps: Deps, order: Order) => Promise<PaymentSale | null>;
  /** Once paid, before the confirmation e-mail: what the sale could not deliver goes back. */
  settlePaid?: (deps: Deps, order: Order) => Promise<void>;
  /** Once paid, after the confirmation e-mail; a failure is logged and the payment stands. */
  afterPaid?: (deps: Deps, order: Order, origin: string) => Promise<void>;
  /** Joined to a cancel's (or an unpaid order's refund's) batch: the order's reservations end. */
  releaseStatements?: (deps: Deps, orderId: string) => Statement[];
  /** Joined to a full refund's batch; each takes effect only if that batch left the order refunded. */
  refundStatements?: (deps: Deps, order: Order) => Statement[];
}

const registered: OrderProduct[] = [];

/** Registers the products sold through orders, once (worker/order-products.ts); again is a no-op. */
export function registerOrderProducts(...products: OrderProduct[]) {
  for (const product of products) {
    if (!registered.some((known) => known.name === product.name)) registered.push(product);
  }
}

/** The registered products; none means the application forgot `worker/order-products.ts`. */
export function orderProducts(): readonly OrderProduct[] {
  if (registered.length === 0) {
    throw new Error("No product is registered with orders: import worker/order-products.ts where the Worker starts");
  }
  return registered;
}
