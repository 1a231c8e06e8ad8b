/**
 * The whole data model (spec §3, PRODUCT.md D2, D4, D6, D8, D9, D10). Times are epoch milliseconds,
 * money is integer cents, ids are random UUIDs unless a natural key exists.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ORDER_STATUSES } from "../../src/domain/orders";

const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`);

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
    /** Descriptive only (spec §6): 'Insurance Agent' or 'Agency Owner'. */
    role: text("role").notNull().default("Insurance Agent"),
    state: text("state"),
    isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("users_username_unique").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_unique").on(sql`lower(${t.email})`),
    index("users_created_at_idx").on(t.createdAt),
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
    /** When the session began: it ends SESSION_ABSOLUTE_MS later whatever happens (D14). */
    createdAt: integer("created_at").notNull().default(0),
    /** Last request seen, to end sessions idle longer than their idle timeout (D14). */
    lastSeenAt: integer("last_seen_at").notNull().default(0),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** D10: only the SHA-256 of the token is stored; single use, one hour. */
export const passwordResetTokens = sqliteTable(
  "password_reset_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [index("password_reset_tokens_user_idx").on(t.userId)],
);

/** A completed /survey or /ringcloud wizard (never the password); its order copies the answers. */
export const surveyResponses = sqliteTable(
  "survey_responses",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["survey", "ringcloud"] }).notNull(),
    answers: text("answers", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("survey_responses_user_idx").on(t.userId)],
);

export const ORDER_KINDS = ["package", "survey", "ringcloud", "transfer", "aged-leads"] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];
export { ORDER_STATUSES, type OrderStatus } from "../../src/domain/orders";

/** D2: every purchase, whichever screen sold it. */
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

/** D8: one upload of a CSV file, with its running counts. */
export const imports = sqliteTable(
  "imports",
  {
    id: text("id").primaryKey(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    fileName: text("file_name"),
    rowsReceived: integer("rows_received").notNull().default(0),
    rowsInserted: integer("rows_inserted").notNull().default(0),
    rowsDuplicate: integer("rows_duplicate").notNull().default(0),
    rowsRejected: integer("rows_rejected").notNull().default(0),
    batchesReceived: integer("batches_received").notNull().default(0),
    batchesDone: integer("batches_done").notNull().default(0),
    batchesFailed: integer("batches_failed").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("imports_created_at_idx").on(t.createdAt)],
);

export const IMPORT_BATCH_STATUSES = ["queued", "done", "failed"] as const;

/** One batch of an import; its key makes queue redelivery idempotent. */
export const importBatches = sqliteTable(
  "import_batches",
  {
    importId: text("import_id")
      .notNull()
      .references(() => imports.id, { onDelete: "cascade" }),
    batchNumber: integer("batch_number").notNull(),
    /** Valid rows, queued for the consumer. */
    rowCount: integer("row_count").notNull(),
    /** Every row the batch brought, valid or not (the import's totals are summed from its batches). */
    rowsReceived: integer("rows_received").notNull().default(0),
    status: text("status", { enum: IMPORT_BATCH_STATUSES }).notNull().default("queued"),
    inserted: integer("inserted").notNull().default(0),
    duplicates: integer("duplicates").notNull().default(0),
    error: text("error"),
    processedAt: integer("processed_at", { mode: "timestamp_ms" }),
  },
  (t) => [primaryKey({ columns: [t.importId, t.batchNumber] })],
);

/** Rows refused by validation, with the row number of the uploaded file and the reason. */
export const importRejections = sqliteTable(
  "import_rejections",
  {
    importId: text("import_id")
      .notNull()
      .references(() => imports.id, { onDelete: "cascade" }),
    rowNumber: integer("row_number").notNull(),
    reason: text("reason").notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.rowNumber] })],
);

export const agedLeads = sqliteTable(
  "aged_leads",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email"),
    phone: text("phone").notNull(),
    state: text("state").notNull(),
    /** The phone's area code (`leadAreaCode`), filled on insert; the location filter matches it exactly (D15). */
    areaCode: text("area_code"),
    /** The band given at upload; used only when formFillTime is absent (D7). */
    ageRange: text("age_range", { enum: ["30-60", "60-90", "90-180"] }),
    /** Explicit price from the upload; 0 = priced by age (D7). */
    priceCents: integer("price_cents").notNull().default(0),
    formFillTime: integer("form_fill_time", { mode: "timestamp_ms" }),
    /** phone digits + formFillTime: the duplicate rule of D8. */
    dedupeKey: text("dedupe_key").notNull(),
    importId: text("import_id").references(() => imports.id, { onDelete: "set null" }),
    /** The CSV batch that inserted the lead: an import's counts are read back from the rows themselves. */
    importBatch: integer("import_batch"),
    reservedByOrderId: text("reserved_by_order_id"),
    reservedUntil: integer("reserved_until", { mode: "timestamp_ms" }),
    /** The buyer holding the reservation: a buyer holds at most one open reservation. */
    reservedByUserId: text("reserved_by_user_id"),
    soldToUserId: text("sold_to_user_id").references(() => users.id, { onDelete: "set null" }),
    soldOrderId: text("sold_order_id"),
    soldAt: integer("sold_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("aged_leads_dedupe_unique").on(t.dedupeKey),
    // Migration 0006 (docs/decisions/0012): the marketplace's indexes over unsold leads, newest first.
    index("aged_leads_listing_idx")
      .on(sql`${t.createdAt} DESC`, t.id, t.reservedUntil, t.state, t.areaCode)
      .where(sql`${t.soldAt} IS NULL`),
    index("aged_leads_state_listing_idx")
      .on(t.state, sql`${t.createdAt} DESC`, t.id, t.reservedUntil)
      .where(sql`${t.soldAt} IS NULL`),
    index("aged_leads_area_listing_idx")
      .on(t.areaCode, sql`${t.createdAt} DESC`, t.id, t.reservedUntil)
      .where(sql`${t.soldAt} IS NULL`),
    index("aged_leads_reservations_idx")
      .on(t.reservedUntil, t.state, t.areaCode)
      .where(sql`${t.soldAt} IS NULL AND ${t.reservedUntil} IS NOT NULL`),
    index("aged_leads_sold_to_idx").on(t.soldToUserId, sql`${t.soldAt} DESC`, t.id),
    index("aged_leads_reserved_order_idx").on(t.reservedByOrderId),
    index("aged_leads_reserved_user_idx").on(t.reservedByUserId),
    index("aged_leads_import_idx").on(t.importId, t.importBatch),
  ],
);

/**
 * Unsold leads per state and area code (migration 0006). Kept by triggers on aged_leads in the same
 * transaction as every insert, sale and delete; running reservations are subtracted when read.
 */
export const agedLeadCounts = sqliteTable(
  "aged_lead_counts",
  {
    state: text("state").notNull(),
    areaCode: text("area_code").notNull(),
    unsold: integer("unsold").notNull(),
  },
  (t) => [primaryKey({ columns: [t.state, t.areaCode] })],
);

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
  },
  (t) => [index("callback_opportunities_created_at_idx").on(t.createdAt)],
);

export const APPLICATION_STATUSES = ["pending", "approved", "rejected"] as const;

export const partnerApplications = sqliteTable(
  "partner_applications",
  {
    id: text("id").primaryKey(),
    status: text("status", { enum: APPLICATION_STATUSES }).notNull().default("pending"),
    businessName: text("business_name").notNull(),
    businessAddress: text("business_address").notNull(),
    city: text("city").notNull(),
    state: text("state").notNull(),
    zip: text("zip").notNull(),
    ein: text("ein").notNull(),
    mainContact: text("main_contact").notNull(),
    contactPhone: text("contact_phone").notNull(),
    contactEmail: text("contact_email").notNull(),
    paymentTerms: text("payment_terms", { enum: ["Net 7", "Net 15", "Net 30"] }).notNull(),
    numberOfAgents: integer("number_of_agents").notNull(),
    officeHours: text("office_hours").notNull(),
    timeZone: text("time_zone", { enum: ["PST", "MST", "CST", "EST"] }).notNull(),
    payPerTransfer: text("pay_per_transfer").notNull(),
    didNumber: text("did_number").notNull(),
    dailyCallCap: integer("daily_call_cap").notNull(),
    reference1CompanyName: text("reference1_company_name"),
    reference1ContactName: text("reference1_contact_name"),
    reference1Phone: text("reference1_phone"),
    reference2CompanyName: text("reference2_company_name"),
    reference2ContactName: text("reference2_contact_name"),
    reference2Phone: text("reference2_phone"),
    approvedAt: integer("approved_at", { mode: "timestamp_ms" }),
    reviewedAt: integer("reviewed_at", { mode: "timestamp_ms" }),
    reviewedBy: text("reviewed_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("partner_applications_status_idx").on(t.status, t.createdAt)],
);

/** D9: the file lives in R2 under a random key; this row keeps its name, size, type and date. */
export const partnerDocuments = sqliteTable(
  "partner_documents",
  {
    id: text("id").primaryKey(),
    applicationId: text("application_id")
      .notNull()
      .references(() => partnerApplications.id, { onDelete: "cascade" }),
    storageKey: text("storage_key").notNull(),
    originalName: text("original_name").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    uploadedAt: integer("uploaded_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [
    index("partner_documents_application_idx").on(t.applicationId),
    uniqueIndex("partner_documents_key_unique").on(t.storageKey),
  ],
);

/** D10: the local mailer's outbox (and a record of what production sent). */
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

/** Each payment-provider event is processed once (D2). */
export const paymentEvents = sqliteTable("payment_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  paymentIntentId: text("payment_intent_id"),
  receivedAt: createdAt(),
});

export const SIMULATED_INTENT_STATUSES = ["requires_payment_method", "succeeded", "canceled"] as const;

/** The simulated payment provider's own record of its intents (D3); Stripe keeps these itself. */
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

/**
 * Login throttling (D11, D14), per client address and per username: attempts in the current window,
 * and a lock whose length doubles with each lockout.
 */
export const loginThrottle = sqliteTable("login_throttle", {
  key: text("key").primaryKey(),
  windowStart: integer("window_start").notNull(),
  attempts: integer("attempts").notNull(),
  lockouts: integer("lockouts").notNull().default(0),
  lockedUntil: integer("locked_until").notNull().default(0),
});

/** Local fallback for the rate-limiting binding (D11): fixed windows per key. */
export const rateLimitWindows = sqliteTable("rate_limit_windows", {
  key: text("key").primaryKey(),
  windowStart: integer("window_start").notNull(),
  hits: integer("hits").notNull(),
});
