/**
 * The one CSV writer (papaparse's `unparse`), for every CSV the shop hands out: the My Leads export, the
 * import report and the upload template. Cells that a spreadsheet would run as a formula are escaped.
 * It pulls in papaparse: the browser loads this module only when it writes a file.
 */
import Papa from "papaparse";
import { SAMPLE_CERTIFICATES, TRUSTEDFORM_CERT_HOST } from "../features/consent/consent";
import { AGED_LEAD_PRICING_RULE } from "../features/orders/pricing";

/**
 * A cell that starts with = + - @, a tab or a carriage return is a formula to Excel and LibreOffice
 * (OWASP "CSV injection"); the writer prefixes it with ' and quotes it. Papa's own `escapeFormulae: true`
 * pattern (/^[=+\-@\t\r].*$/) misses such a cell when it holds a line break, so the shop passes its own.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvCell = string | number | null | undefined;

/**
 * Rows as CSV lines joined by CRLF (no trailing line break). `quotes`: quote every cell (true), only where
 * CSV needs it (false, the default), or per column.
 */
export function csvLines(rows: readonly (readonly CsvCell[])[], quotes: boolean | boolean[] = false): string {
  return Papa.unparse(rows as CsvCell[][], { escapeFormulae: FORMULA_START, quotes, newline: "\r\n" });
}

/**
 * The downloadable template: the spec's columns, the optional consent evidence (product rule 39), two examples (one
 * with a TrustedForm certificate and a Jornaya LeadiD, one without any evidence), and the price rule (product rule 5) in a
 * column the upload ignores. Its headers are the ones auto-mapping reads (csv-mapping.ts).
 */
export function templateCsv(): string {
  const rows = [
    [
      "Name",
      "Phone",
      "State",
      "Form fill time (optional, YYYY-MM-DD HH:MM:SS)",
      "Email (optional)",
      "Opt-in time (optional, YYYY-MM-DD HH:MM:SS)",
      "Opt-in page URL (optional)",
      "Consent text or version (optional)",
      "IP address (optional)",
      "TrustedForm certificate URL (optional)",
      "Jornaya LeadiD (optional)",
      "Automatic pricing (not uploaded)",
    ],
    [
      "Mary Johnson",
      "2145550101",
      "TX",
      "2026-08-01 14:30:00",
      "mary@example.com",
      "2026-08-01 14:30:00",
      "https://example.com/final-expense-quote",
      "tcpa-consent-v3",
      "203.0.113.7",
      // The sample values: refused if uploaded as they are (docs/decisions/0054).
      `${TRUSTEDFORM_CERT_HOST}${SAMPLE_CERTIFICATES.trustedFormId}`,
      SAMPLE_CERTIFICATES.jornayaLeadId,
      AGED_LEAD_PRICING_RULE,
    ],
    [
      "James Brown",
      "3055550102",
      "FL",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      "Without a form fill time the age range decides; without either, 30-60",
    ],
  ];
  return `${csvLines(rows, true)}\r\n`;
}
