/**
 * Consent evidence carried by every lead and transfer (product rule 39): the formats of a
 * TrustedForm certificate URL and a Jornaya LeadiD token, and what counts as "with certificate". Pure and
 * zod-free, so a list or a consent view can use it without loading zod; the schema is schemas/consent.ts.
 */

/** The consent fields of a lead or transfer, in the order the template, the mapping and the consent view use. */
export const CONSENT_FIELDS = [
  "optInAt",
  "optInUrl",
  "consentText",
  "ipAddress",
  "trustedFormUrl",
  "jornayaLeadId",
] as const;
export type ConsentField = (typeof CONSENT_FIELDS)[number];

export const CONSENT_FIELD_LABELS: Record<ConsentField, string> = {
  optInAt: "Opt-in time",
  optInUrl: "Opt-in page URL",
  consentText: "Consent text or version",
  ipAddress: "IP address",
  trustedFormUrl: "TrustedForm certificate URL",
  jornayaLeadId: "Jornaya LeadiD",
};

/** What a consent field may hold. */
export const CONSENT_LIMITS = {
  urlLength: 2000,
  /** The consent language shown to the person, or the id of its version. */
  consentTextLength: 2000,
  /** A clock this far ahead of ours still gives a believable opt-in time. */
  clockSkewMs: 5 * 60_000,
} as const;

/**
 * A TrustedForm certificate URL as ActiveProspect's own integration accepts it: `cert.trustedform.com/`
 * and the certificate id, 40 characters (originally 40 lowercase hex digits) or 80 (mobile certificates),
 * letters, digits, '-' and '_'; or a Facebook lead-ad certificate, whose id starts with '0.'. Staging and
 * development hosts, share links (`?shared_token=…`) and ping URLs (`ping.trustedform.com`) are not
 * certificates a buyer can claim.
 */
const TRUSTEDFORM_CERT_URL =
  /^https?:\/\/cert\.trustedform\.com\/([-_a-zA-Z0-9]{40}|[-_a-zA-Z0-9]{80}|0\.[-_a-zA-Z0-9.]{20,500})\/?$/i;

export const TRUSTEDFORM_CERT_HOST = "https://cert.trustedform.com/";

/**
 * The certificate URL as it is stored, or null when the text is not one: `http://` becomes `https://` and a
 * trailing slash goes (as TrustedForm's own integration does before claiming); the id keeps its case.
 */
export function normalizeTrustedFormUrl(text: string): string | null {
  const match = TRUSTEDFORM_CERT_URL.exec(text.trim());
  return match?.[1] ? `${TRUSTEDFORM_CERT_HOST}${match[1]}` : null;
}

/** The certificate id of a stored certificate URL (what a claim names), or null. */
export function trustedFormCertId(url: string): string | null {
  const normalized = normalizeTrustedFormUrl(url);
  return normalized ? normalized.slice(TRUSTEDFORM_CERT_HOST.length) : null;
}

/**
 * A Jornaya LeadiD (Universal LeadiD) token: 36 characters, hex digits in groups of 8-4-4-4-12 (Jornaya's
 * documentation: "XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX"). No UUID version is required of it.
 */
const JORNAYA_LEAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The token in capitals (as Jornaya's script writes it), or null when the text is not one. */
export function normalizeJornayaLeadId(text: string): string | null {
  const token = text.trim();
  return JORNAYA_LEAD_ID.test(token) ? token.toUpperCase() : null;
}

/**
 * The partner API's 400 when an admin has set the partner to send a TrustedForm certificate with every ping
 * (`partners.require_trusted_form`, decision 0041) and a ping comes without one.
 */
export const TRUSTED_FORM_REQUIRED =
  "consent.trustedFormUrl is required: the shop requires a TrustedForm certificate with every ping from your account.";

/** The certificate fields of a lead or transfer as stored (absent = null or undefined). */
export interface CertificateEvidence {
  trustedFormUrl?: string | null | undefined;
  jornayaLeadId?: string | null | undefined;
}

/**
 * The template's sample certificate values (src/domain/csv-writer.ts and the partner API's examples use
 * these): a file or ping that still carries them was copied, not captured (docs/decisions/0054).
 */
export const SAMPLE_CERTIFICATES = {
  trustedFormId: "0123456789abcdef0123456789abcdef01234567",
  jornayaLeadId: "6D3E8B1A-4F2C-4B7D-9A1E-3C5F7B9D2E40",
} as const;

/** One character over and over (all zeros, all 'x'…), dashes and underscores aside: a placeholder. */
const oneCharacterRepeated = (text: string) => new Set(text.replace(/[-_.]/g, "").toLowerCase()).size <= 1;

/**
 * Whether a well-formed certificate value is a placeholder, not a real certificate: the template's sample
 * value, or one character repeated (a Jornaya token of zeros, a TrustedForm id of zeros). Refused at upload,
 * and never counted as a certificate (docs/decisions/0054).
 */
export function isPlaceholderCertificate(certificate: ConsentCertificate): boolean {
  if (certificate.provider === "jornaya") {
    return (
      certificate.token.toUpperCase() === SAMPLE_CERTIFICATES.jornayaLeadId || oneCharacterRepeated(certificate.token)
    );
  }
  const id = certificate.url.slice(TRUSTEDFORM_CERT_HOST.length).replace(/^0\./, "");
  return id.toLowerCase() === SAMPLE_CERTIFICATES.trustedFormId || oneCharacterRepeated(id);
}

/**
 * "With certificate" (the marketplace filter, the import report's count, the partner API's requirement):
 * a well-formed TrustedForm certificate or Jornaya LeadiD that is no placeholder is on file. On file is not
 * verified: `certificateStatus` says which.
 */
export function hasConsentCertificate(evidence: CertificateEvidence): boolean {
  return consentCertificates(evidence).length > 0;
}

/** What a claim with the issuer found, as stored beside the lead (`aged_leads.certificate_check`). */
export const CERTIFICATE_CHECKS = ["verified", "expired", "not_found"] as const;
export type CertificateCheck = (typeof CERTIFICATE_CHECKS)[number];

/**
 * A lead's certificate as a buyer is told of it: none, on file but not verified (no claim provider is set
 * up, or its claim has not run), or what the issuer answered.
 */
export const CERTIFICATE_STATUSES = ["none", "unverified", ...CERTIFICATE_CHECKS] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];

/** The one wording of each status: the marketplace, its filter, the consent record, both CSVs. */
export const CERTIFICATE_STATUS_LABELS: Record<CertificateStatus, string> = {
  none: "No certificate",
  unverified: "Certificate on file, not verified",
  verified: "Certificate verified",
  expired: "Certificate expired",
  not_found: "Certificate not found",
};

/** The marketplace filter's label, in the same words as a listed lead's status. */
export const CERTIFICATE_FILTER_LABEL = `Only: ${CERTIFICATE_STATUS_LABELS.unverified} (TrustedForm or Jornaya)`;

/** A lead's status from whether a certificate is on file and what its claim found (null: not checked). */
export function certificateStatus(onFile: boolean, check: CertificateCheck | null | undefined): CertificateStatus {
  if (!onFile) return "none";
  return check ?? "unverified";
}

/** A certificate a buyer (or the shop) can claim from its issuer. */
export type ConsentCertificate = { provider: "trustedform"; url: string } | { provider: "jornaya"; token: string };

/** The certificates a lead or transfer carries, each well-formed (a malformed one or a placeholder is left out). */
export function consentCertificates(evidence: CertificateEvidence): ConsentCertificate[] {
  const certificates: ConsentCertificate[] = [];
  const url = evidence.trustedFormUrl ? normalizeTrustedFormUrl(evidence.trustedFormUrl) : null;
  if (url) certificates.push({ provider: "trustedform", url });
  const token = evidence.jornayaLeadId ? normalizeJornayaLeadId(evidence.jornayaLeadId) : null;
  if (token) certificates.push({ provider: "jornaya", token });
  return certificates.filter((certificate) => !isPlaceholderCertificate(certificate));
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,3})?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An opt-in time as a file or a form gives it: 'YYYY-MM-DD HH:MM[:SS]' (UTC, the template's format), an ISO
 * 8601 date-time (with its offset; without one it is UTC, in the browser as on the server), or epoch
 * milliseconds. Stricter than a form fill time: evidence needs a real calendar date and time, so anything
 * else is refused (null) rather than guessed.
 */
export function parseOptInTime(value: string | number): number | null {
  if (typeof value === "number") return Number.isSafeInteger(value) && value >= 0 ? value : null;
  const match = DATE_TIME.exec(value.trim());
  if (!match) return null;
  const [, year, month, day, hour = "00", minute = "00", second = "00", fraction = "", zone = "Z"] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  // Date.parse would roll 2026-02-30 over to March 2.
  if (date.getUTCMonth() !== Number(month) - 1 || date.getUTCDate() !== Number(day)) return null;
  const offset = zone.toUpperCase() === "Z" ? "Z" : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const time = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}${fraction}${offset}`);
  return Number.isNaN(time) ? null : time;
}

/** A ping's consent evidence as a transfer stores it (the schema has checked each format; product rule 39). */
export function storedConsent(consent: {
  optInUrl: string;
  trustedFormUrl?: string;
  jornayaLeadId?: string;
  consentText?: string;
  ipAddress?: string;
}) {
  return {
    optInUrl: consent.optInUrl,
    trustedFormUrl: consent.trustedFormUrl ?? null,
    jornayaLeadId: consent.jornayaLeadId ?? null,
    consentText: consent.consentText || null,
    ipAddress: consent.ipAddress ?? null,
  };
}
