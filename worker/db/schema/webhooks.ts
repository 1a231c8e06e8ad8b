/**
 * Buyer webhooks (product rule 41): endpoints, the event outbox and each event's deliveries.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { ALL_WEBHOOK_EVENT_TYPES } from "../../../src/features/webhook-outbox/events";
import { DELIVERY_STATUSES } from "../../../src/features/webhooks/delivery";
import { users } from "./accounts";
import { createdAt, oneOf } from "./columns";

// ——— Buyer webhooks (migration 0019, product rule 41, decisions 0037 and 0044) ———

/** A buyer's webhook endpoint (at most WEBHOOK_MAX_ENDPOINTS each); secrets are stored encrypted. */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    url: text("url").notNull(),
    /** The event types it receives (JSON array of WEBHOOK_EVENT_TYPES). */
    events: text("events", { mode: "json" }).$type<string[]>().notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    /** Set when it was switched off for failing 3 days in a row (null when on, or switched off by hand). */
    disabledAt: integer("disabled_at", { mode: "timestamp_ms" }),
    /** The signing secret, encrypted (`enc1:…`, src/features/webhooks/secret-box.ts) with the row id bound in. */
    secret: text("secret").notNull(),
    secretCreatedAt: integer("secret_created_at", { mode: "timestamp_ms" }).notNull(),
    /** After a rotation, the old secret signs too until `previousSecretExpiresAt`. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: integer("previous_secret_expires_at", { mode: "timestamp_ms" }),
    /** The first failed attempt since the endpoint last answered 2xx (or was switched on). */
    failingSince: integer("failing_since", { mode: "timestamp_ms" }),
    /**
     * The lease of the one consumer batch sending to it now (docs/decisions/0052): another batch defers
     * this endpoint's deliveries meanwhile, so at most a few requests are in flight to it at once.
     */
    sendingUntil: integer("sending_until", { mode: "timestamp_ms" }),
    /** Nothing is sent to it before this: its rate, or its back-off while it fails (decision 0052). */
    nextSendAt: integer("next_send_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("webhook_endpoints_user_idx").on(t.userId, t.createdAt)],
);

/**
 * The outbox: one row per event for a buyer, written in the same batch as the fact it tells of, and only
 * when the buyer has an endpoint for its type. `payload` is the JSON body as sent, built from the
 * fact's rows before the first attempt and kept, so a retry or resend sends the same bytes.
 */
export const webhookEvents = sqliteTable(
  "webhook_events",
  {
    /** `evt_` + 32 hex: derived from the fact's natural key where it has one (webhookEventIdFor). */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type", { enum: ALL_WEBHOOK_EVENT_TYPES }).notNull(),
    /** The lead, transfer, order or return the event tells of (the event's own id for a test). */
    subjectId: text("subject_id").notNull(),
    payload: text("payload"),
    /** When the fact happened. */
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    index("webhook_events_created_idx").on(t.createdAt),
    index("webhook_events_subject_idx").on(t.subjectId, t.type),
    check("webhook_events_type_check", oneOf(t.type, ALL_WEBHOOK_EVENT_TYPES)),
  ],
);

/** One event's delivery to one endpoint: its state, attempts and the last answer (the delivery log). */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** The event's type, subject (`transfer:<id>`), rank among its subject's types and time, for order and the log. */
    type: text("type", { enum: ALL_WEBHOOK_EVENT_TYPES }).notNull(),
    subject: text("subject").notNull(),
    rank: integer("rank").notNull(),
    eventCreatedAt: integer("event_created_at", { mode: "timestamp_ms" }).notNull(),
    status: text("status", { enum: DELIVERY_STATUSES }).notNull().default("pending"),
    /** Every attempt ever made; `roundAttempts` those since the last resend (the back-off counts these). */
    attempts: integer("attempts").notNull().default(0),
    roundAttempts: integer("round_attempts").notNull().default(0),
    /** The first attempt of the current round: its 3-day retry window starts here. */
    firstAttemptAt: integer("first_attempt_at", { mode: "timestamp_ms" }),
    lastAttemptAt: integer("last_attempt_at", { mode: "timestamp_ms" }),
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }).notNull(),
    /** A consumer is sending it until then; another message for it meanwhile is dropped. */
    leasedUntil: integer("leased_until", { mode: "timestamp_ms" }),
    /** The last answer's HTTP status; null when there was none (timeout, refused address, network error). */
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    latencyMs: integer("latency_ms"),
    /** The first 1 KB of the last answer. */
    answer: text("answer"),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.endpointId] }),
    index("webhook_deliveries_log_idx").on(t.endpointId, sql`${t.eventCreatedAt} DESC`, t.eventId),
    index("webhook_deliveries_open_subject_idx")
      .on(t.endpointId, t.subject)
      .where(sql`${t.status} IN ('pending', 'retrying')`),
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} IN ('pending', 'retrying')`),
    check("webhook_deliveries_status_check", oneOf(t.status, DELIVERY_STATUSES)),
  ],
);
