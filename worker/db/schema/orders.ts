/**
 * Orders and payments (product rules 7-9): every purchase, the payment provider's events and the simulated
 * provider's intents.
 */
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ORDER_KINDS, ORDER_STATUSES } from "../../../src/features/orders/orders";
import { users } from "./accounts";
import { createdAt } from "./columns";

export { ORDER_KINDS, ORDER_STATUSES, type OrderKind, type OrderStatus } from "../../../src/features/orders/orders";

/** Product rule 7: every purchase, whichever screen sold it. */
export const orders = sqliteTable(
  "orders",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ORDER_KINDS }).notNull(),
    tier: text("tier"),
    quantity: integer("quantity").notNull(),
    unitPriceCents: integer("unit_price_cents").notNull(),
    totalCents: integer("total_cents").notNull(),
    currency: text("currency").notNull().default("usd"),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    email: text("email"),
    /** The form's answers as JSON (names, phones, states, transfer hours...). */
    details: text("details", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
    paymentIntentId: text("payment_intent_id").notNull(),
    status: text("status", { enum: ORDER_STATUSES }).notNull().default("pending"),
    /** The provider's last failure message (payment_intent.payment_failed). */
    paymentError: text("payment_error"),
    /** SHA-256 of the payment's client secret: whoever holds the secret may read the order's status. */
    clientSecretHash: text("client_secret_hash"),
    paidAt: integer("paid_at", { mode: "timestamp_ms" }),
    refundedAt: integer("refunded_at", { mode: "timestamp_ms" }),
    /** Set when the card holder disputes the charge (charge.dispute.created). */
    disputedAt: integer("disputed_at", { mode: "timestamp_ms" }),
    disputeReason: text("dispute_reason"),
    /** The part of an aged-lead order's total the buyer's balance paid; the card pays the rest. */
    balanceAppliedCents: integer("balance_applied_cents").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [
    uniqueIndex("orders_payment_intent_unique").on(t.paymentIntentId),
    index("orders_kind_status_idx").on(t.kind, t.status),
    index("orders_user_idx").on(t.userId),
    index("orders_created_at_idx").on(t.createdAt),
    index("orders_user_kind_status_idx").on(t.userId, t.kind, t.status),
  ],
);

/** Each payment-provider event is processed once (product rule 8). */
export const paymentEvents = sqliteTable("payment_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  paymentIntentId: text("payment_intent_id"),
  receivedAt: createdAt(),
});

export const SIMULATED_INTENT_STATUSES = ["requires_payment_method", "succeeded", "canceled"] as const;

/** The simulated payment provider's own record of its intents (product rule 9); Stripe keeps these itself. */
export const simulatedPaymentIntents = sqliteTable(
  "simulated_payment_intents",
  {
    id: text("id").primaryKey(),
    clientSecret: text("client_secret").notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    status: text("status", { enum: SIMULATED_INTENT_STATUSES }).notNull().default("requires_payment_method"),
    lastError: text("last_error"),
    /** What was refunded through `refund()`. */
    refundedCents: integer("refunded_cents").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("simulated_payment_intents_secret_unique").on(t.clientSecret)],
);
