/**
 * The whole data model (product rules 7-8, 12-15, 29-30, 34, 42). Times are epoch milliseconds,
 * money is integer cents, ids are random UUIDs unless a natural key exists.
 */
import { type SQL, sql } from "drizzle-orm";
import {
  type AnySQLiteColumn,
  check,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { ACCOUNT_TYPES } from "../../src/domain/account-types";
import { CALLBACK_OUTCOMES } from "../../src/domain/callback-returns";
import { CALLBACK_KINDS, CALLBACK_SOURCES } from "../../src/domain/callbacks";
import { CERTIFICATE_CHECKS } from "../../src/domain/consent";
import { IMPORT_BATCH_STATUSES, IMPORT_KINDS } from "../../src/domain/csv-mapping";
import { PAUSE_KINDS, PAUSE_LIFTS } from "../../src/domain/delivery-pauses";
import { ORDER_KINDS, ORDER_STATUSES } from "../../src/domain/orders";
import { APPLICATION_STATUSES, PAYMENT_TERMS, TIME_ZONES } from "../../src/domain/partner";
import { AGE_RANGES } from "../../src/domain/pricing";
import { BALANCE_REASONS, RETURN_KINDS, RETURN_REASON_VALUES, RETURN_STATUSES } from "../../src/domain/returns";
import { LINK_PURPOSES } from "../../src/domain/single-use-links";
import { SURVEY_KINDS } from "../../src/domain/survey";
import {
  DELIVERY_SETUP_STATUSES,
  PARTNER_PAYMENT_TERMS,
  TRANSFER_EVENT_TYPES,
  TRANSFER_STATUSES,
} from "../../src/domain/transfers";
import { DELIVERY_STATUSES } from "../../src/domain/webhooks/delivery";
import { ALL_WEBHOOK_EVENT_TYPES } from "../../src/domain/webhooks/events";

/** `column IN ('a', 'b', …)` over one of src/domain's enums, for a CHECK constraint (no parameters there). */
const oneOf = (column: AnySQLiteColumn, values: readonly string[]): SQL =>
  sql`${column} IN (${sql.raw(values.map((value) => `'${value.replaceAll("'", "''")}'`).join(", "))})`;

const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`);

/** The six optional consent-evidence columns a lead and a call-back keep (product rule 39). */
const consentEvidenceColumns = () => ({
  optInAt: integer("opt_in_at", { mode: "timestamp_ms" }),
  optInUrl: text("opt_in_url"),
  consentText: text("consent_text"),
  ipAddress: text("ip_address"),
  trustedFormUrl: text("trusted_form_url"),
  jornayaLeadId: text("jornaya_lead_id"),
});

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

export { ORDER_KINDS, ORDER_STATUSES, type OrderKind, type OrderStatus } from "../../src/domain/orders";

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

/** Product rule 15: one upload of a CSV file, with its running counts. */
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
    /** Inserted rows whose number a shared suppression list held: stored, not for sale (migration 0018). */
    rowsSuppressed: integer("rows_suppressed").notNull().default(0),
    batchesReceived: integer("batches_received").notNull().default(0),
    batchesDone: integer("batches_done").notNull().default(0),
    batchesFailed: integer("batches_failed").notNull().default(0),
    /** Inserted leads with a consent certificate (TrustedForm or LeadiD, migration 0017); the rest have none. */
    rowsCertified: integer("rows_certified").notNull().default(0),
    /** Set at upload (migration 0017): this upload's leads without a certificate are stored but never listed or sold. */
    certificateRequired: integer("certificate_required", { mode: "boolean" }).notNull().default(false),
    /** What the file holds (migration 0037, decision 0069): aged leads, or call-backs and appointments. */
    kind: text("kind", { enum: IMPORT_KINDS }).notNull().default("leads"),
    createdAt: createdAt(),
  },
  (t) => [index("imports_created_at_idx").on(t.createdAt)],
);

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
    /** Of `inserted`, the leads with a consent certificate (migration 0017). */
    certified: integer("certified").notNull().default(0),
    /** Of the inserted rows, those suppressed on insert (migration 0018). */
    suppressed: integer("suppressed").notNull().default(0),
    error: text("error"),
    processedAt: integer("processed_at", { mode: "timestamp_ms" }),
    /** When the batch was last handed to the Queue; a batch queued long after it is re-sent (migration 0016). */
    queuedAt: integer("queued_at").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.importId, t.batchNumber] }),
    index("import_batches_queued_idx").on(t.queuedAt).where(sql`${t.status} = 'queued'`),
  ],
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

/** The marketplace lists a lead while it is unsold, not withheld and not suppressed (the listing indexes' predicate). */
const listed = (t: { soldAt: AnySQLiteColumn; withheld: AnySQLiteColumn; suppressedAt: AnySQLiteColumn }) =>
  sql`${t.soldAt} IS NULL AND ${t.withheld} = 0 AND ${t.suppressedAt} IS NULL`;

export const agedLeads = sqliteTable(
  "aged_leads",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email"),
    phone: text("phone").notNull(),
    state: text("state").notNull(),
    /** The phone's area code (`leadAreaCode`), filled on insert; the location filter matches it exactly (product rule 13). */
    areaCode: text("area_code"),
    /** The band given at upload; used only when formFillTime is absent (product rule 5). */
    ageRange: text("age_range", { enum: AGE_RANGES }),
    /** Explicit price from the upload; 0 = priced by age (product rule 5). */
    priceCents: integer("price_cents").notNull().default(0),
    formFillTime: integer("form_fill_time", { mode: "timestamp_ms" }),
    /** phone digits + formFillTime: the duplicate rule (product rule 15). */
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
    /** Set when the buyer's return is approved: the lead leaves My Leads and stays off sale. */
    returnedAt: integer("returned_at", { mode: "timestamp_ms" }),
    /** Set when the lead's order was fully refunded (migration 0016): it leaves My Leads and cannot be returned. */
    refundedAt: integer("refunded_at", { mode: "timestamp_ms" }),
    // Consent evidence (migration 0017, product rule 39): each optional, checked by schemas/consent.ts.
    ...consentEvidenceColumns(),
    /** A TrustedForm certificate or a Jornaya LeadiD (`hasConsentCertificate`): the marketplace's "with certificate". */
    certified: integer("certified", { mode: "boolean" }).notNull().default(false),
    /**
     * What the claim provider answered for the lead's certificate (migration 0024, docs/decisions/0054);
     * null until a configured claim ran: the lead's certificate is then "on file, not verified".
     */
    certificateCheck: text("certificate_check", { enum: CERTIFICATE_CHECKS }),
    certificateCheckedAt: integer("certificate_checked_at", { mode: "timestamp_ms" }),
    /** No certificate, and its upload sells only leads with one (imports.certificate_required): never listed nor sold. */
    withheld: integer("withheld", { mode: "boolean" }).notNull().default(false),
    /** The phone as `phoneKey` (src/domain/suppression.ts), filled on insert; what suppression lists are matched by. */
    phoneKey: integer("phone_key"),
    /**
     * Set while an active shared suppression list holds the number (or the phone is no US number): the lead
     * is stored but not listed, reserved or sold; cleared when the number leaves the lists (migration 0018).
     */
    suppressedAt: integer("suppressed_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("aged_leads_dedupe_unique").on(t.dedupeKey),
    // Migrations 0006, 0012, 0017 and 0018 (docs/decisions/0012, 0041, 0042): the marketplace's indexes over
    // listed leads (unsold, not withheld, not suppressed), newest first. They leave `reserved_until` out, so
    // reserving or releasing a lead never rewrites them; `certified` rides along so the certificate filter is
    // tested inside them, and the area index carries the state, so "area code but not these states" is
    // answered inside it.
    index("aged_leads_listing_idx").on(sql`${t.createdAt} DESC`, t.id, t.state, t.areaCode).where(listed(t)),
    index("aged_leads_state_listing_idx").on(t.state, sql`${t.createdAt} DESC`, t.id, t.certified).where(listed(t)),
    index("aged_leads_area_listing_idx")
      .on(t.areaCode, sql`${t.createdAt} DESC`, t.id, t.state, t.certified)
      .where(listed(t)),
    // "With certificate" without a location (or a broad one) walks only the certified leads.
    index("aged_leads_certified_listing_idx")
      .on(sql`${t.createdAt} DESC`, t.id, t.state, t.areaCode)
      .where(sql`${listed(t)} AND ${t.certified} = 1`),
    index("aged_leads_reservations_idx")
      .on(t.reservedUntil, t.state, t.areaCode, t.certified)
      .where(sql`${listed(t)} AND ${t.reservedUntil} IS NOT NULL`),
    // Leads by number: a list change finds the leads it suppresses or frees (migration 0018). Not partial,
    // so that selling a lead leaves it alone.
    index("aged_leads_phone_key_idx").on(t.phoneKey),
    // Partial (migration 0013): My Leads always asks for one buyer, so unsold rows need no entry.
    index("aged_leads_sold_to_idx")
      .on(t.soldToUserId, sql`${t.soldAt} DESC`, t.id)
      .where(sql`${t.soldToUserId} IS NOT NULL`),
    // Partial: only reserved rows (migration 0010), so the planner keeps them with ANALYZE statistics.
    index("aged_leads_reserved_order_idx").on(t.reservedByOrderId).where(sql`${t.reservedByOrderId} IS NOT NULL`),
    index("aged_leads_reserved_user_idx").on(t.reservedByUserId).where(sql`${t.reservedByUserId} IS NOT NULL`),
    // `certified` too (migration 0017): the consumer counts a batch's certified leads from the index alone.
    index("aged_leads_import_idx").on(t.importId, t.importBatch, t.certified),
  ],
);

/**
 * Listed leads (unsold, not withheld, not suppressed; migrations 0006, 0017 and 0018) per state and area code.
 * Kept by triggers on aged_leads in the same transaction as every insert, sale and delete; running
 * reservations are subtracted when read.
 */
export const agedLeadCounts = sqliteTable(
  "aged_lead_counts",
  {
    state: text("state").notNull(),
    areaCode: text("area_code").notNull(),
    unsold: integer("unsold").notNull(),
    /** Of `unsold`, the leads with a consent certificate (migration 0017). */
    certified: integer("certified").notNull().default(0),
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
    // A call-back or an appointment (migration 0027, src/domain/callbacks.ts): the prospect's window in
    // their own time zone, where it came from, its consent evidence, and the paid order it went to.
    kind: text("kind", { enum: CALLBACK_KINDS }).notNull().default("callback"),
    zip: text("zip"),
    timeZone: text("time_zone"),
    windowStart: integer("window_start", { mode: "timestamp_ms" }),
    windowEnd: integer("window_end", { mode: "timestamp_ms" }),
    /** The phone as `phoneKey` (src/domain/suppression.ts): what the 30-day rule and the lists compare. */
    phoneKey: integer("phone_key"),
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
    paymentTerms: text("payment_terms", { enum: PAYMENT_TERMS }).notNull(),
    numberOfAgents: integer("number_of_agents").notNull(),
    officeHours: text("office_hours").notNull(),
    timeZone: text("time_zone", { enum: TIME_ZONES }).notNull(),
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

/** Product rule 34: the file lives in R2 under a random key; this row keeps its name, size, type and date. */
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

/** Local fallback for the rate-limiting binding (product rule 33): fixed windows per key. */
export const rateLimitWindows = sqliteTable("rate_limit_windows", {
  key: text("key").primaryKey(),
  windowStart: integer("window_start").notNull(),
  hits: integer("hits").notNull(),
});

/** An approved partner (call center): one per partner user and per application. */
export const partners = sqliteTable(
  "partners",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    applicationId: text("application_id").references(() => partnerApplications.id, { onDelete: "set null" }),
    businessName: text("business_name").notNull(),
    didNumber: text("did_number").notNull(),
    dailyCallCap: integer("daily_call_cap").notNull(),
    payPerTransferCents: integer("pay_per_transfer_cents").notNull(),
    paymentTerms: text("payment_terms", { enum: PARTNER_PAYMENT_TERMS }).notNull(),
    /** IANA zone (one of US_TIME_ZONES): the partner's day for its call cap and statements. */
    timeZone: text("time_zone").notNull(),
    /** Set while an admin has the partner suspended (migration 0016): its API keys answer 403. */
    suspendedAt: integer("suspended_at", { mode: "timestamp_ms" }),
    /** Set by an admin (migration 0017): a ping without `consent.trustedFormUrl` answers 400. */
    requireTrustedForm: integer("require_trusted_form", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("partners_user_unique").on(t.userId),
    uniqueIndex("partners_application_unique").on(t.applicationId),
    check("partners_payment_terms_check", oneOf(t.paymentTerms, PARTNER_PAYMENT_TERMS)),
  ],
);

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

/** A partner's API keys: shown once, stored as SHA-256; `prefix` identifies a key in lists. */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    keyHash: text("key_hash").notNull(),
    prefix: text("prefix").notNull(),
    createdAt: createdAt(),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("api_keys_hash_unique").on(t.keyHash),
    index("api_keys_partner_idx").on(t.partnerId, t.createdAt),
  ],
);

/**
 * The delivery settings of one live-transfer order and its running counts. Routing reads only
 * orders whose setup is 'ready', not paused, with billable deliveries left (see worker/services/transfers.ts).
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

/** Each event a partner reported, once per (transfer, type): a repeated event changes nothing. */
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

export * from "./schema-suppression";
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
    /** The signing secret, encrypted (`enc1:…`, src/domain/webhooks/secret-box.ts) with the row id bound in. */
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
