/**
 * Returns and the buyer's balance (product rules 24-26): after transfers and aged leads, which returns name.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { BALANCE_REASONS } from "../../../src/features/orders/balance";
import { RETURN_KINDS, RETURN_REASON_VALUES, RETURN_STATUSES } from "../../../src/features/returns/returns";
import { users } from "./accounts";
import { agedLeads } from "./aged-leads";
import { createdAt } from "./columns";
import { transfers } from "./transfers";

// ——— Returns and the buyer's balance (migration 0011, product rules 24-26) ———

/** A buyer's return of one delivered transfer or purchased aged lead; an item is returned once. */
export const returns = sqliteTable(
  "returns",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: RETURN_KINDS }).notNull(),
    buyerUserId: text("buyer_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    transferId: text("transfer_id").references(() => transfers.id, { onDelete: "cascade" }),
    agedLeadId: text("aged_lead_id").references(() => agedLeads.id, { onDelete: "cascade" }),
    /**
     * A returned call-back or appointment (migration 0031, decision 0062). No foreign key and not in the
     * CHECK below (adding either rebuilds the table): the CHECK holds for a call-back, whose transfer and
     * lead are both null, and the service writes this column for that kind only.
     */
    callbackId: text("callback_id"),
    /** The order the item went to; '' for a call-back bought without an order (decision 0062). */
    orderId: text("order_id").notNull(),
    reason: text("reason", { enum: RETURN_REASON_VALUES }).notNull(),
    reasonText: text("reason_text"),
    status: text("status", { enum: RETURN_STATUSES }).notNull().default("pending"),
    adminNote: text("admin_note"),
    decidedBy: text("decided_by").references(() => users.id, { onDelete: "set null" }),
    decidedAt: integer("decided_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("returns_transfer_unique").on(t.transferId).where(sql`${t.transferId} IS NOT NULL`),
    uniqueIndex("returns_aged_lead_unique").on(t.agedLeadId).where(sql`${t.agedLeadId} IS NOT NULL`),
    uniqueIndex("returns_callback_unique").on(t.callbackId).where(sql`${t.callbackId} IS NOT NULL`),
    index("returns_buyer_created_idx").on(t.buyerUserId, t.createdAt),
    index("returns_status_created_idx").on(t.status, t.createdAt),
    // A return names exactly the item of its kind.
    check(
      "returns_kind_item_check",
      sql`(${t.kind} = 'transfer') = (${t.transferId} IS NOT NULL) AND (${t.kind} = 'aged_lead') = (${t.agedLeadId} IS NOT NULL)`,
    ),
  ],
);

/** Every change of a buyer's balance (+ credit, − debit); the balance is the ledger's sum. */
export const balanceLedger = sqliteTable(
  "balance_ledger",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    amountCents: integer("amount_cents").notNull(),
    reason: text("reason", { enum: BALANCE_REASONS }).notNull(),
    returnId: text("return_id").references(() => returns.id, { onDelete: "set null" }),
    /** No foreign key: a checkout's debit is written before its order row (the card amount depends on it). */
    orderId: text("order_id"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("balance_ledger_user_idx").on(t.userId, t.createdAt),
    uniqueIndex("balance_ledger_return_unique").on(t.returnId).where(sql`${t.returnId} IS NOT NULL`),
    uniqueIndex("balance_ledger_order_unique").on(t.orderId, t.reason).where(sql`${t.orderId} IS NOT NULL`),
  ],
);
