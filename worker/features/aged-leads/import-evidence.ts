/**
 * The consent part of the import consumer's insert (decision 0041). A batch's rows are one
 * JSON parameter; a row leaves out the fields it does not have. A batch without any consent evidence (most
 * files) is inserted without reading the six evidence fields, as fast as before they existed (measured: six
 * more json_extract a row cost about 12 % of the insert); a batch with some reads them for every row.
 */
import { CONSENT_FIELDS, type ConsentField } from "../../../src/features/consent/index";

const EVIDENCE_COLUMNS: Record<ConsentField, string> = {
  optInAt: "opt_in_at",
  optInUrl: "opt_in_url",
  consentText: "consent_text",
  ipAddress: "ip_address",
  trustedFormUrl: "trusted_form_url",
  jornayaLeadId: "jornaya_lead_id",
};

/** Whether any row of the batch's JSON carries a consent field (absent ones are not written). */
const carriesEvidence = (rows: string) => CONSENT_FIELDS.some((field) => rows.includes(`"${field}":`));

/**
 * The insert's consent columns, their values and its row source over `json_each(?rowsParam)`. A lead
 * without a certificate of an upload that sells only certified leads is stored withheld; the import's
 * setting (?importParam) is an uncorrelated sub-select, read once per statement.
 */
export function evidenceInsert(rows: string, importParam: string, rowsParam: string) {
  const required = `(SELECT certificate_required FROM imports WHERE id = ${importParam})`;
  if (!carriesEvidence(rows)) {
    return { columns: "certified, withheld", values: `0, ${required}`, from: `json_each(${rowsParam})` };
  }
  const fields = CONSENT_FIELDS.map((field) => `json_extract(value, '$.${field}')`);
  return {
    columns: `${CONSENT_FIELDS.map((field) => EVIDENCE_COLUMNS[field]).join(", ")}, certified, withheld`,
    values: `${fields.join(", ")}, c.certified, CASE WHEN c.certified = 0 AND ${required} = 1 THEN 1 ELSE 0 END`,
    from: `(SELECT value, coalesce(json_extract(value, '$.certified'), 0) AS certified FROM json_each(${rowsParam})) AS c`,
  };
}
