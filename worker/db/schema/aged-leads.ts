/**
 * Aged leads (product rules 5, 12-15, 39) and the listed-lead counts per state and area code.
 */
import { sql } from "drizzle-orm";
import {
  type AnySQLiteColumn,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { CERTIFICATE_CHECKS } from "../../../src/features/consent/consent";
import { AGE_RANGES } from "../../../src/features/orders/pricing";
import { users } from "./accounts";
import { consentEvidenceColumns, createdAt } from "./columns";
import { imports } from "./imports";

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
    /** The phone as `phoneKey` (src/features/do-not-call/suppression.ts), filled on insert; what suppression lists are matched by. */
    phoneKey: integer("phone_key"),
    /**
     * Set while an active shared suppression list holds the number (or the phone is no US number): the lead
     * is stored but not listed, reserved or sold; cleared when the number leaves the lists (migration 0018).
     */
    suppressedAt: integer("suppressed_at", { mode: "timestamp_ms" }),
    /**
     * Set while a Do Not Call registry copy that applies to the number holds it (docs/decisions/0084): the
     * national one, or its state's own list. `suppressed_at` is set with it (unsold leads), and a D1 list
     * that lets the number go leaves `suppressed_at` alone while this is set.
     */
    registryListedAt: integer("registry_listed_at", { mode: "timestamp_ms" }),
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
