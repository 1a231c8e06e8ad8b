/**
 * What a buyer sees of the consent evidence of a lead or transfer they bought (product rule 39):
 * the summary a list row and a CSV export show, and the whole "Consent record" of one lead or transfer.
 * Pure and zod-free: the Worker builds these, the dashboard reads them.
 */
import { CERTIFICATE_STATUS_LABELS, type CertificateStatus, CONSENT_FIELD_LABELS, CONSENT_FIELDS } from "./consent.ts";

/**
 * The consent evidence of a bought lead or transfer as a buyer receives it: the same object in a My Leads
 * or Lead Tracker row, the cells of both CSV exports (`consentCsvCells`) and the `consent` of the
 * `lead.purchased` webhook (docs/decisions/0054).
 */
export interface ConsentSummary {
  /** ISO 8601 (UTC), or null when none was given. */
  optInAt: string | null;
  optInUrl: string | null;
  consentText: string | null;
  /** Null when none was given, or while a transfer's contact is masked. */
  ipAddress: string | null;
  /** Null when none was given, or while a transfer's contact is masked (then only `certificate` says). */
  trustedFormUrl: string | null;
  jornayaLeadId: string | null;
  /** Whether a certificate is on file and what its claim found (CERTIFICATE_STATUS_LABELS words it). */
  certificate: CertificateStatus;
}

/** The stored evidence, as the database holds it (opt-in time in epoch ms). */
export interface StoredConsent {
  optInAt: number | null;
  optInUrl: string | null;
  consentText: string | null;
  ipAddress: string | null;
  trustedFormUrl: string | null;
  jornayaLeadId: string | null;
}

/** One suppression list a sale or routed transfer was checked against, as the check recorded it. */
export interface SuppressionCheckView {
  listName: string;
  /** One of SUPPRESSION_LIST_KINDS (suppression.ts); null when the list is unknown. */
  kind: string | null;
  /** The list's "refreshed on" day (YYYY-MM-DD) at the time of the check. */
  refreshedOn: string | null;
  /** Epoch ms. */
  checkedAt: number;
}

/** A certificate and what claiming it can do here (consent-certificates.ts: not set up for now). */
interface CertificateView {
  provider: "trustedform" | "jornaya";
  /** The TrustedForm URL or the LeadiD token. */
  value: string;
  /** Why it was not claimed (e.g. claiming is not set up), or null once a claimer is configured. */
  claimNote: string | null;
}

/** The "Consent record" of one purchased lead or delivered transfer: everything stored, and the checks. */
export interface ConsentRecord {
  kind: "aged_lead" | "transfer";
  id: string;
  orderId: string;
  name: string;
  phone: string;
  state: string;
  /** Epoch ms the lead was sold to the buyer, or the transfer routed to them. */
  deliveredAt: number;
  evidence: StoredConsent;
  certificate: CertificateStatus;
  /**
   * False while a transfer's contact is masked (the call never connected, so it was not paid for): the IP
   * address, the certificate URL and the LeadiD are then withheld, and only `certificate` says whether one exists.
   */
  evidenceShown: boolean;
  certificates: CertificateView[];
  /** The lists checked before the sale or routing; null when no check was recorded. */
  suppressionChecks: SuppressionCheckView[] | null;
}

export const NO_SUPPRESSION_CHECK = "No suppression check recorded";
export const EVIDENCE_MASKED =
  "The IP address and the certificate are shown once the call connects: until then the prospect is masked.";

/** ISO 8601 of an epoch-ms time, or null. */
const isoOrNull = (time: number | Date | null | undefined) =>
  time === null || time === undefined ? null : new Date(time).toISOString();

/**
 * The one builder of a buyer's consent object from stored evidence; `shown` false withholds the IP address
 * and the certificate values (not whether one exists).
 */
export function consentSummary(
  evidence: Omit<StoredConsent, "optInAt"> & { optInAt: number | Date | null },
  certificate: CertificateStatus,
  shown = true,
): ConsentSummary {
  return {
    optInAt: isoOrNull(evidence.optInAt),
    optInUrl: evidence.optInUrl,
    consentText: evidence.consentText,
    ipAddress: shown ? evidence.ipAddress : null,
    trustedFormUrl: shown ? evidence.trustedFormUrl : null,
    jornayaLeadId: shown ? evidence.jornayaLeadId : null,
    certificate,
  };
}

/** The consent columns of both CSV exports (My Leads, the Lead Tracker), in CONSENT_FIELDS order. */
export const CONSENT_CSV_HEADER = [
  `${CONSENT_FIELD_LABELS.optInAt} (UTC)`,
  ...CONSENT_FIELDS.slice(1).map((field) => CONSENT_FIELD_LABELS[field]),
  "Certificate",
];

/** One row's consent cells for CONSENT_CSV_HEADER, from its consent object; withheld values are blank. */
export function consentCsvCells(consent: ConsentSummary): string[] {
  return [...CONSENT_FIELDS.map((field) => consent[field] ?? ""), CERTIFICATE_STATUS_LABELS[consent.certificate]];
}
