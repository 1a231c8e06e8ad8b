/**
 * Live transfers: an order's delivery settings, states, pauses and agents, the transfers routed to it, the
 * partners' daily counts, the partners' events and the buyers' daily summaries.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { PAUSE_KINDS, PAUSE_LIFTS } from "../../../src/features/transfers/delivery-pauses";
import {
  DELIVERY_SETUP_STATUSES,
  TRANSFER_EVENT_TYPES,
  TRANSFER_STATUSES,
} from "../../../src/features/transfers/transfers";
import { users } from "./accounts";
import { createdAt, oneOf } from "./columns";
import { orders } from "./orders";
import { apiKeys, partners } from "./partners";

/**
 * The delivery settings of one live-transfer order and its running counts. Routing reads only
 * orders whose setup is 'ready', not paused, with billable deliveries left (see worker/features/transfers/transfers.ts).
 */
export const orderDelivery = sqliteTable(
  "order_delivery",
  {
    orderId: text("order_id")
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    setupStatus: text("setup_status", { enum: DELIVERY_SETUP_STATUSES }).notNull().default("awaiting_setup"),
    transferPhone: text("transfer_phone"),
    /** State codes as a JSON array; [] = every state. Mirrored in order_delivery_states for routing. */
    states: text("states", { mode: "json" }).$type<string[]>().notNull().default([]),
    /** Transfer hours in minutes since local midnight; end < start spans midnight. */
    hoursStartMinute: integer("hours_start_minute"),
    hoursEndMinute: integer("hours_end_minute"),
    /** Weekdays taking transfers (0 = Sunday … 6) as a JSON array; null = every day. */
    days: text("days", { mode: "json" }).$type<number[]>(),
    /** IANA zone, one of US_TIME_ZONES: the buyer's day and hours. */
    timeZone: text("time_zone"),
    perDayCap: integer("per_day_cap"),
    /** A closure (migration 0036): local days YYYY-MM-DD, inclusive, in `time_zone`; both null = none. */
    closedFrom: text("closed_from"),
    closedUntil: text("closed_until"),
    /** At most this many transfers in any 60 minutes (counted as the per-day cap counts); null = no cap. */
    perHourCap: integer("per_hour_cap"),
    /** At most this many transfers ringing or connected at once (the live holds); null = no cap. */
    maxConcurrent: integer("max_concurrent"),
    paused: integer("paused", { mode: "boolean" }).notNull().default(false),
    pausedReason: text("paused_reason"),
    pausedAt: integer("paused_at", { mode: "timestamp_ms" }),
    /** Who paused it (migration 0014): the buyer, or the system after unanswered transfers. */
    pauseKind: text("pause_kind", { enum: PAUSE_KINDS }),
    /** A system pause only an admin may lift (the third within 24 hours). */
    pauseNeedsAdmin: integer("pause_needs_admin", { mode: "boolean" }).notNull().default(false),
    /** The order's quantity of transfers. */
    transfersTotal: integer("transfers_total").notNull(),
    /**
     * Billable transfers, less approved returns (each uses one of the total). Triggers (migration 0014)
     * refuse any write that takes it below 0 or above `transfers_total`.
     */
    transfersBillable: integer("transfers_billable").notNull().default(0),
    /** Completed transfers within the buffer: 'under 2 minutes — not charged'. */
    transfersNotCharged: integer("transfers_not_charged").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [
    index("order_delivery_routing_idx").on(t.setupStatus, t.paused),
    check("order_delivery_setup_status_check", oneOf(t.setupStatus, DELIVERY_SETUP_STATUSES)),
    check("order_delivery_pause_kind_check", oneOf(t.pauseKind, PAUSE_KINDS)),
  ],
);

/** Each system pause of an order (migration 0014) and how it was lifted: the third within 24 hours needs an admin. */
export const systemPauses = sqliteTable(
  "system_pauses",
  {
    id: text("id").primaryKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    pausedAt: integer("paused_at", { mode: "timestamp_ms" }).notNull(),
    needsAdmin: integer("needs_admin", { mode: "boolean" }).notNull().default(false),
    liftedAt: integer("lifted_at", { mode: "timestamp_ms" }),
    liftedBy: text("lifted_by").references(() => users.id, { onDelete: "set null" }),
    liftedHow: text("lifted_how", { enum: PAUSE_LIFTS }),
  },
  (t) => [
    index("system_pauses_order_idx").on(t.orderId, t.pausedAt),
    check("system_pauses_lifted_how_check", oneOf(t.liftedHow, PAUSE_LIFTS)),
  ],
);

/** One row per (order, state) an order takes, or (order, 'ALL'): routing's per-state lookup. */
export const orderDeliveryStates = sqliteTable(
  "order_delivery_states",
  {
    state: text("state").notNull(),
    orderId: text("order_id")
      .notNull()
      .references(() => orderDelivery.orderId, { onDelete: "cascade" }),
    /**
     * Maintained by triggers (migration 0009), never written by the app: whether the order is open for
     * routing (ready, not paused, paid, transfers left) and when it was paid, for the routing index.
     */
    open: integer("open", { mode: "boolean" }).notNull().default(false),
    paidAt: integer("paid_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    primaryKey({ columns: [t.state, t.orderId] }),
    index("order_delivery_states_order_idx").on(t.orderId),
    index("order_delivery_states_routing_idx").on(t.state, t.open, t.paidAt, t.orderId),
  ],
);

/**
 * An order's agents (docs/decisions/0071): each takes transfers at its own number, in its licensed states,
 * within its own hours, one call at a time. An order without agents routes to its one transfer phone.
 * Removed agents keep their row (`removed_at`) so the Lead Tracker still names who took a call.
 */
export const orderAgents = sqliteTable(
  "order_agents",
  {
    id: text("id").primaryKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** Ten digits: where this agent's transfers ring. */
    transferPhone: text("transfer_phone").notNull(),
    /** The state codes the agent is licensed in, as a JSON array (never empty). */
    states: text("states", { mode: "json" }).$type<string[]>().notNull(),
    /** IANA zone, one of US_TIME_ZONES: the agent's days and hours. */
    timeZone: text("time_zone").notNull(),
    /** Weekdays the agent works (0 = Sunday … 6) as a JSON array. */
    days: text("days", { mode: "json" }).$type<number[]>().notNull(),
    /** Hours in minutes since local midnight; end < start spans midnight, end = start is all day. */
    hoursStartMinute: integer("hours_start_minute").notNull(),
    hoursEndMinute: integer("hours_end_minute").notNull(),
    /** The agent's own switch: off = no transfers, whatever the hours. */
    takingCalls: integer("taking_calls", { mode: "boolean" }).notNull().default(true),
    removedAt: integer("removed_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [index("order_agents_order_idx").on(t.orderId, t.removedAt)],
);

/** One row per successful ping (a routed call) with its outcome; 409 answers leave no row. */
export const transfers = sqliteTable(
  "transfers",
  {
    id: text("id").primaryKey(),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.id, { onDelete: "cascade" }),
    apiKeyId: text("api_key_id").references(() => apiKeys.id, { onDelete: "set null" }),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    buyerUserId: text("buyer_user_id").references(() => users.id, { onDelete: "set null" }),
    /** The buyer for the 30-day duplicate rule: the user id, or 'email:' + lower-case e-mail. */
    buyerKey: text("buyer_key").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    /** Ten digits. */
    phone: text("phone").notNull(),
    state: text("state").notNull(),
    zip: text("zip"),
    age: integer("age"),
    optInAt: integer("opt_in_at", { mode: "timestamp_ms" }).notNull(),
    optInUrl: text("opt_in_url").notNull(),
    trustedFormUrl: text("trusted_form_url"),
    // The rest of the ping's optional consent evidence (migration 0017).
    consentText: text("consent_text"),
    ipAddress: text("ip_address"),
    jornayaLeadId: text("jornaya_lead_id"),
    /** The number the call was sent to (the order's transfer phone, or its agent's, at routing). */
    transferPhone: text("transfer_phone").notNull(),
    /** The order's agent who took the call (docs/decisions/0071); null for an order without agents. */
    agentId: text("agent_id").references(() => orderAgents.id, { onDelete: "set null" }),
    status: text("status", { enum: TRANSFER_STATUSES }).notNull().default("routed"),
    routedAt: integer("routed_at", { mode: "timestamp_ms" }).notNull(),
    /** While status is routed/connected and this is in the future, the transfer holds a slot on its order. */
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    connectedAt: integer("connected_at", { mode: "timestamp_ms" }),
    endedAt: integer("ended_at", { mode: "timestamp_ms" }),
    durationSeconds: integer("duration_seconds"),
    billable: integer("billable", { mode: "boolean" }).notNull().default(false),
    recordingUrl: text("recording_url"),
    /** YYYY-MM-DD in the buyer's zone at routing (per-order per-day cap). */
    buyerLocalDay: text("buyer_local_day").notNull(),
    /** Set when the buyer's return is approved: no longer in the partner's payout. */
    returnedAt: integer("returned_at", { mode: "timestamp_ms" }),
    /** YYYY-MM-DD in the partner's zone at routing (partner's daily call cap). */
    partnerLocalDay: text("partner_local_day").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("transfers_order_day_idx").on(t.orderId, t.buyerLocalDay, t.status),
    index("transfers_order_hold_idx").on(t.orderId, t.status, t.expiresAt),
    index("transfers_duplicate_idx").on(t.phone, t.buyerKey, t.routedAt),
    index("transfers_partner_day_idx").on(t.partnerId, t.partnerLocalDay),
    index("transfers_partner_routed_idx").on(t.partnerId, t.routedAt),
    index("transfers_order_routed_idx").on(t.orderId, t.routedAt),
    index("transfers_buyer_routed_idx").on(t.buyerUserId, t.routedAt),
    index("transfers_buyer_day_idx").on(t.buyerLocalDay, t.buyerUserId),
    // A state's calls to one number in 24 hours (docs/decisions/0064): one range seek per ping there.
    index("transfers_phone_routed_idx").on(t.phone, t.routedAt),
    // An agent's live call and latest transfer (docs/decisions/0071): one seek per agent at routing.
    index("transfers_agent_routed_idx").on(t.agentId, t.routedAt),
    check("transfers_status_check", oneOf(t.status, TRANSFER_STATUSES)),
  ],
);

/** A partner's transfers per its local day: kept by triggers on `transfers` (migration 0009), read for the daily call cap. */
export const partnerDayCalls = sqliteTable(
  "partner_day_calls",
  {
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    calls: integer("calls").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.day] })],
);

/**
 * A partner's pings answered without a route (409) per its local day, and how many of those were
 * `suppressed` (docs/decisions/0050), outside the prospect's legal calling hours (`calling_window`) or over
 * their state's calls in 24 hours (`call_limit`, docs/decisions/0064): with `partner_day_calls` (the routed
 * ones) they make the day's pings. Written only when a ping is refused; routing reads `suppressed` for the
 * daily call cap.
 */
export const partnerDayRefusals = sqliteTable(
  "partner_day_refusals",
  {
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    refused: integer("refused").notNull().default(0),
    suppressed: integer("suppressed").notNull().default(0),
    callingWindow: integer("calling_window").notNull().default(0),
    callLimit: integer("call_limit").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.day] })],
);

/** Each event a partner reported, once per (transfer, type): a repeated event changes nothing. */
export const transferEvents = sqliteTable(
  "transfer_events",
  {
    transferId: text("transfer_id")
      .notNull()
      .references(() => transfers.id, { onDelete: "cascade" }),
    type: text("type", { enum: TRANSFER_EVENT_TYPES }).notNull(),
    receivedAt: integer("received_at", { mode: "timestamp_ms" }).notNull(),
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [primaryKey({ columns: [t.transferId, t.type] })],
);

/** The daily delivery summary e-mailed to a buyer, once per (buyer, day). */
export const deliverySummaries = sqliteTable(
  "delivery_summaries",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);
