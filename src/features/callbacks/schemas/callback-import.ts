/**
 * Call-backs and appointments by CSV (docs/decisions/0069): the columns an admin's file maps, and one row
 * checked by the admin form's own schema (`callbackOpportunitySchema`: the spec's fields, the kind, the
 * window in the prospect's local time, the optional zone and the consent evidence), plus the ZIP (the
 * prospect's zone, decision 0064) and an opt-in time, which a file must give as a partner must.
 */

import { blankAsMissing } from "../../../domain/schemas/common";
import { z } from "../../../domain/schemas/zod";
import { CONSENT_FIELD_LABELS, CONSENT_FIELDS } from "../../consent/index";
import { type CallbackOpportunity, callbackOpportunitySchema } from "./callback-opportunity";

/**
 * Rows per batch of a call-back file: each row is taken in on its own (scrubbed, then placed), about 35 D1
 * queries at most, so one batch stays within an invocation's 1,000 (worker/features/callbacks/callback-imports.ts).
 */
export const CALLBACK_IMPORT_BATCH_SIZE = 25;

export const CALLBACK_IMPORT_FIELDS = [
  "name",
  "email",
  "phone",
  "state",
  "price",
  "zip",
  "kind",
  "date",
  "from",
  "to",
  "timeZone",
  ...CONSENT_FIELDS,
] as const;
export type CallbackImportField = (typeof CALLBACK_IMPORT_FIELDS)[number];

/** The columns a call-back file must have (the rest may be left out). */
export const CALLBACK_IMPORT_REQUIRED: readonly CallbackImportField[] = [
  "name",
  "email",
  "phone",
  "state",
  "price",
  "date",
  "from",
  "optInAt",
];

/** Header texts (lower case, letters and digits only) each field is found under. */
const HEADER_NAMES: Record<CallbackImportField, readonly string[]> = {
  name: ["name", "fullname", "prospect", "prospectname"],
  email: ["email", "emailaddress"],
  phone: ["phone", "phonenumber", "telephone"],
  state: ["state"],
  price: ["price", "pricecents", "priceusd"],
  zip: ["zip", "zipcode", "postalcode"],
  kind: ["kind", "type"],
  date: ["date", "windowdate", "appointmentdate", "callbackdate"],
  from: ["from", "windowfrom", "start", "time", "appointmenttime"],
  to: ["to", "windowto", "end", "until"],
  timeZone: ["timezone", "tz", "zone"],
  optInAt: ["optinat", "optintime", "optin"],
  optInUrl: ["optinurl", "optinpage", "optinpageurl"],
  consentText: ["consenttext", "consent", "consenttextorversion"],
  ipAddress: ["ipaddress", "ip"],
  trustedFormUrl: ["trustedformurl", "trustedform", "trustedformcertificateurl"],
  jornayaLeadId: ["jornayaleadid", "jornaya", "jornayaid", "leadid"],
};

const headerKey = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, "");

/** The column of each field found by its header (the consent fields also under their form labels). */
export function mapCallbackHeaders(headers: readonly string[]): Partial<Record<CallbackImportField, number>> {
  const keys = headers.map(headerKey);
  const mapping: Partial<Record<CallbackImportField, number>> = {};
  for (const field of CALLBACK_IMPORT_FIELDS) {
    const label = (CONSENT_FIELD_LABELS as Partial<Record<string, string>>)[field];
    const names = [...HEADER_NAMES[field], ...(label ? [headerKey(label)] : [])];
    const column = keys.findIndex((key) => names.includes(key));
    if (column >= 0) mapping[field] = column;
  }
  return mapping;
}

const CALLBACK_IMPORT_MESSAGES = {
  zip: "ZIP must be a 5-digit ZIP code",
  optInAt: "Opt-in time is required: a call-back is taken only with the prospect's recorded consent",
} as const;

const rowExtras = z.object({
  zip: z.preprocess(
    blankAsMissing,
    z
      .string({ error: CALLBACK_IMPORT_MESSAGES.zip })
      .trim()
      .regex(/^\d{5}(-\d{4})?$/, CALLBACK_IMPORT_MESSAGES.zip)
      .optional(),
  ),
});

/** A row as the consumer takes it in: the form's call-back, its ZIP and its row number. */
export type CallbackImportRow = CallbackOpportunity & { zip?: string | undefined; rowNumber: number };

/** A CSV row of call-backs: the call-back, or the first reason it is refused (for the import report). */
export function checkCallbackRow(
  row: unknown,
): { callback: Omit<CallbackImportRow, "rowNumber"> } | { reason: string } {
  const extras = rowExtras.safeParse(row);
  if (!extras.success) return { reason: extras.error.issues[0]?.message ?? CALLBACK_IMPORT_MESSAGES.zip };
  const result = callbackOpportunitySchema.safeParse(row);
  if (!result.success) return { reason: result.error.issues[0]?.message ?? "Invalid call-back" };
  if (result.data.optInAt === undefined) return { reason: CALLBACK_IMPORT_MESSAGES.optInAt };
  return { callback: { ...result.data, zip: extras.data.zip } };
}
