/**
 * Bulk CSV mapping (product rules 5, 15, 48): auto-mapping by header text, manual mapping
 * rules, and turning a parsed row into the lead the upload sends. Shared by the browser and the bench.
 */
import { CONSENT_FIELD_LABELS, CONSENT_FIELDS, type ConsentField } from "../consent/index";
import { AGE_RANGES, type AgeRange } from "../orders/index";

export const BULK_BATCH_SIZE = 1000;
export const LEAD_FIELDS = ["name", "email", "phone", "state", "ageRange", "price", "formFillTime"] as const;
export type LeadField = (typeof LEAD_FIELDS)[number];
/** Every column an import maps: the lead's own, then its consent evidence (product rule 39; all optional). */
export const IMPORT_FIELDS = [...LEAD_FIELDS, ...CONSENT_FIELDS] as const;
export type ImportField = LeadField | ConsentField;
/** Column index per field; a field without a column is absent. */
export type FieldMapping = Partial<Record<ImportField, number>>;

/** Auto-mapping must find these (product rule 48); otherwise 'Auto-Mapping Failed' and the review dialog opens. */
export const AUTO_MAP_REQUIRED: readonly LeadField[] = ["name", "email", "phone", "state"];
/** Manual mapping (Confirm Upload) needs these ('Missing Field Mappings'). */
export const MANUAL_MAP_REQUIRED: readonly LeadField[] = ["name", "email", "phone", "state", "ageRange", "price"];
/**
 * What the review dialog records when the admin says a field is not in the file: it counts as mapped,
 * so a file without the optional columns (e-mail, age range, price) can still be uploaded.
 */
export const NOT_IN_FILE = -1;
/** Fields a lead can do without (product rule 5 prices by age; e-mail and the consent evidence are optional). */
export const OPTIONAL_FIELDS: readonly ImportField[] = [
  "email",
  "ageRange",
  "price",
  "formFillTime",
  ...CONSENT_FIELDS,
];

export const FIELD_LABELS: Record<ImportField, string> = {
  name: "Name",
  email: "Email",
  phone: "Phone",
  state: "State",
  ageRange: "Age range",
  price: "Price",
  formFillTime: "Form fill time",
  ...CONSENT_FIELD_LABELS,
};

/** Words in a header name may be joined by spaces, '_' or '-' ('opt_in_time', 'Opt-in time'). */
const SEP = "[\\s_-]*";

/**
 * Header text → field, the first that matches and is still free. The consent columns come first and are
 * narrow, so that 'Consent statement' is not read as the state, nor 'IP address' as an e-mail; a bare
 * 'Lead ID' (many vendors' own row id) is not taken for Jornaya's LeadiD, only 'Jornaya …',
 * 'universal_leadid' (Jornaya's field name) and 'leadid_token' (its input's id).
 */
const HEADER_MATCHERS: [ImportField, RegExp][] = [
  ["trustedFormUrl", new RegExp(`trusted${SEP}form|^tf${SEP}cert`)],
  ["jornayaLeadId", new RegExp(`jornaya|universal${SEP}lead${SEP}id|lead${SEP}id${SEP}token`)],
  ["optInUrl", new RegExp(`opt${SEP}in${SEP}(page|url)|landing${SEP}page|page${SEP}url|consent${SEP}url`)],
  ["optInAt", new RegExp(`opt${SEP}in${SEP}(time|date|at\\b|timestamp)|opted${SEP}in|consent${SEP}(time|date)`)],
  ["consentText", new RegExp(`consent${SEP}(text|language|version|statement)|tcpa${SEP}(text|language|version)`)],
  ["ipAddress", new RegExp(`(^|[^a-z])ip(v[46])?(${SEP}addr|[^a-z]|$)`)],
  ["email", /e-?mail/],
  ["formFillTime", /form\s*fill\s*time/],
  ["ageRange", /age\s*range|age\s*band/],
  ["price", /price/],
  ["phone", /phone/],
  ["state", /state/],
  ["name", /name/],
];

export function autoMapColumns(headers: readonly string[]): FieldMapping {
  const mapping: FieldMapping = {};
  headers.forEach((header, index) => {
    const text = header.trim().toLowerCase();
    const match = HEADER_MATCHERS.find(([field, pattern]) => mapping[field] === undefined && pattern.test(text));
    if (match) mapping[match[0]] = index;
  });
  return mapping;
}

export const missingFields = (mapping: FieldMapping, required: readonly LeadField[]) =>
  required.filter((field) => mapping[field] === undefined);

/**
 * One lead as the bulk upload sends it; `rowNumber` is its line in the file (the header is line 1). A type
 * alias, not an interface, so it fits the upload route's loose row schema in the typed client. Consent
 * cells are sent only when the file has them (a million rows without them stay as small as before).
 */
export type BulkLeadRow = { [Field in ConsentField]?: string } & {
  rowNumber: number;
  name: string;
  email: string;
  phone: string;
  state: string;
  ageRange: string;
  /** Spec-fixed name (bulk lead row): dollars. */
  price: number;
  formFillTime: string;
};

const cell = (row: readonly string[], index: number | undefined) =>
  index === undefined ? "" : (row[index] ?? "").trim();

export function isEmptyRow(row: readonly string[]): boolean {
  return row.every((value) => value.trim() === "");
}

/**
 * A price as typed in a file or a form ('$1,250.00'): one that does not parse becomes 0 (product rule 48), which
 * means "priced by age" (product rule 5). A negative one stays negative, for the lead schema to refuse.
 */
export function parsePrice(text: string): number {
  const price = Number.parseFloat(text.replace(/[$,\s]/g, ""));
  return Number.isFinite(price) ? price : 0;
}

export function mapRow(row: readonly string[], mapping: FieldMapping, rowNumber: number): BulkLeadRow {
  const consent: { [Field in ConsentField]?: string } = {};
  for (const field of CONSENT_FIELDS) {
    const value = cell(row, mapping[field]);
    if (value !== "") consent[field] = value;
  }
  return {
    ...consent,
    rowNumber,
    name: cell(row, mapping.name),
    email: cell(row, mapping.email),
    phone: cell(row, mapping.phone),
    state: cell(row, mapping.state),
    ageRange: cell(row, mapping.ageRange),
    price: parsePrice(cell(row, mapping.price)),
    formFillTime: cell(row, mapping.formFillTime),
  };
}

/** Rows without name, phone or state are discarded (product rule 48). */
export const hasRequiredValues = (lead: Pick<BulkLeadRow, "name" | "phone" | "state">) =>
  lead.name !== "" && lead.phone !== "" && lead.state !== "";

export const isAgeRange = (value: string): value is AgeRange => (AGE_RANGES as readonly string[]).includes(value);

/** 'YYYY-MM-DD HH:MM:SS' (the template's format) or any ISO date; null when it is not a date. */
export function parseFormFillTime(text: string): number | null {
  if (text === "") return null;
  const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(text) ? `${text.replace(" ", "T")}Z` : text;
  const time = Date.parse(iso);
  return Number.isNaN(time) ? null : time;
}

/** The template's file name (its text is `templateCsv` in csv-writer.ts). */
export const TEMPLATE_FILE_NAME = "aged_leads_template_auto_pricing.csv";

/** Rejected rows `GET /api/imports/:id` lists (the first, by row number); the report CSV lists them all. */
export const STATUS_REJECTIONS = 100;
