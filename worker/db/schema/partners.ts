/**
 * Partners (call centers, product rule 34): applications, their documents, approved partners and their API keys.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { APPLICATION_STATUSES, PAYMENT_TERMS, TIME_ZONES } from "../../../src/features/partners/partner";
import { users } from "./accounts";
import { createdAt, oneOf } from "./columns";

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
    paymentTerms: text("payment_terms", { enum: PAYMENT_TERMS }).notNull(),
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
    check("partners_payment_terms_check", oneOf(t.paymentTerms, PAYMENT_TERMS)),
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
