/**
 * What the Worker keeps for itself: the mailer's outbox and the rate limiter's fallback windows.
 */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";

/** Product rules 11, 27, 35: the local mailer's outbox (and a record of what production sent). */
export const outbox = sqliteTable(
  "outbox",
  {
    id: text("id").primaryKey(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [index("outbox_to_idx").on(t.to, t.createdAt)],
);

/** Local fallback for the rate-limiting binding (product rule 33): fixed windows per key. */
export const rateLimitWindows = sqliteTable("rate_limit_windows", {
  key: text("key").primaryKey(),
  windowStart: integer("window_start").notNull(),
  hits: integer("hits").notNull(),
});
