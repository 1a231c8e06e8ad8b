/**
 * Column helpers every schema file shares (docs/decisions/0073-schema-folder.md): the CHECK over a
 * src/domain enum, the `created_at` column, the consent-evidence columns. No table lives here.
 */
import { type SQL, sql } from "drizzle-orm";
import { type AnySQLiteColumn, integer, text } from "drizzle-orm/sqlite-core";

/** `column IN ('a', 'b', …)` over one of src/domain's enums, for a CHECK constraint (no parameters there). */
export const oneOf = (column: AnySQLiteColumn, values: readonly string[]): SQL =>
  sql`${column} IN (${sql.raw(values.map((value) => `'${value.replaceAll("'", "''")}'`).join(", "))})`;

export const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`);

/** The default of the time columns: now, in epoch milliseconds. */
export const now = () => sql`(unixepoch('subsec') * 1000)`;

/** The six optional consent-evidence columns a lead and a call-back keep (product rule 39). */
export const consentEvidenceColumns = () => ({
  optInAt: integer("opt_in_at", { mode: "timestamp_ms" }),
  optInUrl: text("opt_in_url"),
  consentText: text("consent_text"),
  ipAddress: text("ip_address"),
  trustedFormUrl: text("trusted_form_url"),
  jornayaLeadId: text("jornaya_lead_id"),
});
