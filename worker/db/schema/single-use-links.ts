/**
 * Single-use e-mailed links: for a user or an order, so they come after both.
 */
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { LINK_PURPOSES } from "../../../src/domain/single-use-links";
import { users } from "./accounts";
import { createdAt, oneOf } from "./columns";
import { orders } from "./orders";

/**
 * Single-use e-mailed links (password reset, partner invitation, delivery setup; decision 0028): only the
 * SHA-256 of the token is stored. `purpose` says what a link may do; `user_id` / `order_id` what it is for.
 */
export const singleUseLinks = sqliteTable(
  "single_use_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    purpose: text("purpose", { enum: LINK_PURPOSES }).notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    orderId: text("order_id").references(() => orders.id, { onDelete: "cascade" }),
    email: text("email"),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("single_use_links_user_idx").on(t.userId, t.purpose),
    index("single_use_links_order_idx").on(t.orderId, t.purpose),
    check("single_use_links_purpose", oneOf(t.purpose, LINK_PURPOSES)),
  ],
);
