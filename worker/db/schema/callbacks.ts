/**
 * Call-backs and appointments (src/features/callbacks/callbacks.ts; docs/decisions/0060-0062, 0069).
 */
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { CALLBACK_OUTCOMES } from "../../../src/features/callbacks/callback-outcomes";
import { CALLBACK_KINDS, CALLBACK_SOURCES } from "../../../src/features/callbacks/callbacks";
import { users } from "./accounts";
import { consentEvidenceColumns, createdAt } from "./columns";

export const callbackOpportunities = sqliteTable(
  "callback_opportunities",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone").notNull(),
    state: text("state").notNull(),
    priceCents: integer("price_cents").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    // A call-back or an appointment (migration 0027, src/features/callbacks/callbacks.ts): the prospect's window in
    // their own time zone, where it came from, its consent evidence, and the paid order it went to.
    kind: text("kind", { enum: CALLBACK_KINDS }).notNull().default("callback"),
    zip: text("zip"),
    timeZone: text("time_zone"),
    windowStart: integer("window_start", { mode: "timestamp_ms" }),
    windowEnd: integer("window_end", { mode: "timestamp_ms" }),
    /** The phone as `phoneKey` (src/features/do-not-call/suppression.ts): what the 30-day rule and the lists compare. */
    phoneKey: integer("phone_key"),
    /** Set while a Do Not Call registry copy that applies to the number holds it (docs/decisions/0084): not sold nor delivered. */
    registryListedAt: integer("registry_listed_at", { mode: "timestamp_ms" }),
    source: text("source", { enum: CALLBACK_SOURCES }).notNull().default("admin"),
    partnerId: text("partner_id"),
    ...consentEvidenceColumns(),
    /** The paid call-back order it was delivered to, its buyer and when (null while unassigned). */
    orderId: text("order_id"),
    buyerUserId: text("buyer_user_id"),
    deliveredAt: integer("delivered_at", { mode: "timestamp_ms" }),
    /** When the buyer's reminder e-mail was claimed, 15 minutes before the window (migration 0029, decision 0060). */
    remindedAt: integer("reminded_at", { mode: "timestamp_ms" }),
    /** A buyer's marketplace purchase holds it until then for its pending order (migration 0030, decision 0061). */
    reservedOrderId: text("reserved_order_id"),
    reservedUntil: integer("reserved_until", { mode: "timestamp_ms" }),
    /** The buyer whose purchase holds it: a buyer holds at most one (migration 0038, decision 0061). */
    reservedByUserId: text("reserved_by_user_id"),
    /** What the buyer marked after calling (migration 0031, decision 0062), and when. */
    outcome: text("outcome", { enum: CALLBACK_OUTCOMES }),
    outcomeAt: integer("outcome_at", { mode: "timestamp_ms" }),
    /** When an approved return gave it back: no longer counted in its order (decision 0062). */
    returnedAt: integer("returned_at", { mode: "timestamp_ms" }),
    /** When its order was refunded in full: it leaves My Call-Backs and is not sold again (migration 0043, decision 0075). */
    refundedAt: integer("refunded_at", { mode: "timestamp_ms" }),
    /** The CSV import and batch that took it in (migration 0037, decision 0069): a batch's counts are read back from its rows. */
    importId: text("import_id"),
    importBatch: integer("import_batch"),
  },
  (t) => [
    index("callback_opportunities_created_at_idx").on(t.createdAt),
    index("callback_opportunities_import_idx").on(t.importId, t.importBatch).where(sql`${t.importId} IS NOT NULL`),
    index("callback_opportunities_order_idx").on(t.orderId),
    index("callback_opportunities_buyer_phone_idx").on(t.buyerUserId, t.phoneKey, t.deliveredAt),
    // Delivered call-backs by number: a list's new numbers find what was sold with them (docs/decisions/0082).
    index("callback_opportunities_phone_delivered_idx").on(t.phoneKey, t.deliveredAt),
    index("callback_opportunities_unassigned_idx").on(t.windowEnd).where(sql`${t.orderId} IS NULL`),
    // A purchase's batch ends the buyer's other holds, and a release finds its order's (migration 0039).
    index("callback_opportunities_reserved_by_idx")
      .on(t.reservedByUserId)
      .where(sql`${t.reservedByUserId} IS NOT NULL`),
    index("callback_opportunities_reserved_order_idx")
      .on(t.reservedOrderId)
      .where(sql`${t.reservedOrderId} IS NOT NULL`),
    index("callback_opportunities_reminder_idx")
      .on(t.windowStart)
      .where(sql`${t.remindedAt} IS NULL AND ${t.orderId} IS NOT NULL`),
  ],
);
