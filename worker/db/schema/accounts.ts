/**
 * Accounts: users (buyers, admins, partners' logins), their sessions, survey answers and the login
 * throttle (product rules 30-31, 42).
 */
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ACCOUNT_TYPES } from "../../../src/domain/account-types";
import { SURVEY_KINDS } from "../../../src/domain/survey";
import { createdAt, oneOf } from "./columns";

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    username: text("username").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
    phone: text("phone").notNull().default(""),
    agencyName: text("agency_name").notNull().default(""),
    /** Descriptive only (product rule 42): 'Insurance Agent' or 'Agency Owner'. */
    role: text("role").notNull().default("Insurance Agent"),
    state: text("state"),
    isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
    /** 'buyer' (admins included) or 'partner' (a call center; never an admin). */
    accountType: text("account_type", { enum: ACCOUNT_TYPES }).notNull().default("buyer"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("users_username_unique").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_unique").on(sql`lower(${t.email})`),
    index("users_created_at_idx").on(t.createdAt),
    check("users_account_type_check", oneOf(t.accountType, ACCOUNT_TYPES)),
  ],
);

/** lucia's session table. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at").notNull(),
    /** When the session began: it ends SESSION_ABSOLUTE_MS later whatever happens (product rule 30). */
    createdAt: integer("created_at").notNull().default(0),
    /** Last request seen, to end sessions idle longer than their idle timeout (product rule 30). */
    lastSeenAt: integer("last_seen_at").notNull().default(0),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** A completed /survey or /ringcloud wizard (never the password); its order copies the answers. */
export const surveyResponses = sqliteTable(
  "survey_responses",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: SURVEY_KINDS }).notNull(),
    answers: text("answers", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("survey_responses_user_idx").on(t.userId)],
);

/**
 * Login throttling (product rule 31), per client address and per username: attempts in the current window,
 * and a lock whose length doubles with each lockout.
 */
export const loginThrottle = sqliteTable("login_throttle", {
  key: text("key").primaryKey(),
  windowStart: integer("window_start").notNull(),
  attempts: integer("attempts").notNull(),
  lockouts: integer("lockouts").notNull().default(0),
  lockedUntil: integer("locked_until").notNull().default(0),
});
