import { describe, expect, it } from "vitest";
import {
  CERTIFICATE_FILTER_LABEL,
  CERTIFICATE_STATUS_LABELS,
  certificateStatus,
  consentCertificates,
  hasConsentCertificate,
  isPlaceholderCertificate,
  normalizeJornayaLeadId,
  normalizeTrustedFormUrl,
  parseOptInTime,
  SAMPLE_CERTIFICATES,
  trustedFormCertId,
} from "../consent";
import { CONSENT_MESSAGES, consentEvidenceSchema } from "../schemas/consent";

// Not the template's sample values: those are placeholders, never certificates (docs/decisions/0054).
const HEX40 = "4f1c2a9e7b3d5086c1e2f3a4b5c6d7e8f9a0b1c2";
const MOBILE80 = "Ab-_9".repeat(16);
const FACEBOOK =
  "0.YpUzjEEpW3vIkuEJFst4gSDQ7KiFGLZGYkTwIMzRXt8TxcnRUnx3p1U34EWx6KUZ9hyJUuwVm11qoEodrSfsXYDLS7LDFWOyeuCP2MNCHdnAXYkG.IW3iXaUjponmuoB4HNdsWQ.H6cCZ53mOpSXUtUlpdwlWw";
const LEAD_ID = "9C2B7E14-3A5D-4F60-8B1C-2D3E4F5A6B7C";

describe("TrustedForm certificate URLs", () => {
  it.each([
    ["40 hex digits", `https://cert.trustedform.com/${HEX40}`, `https://cert.trustedform.com/${HEX40}`],
    ["an 80-character mobile certificate", `https://cert.trustedform.com/${MOBILE80}`, null],
    ["a Facebook lead-ad certificate (0.…)", `https://cert.trustedform.com/${FACEBOOK}`, null],
    ["http, upgraded to https", `http://cert.trustedform.com/${HEX40}`, `https://cert.trustedform.com/${HEX40}`],
    [
      "a trailing slash and spaces",
      `  https://cert.trustedform.com/${HEX40}/ `,
      `https://cert.trustedform.com/${HEX40}`,
    ],
    ["an upper-case host", `HTTPS://CERT.TRUSTEDFORM.COM/${HEX40}`, `https://cert.trustedform.com/${HEX40}`],
  ])("accepts %s", (_, text, stored) => {
    const normalized = normalizeTrustedFormUrl(text);
    expect(normalized).toBe(stored ?? text);
    // Stored once, read back the same.
    expect(normalizeTrustedFormUrl(normalized ?? "")).toBe(normalized);
  });

  it.each([
    ["39 characters", `https://cert.trustedform.com/${HEX40.slice(1)}`],
    ["41 characters", `https://cert.trustedform.com/${HEX40}8`],
    ["another host", `https://cert.trustedform.com.evil.example/${HEX40}`],
    ["a look-alike host", `https://cert-trustedform.com/${HEX40}`],
    ["the staging host", `https://cert.staging.trustedform.com/${HEX40}`],
    ["a ping URL", `https://ping.trustedform.com/${FACEBOOK}`],
    ["a share link", `https://cert.trustedform.com/${HEX40}?shared_token=abc`],
    ["a path below the id", `https://cert.trustedform.com/${HEX40}/x`],
    ["the bare id", HEX40],
    ["a placeholder", "https://cert.trustedform.com/xxx"],
    ["an ftp URL", `ftp://cert.trustedform.com/${HEX40}`],
    ["a character outside the id's alphabet", `https://cert.trustedform.com/${HEX40.slice(1)}!`],
  ])("refuses %s", (_, text) => {
    expect(normalizeTrustedFormUrl(text)).toBeNull();
  });

  it("gives the certificate id a claim names", () => {
    expect(trustedFormCertId(`http://cert.trustedform.com/${HEX40}/`)).toBe(HEX40);
    expect(trustedFormCertId("https://example.com/")).toBeNull();
  });
});

describe("Jornaya LeadiD tokens", () => {
  it("accepts 8-4-4-4-12 hex digits in either case and stores capitals", () => {
    expect(normalizeJornayaLeadId(LEAD_ID)).toBe(LEAD_ID);
    expect(normalizeJornayaLeadId(` ${LEAD_ID.toLowerCase()} `)).toBe(LEAD_ID);
    // No UUID version is required of a LeadiD.
    expect(normalizeJornayaLeadId("00000000-0000-0000-0000-000000000000")).not.toBeNull();
  });

  it.each([
    ["without dashes", LEAD_ID.replaceAll("-", "")],
    ["with braces", `{${LEAD_ID}}`],
    ["one character short", LEAD_ID.slice(1)],
    ["a letter past F", `${LEAD_ID.slice(0, -1)}G`],
    ["dashes in the wrong places", "6D3E8B1A4-F2C-4B7D-9A1E-3C5F7B9D2E40"],
    ["empty", ""],
  ])("refuses a token %s", (_, text) => {
    expect(normalizeJornayaLeadId(text)).toBeNull();
  });
});

describe("opt-in times", () => {
  it("reads the template's format as UTC, ISO dates with their offset, and epoch milliseconds", () => {
    expect(parseOptInTime("2026-08-01 14:30:00")).toBe(Date.UTC(2026, 7, 1, 14, 30));
    expect(parseOptInTime("2026-08-01 14:30")).toBe(Date.UTC(2026, 7, 1, 14, 30));
    expect(parseOptInTime("2026-08-01T14:30:00Z")).toBe(Date.UTC(2026, 7, 1, 14, 30));
    expect(parseOptInTime("2026-08-01T14:30:00.250Z")).toBe(Date.UTC(2026, 7, 1, 14, 30, 0, 250));
    expect(parseOptInTime("2026-08-01T09:30:00-05:00")).toBe(Date.UTC(2026, 7, 1, 14, 30));
    expect(parseOptInTime("2026-08-01T09:30:00-0500")).toBe(Date.UTC(2026, 7, 1, 14, 30));
    // Without an offset an ISO time is UTC too, whatever the reader's time zone.
    expect(parseOptInTime("2026-08-01T14:30")).toBe(Date.UTC(2026, 7, 1, 14, 30));
    expect(parseOptInTime("2026-08-01")).toBe(Date.UTC(2026, 7, 1));
    expect(parseOptInTime(Date.UTC(2026, 7, 1))).toBe(Date.UTC(2026, 7, 1));
  });

  it.each([
    ["a day that does not exist", "2026-02-30 10:00:00"],
    ["a month that does not exist", "2026-13-01 10:00:00"],
    ["an hour that does not exist", "2026-08-01 25:00:00"],
    ["a US date", "08/01/2026 2:30 PM"],
    ["a bare number as text", "1"],
    ["words", "yesterday"],
    ["a date with trailing words", "2026-08-01 14:30:00 please"],
  ])("refuses %s", (_, text) => {
    expect(parseOptInTime(text)).toBeNull();
  });

  it("refuses a fractional or negative epoch", () => {
    expect(parseOptInTime(1.5)).toBeNull();
    expect(parseOptInTime(-1)).toBeNull();
  });
});

describe("certificates of a lead", () => {
  it("counts a TrustedForm URL or a LeadiD as a certificate", () => {
    expect(hasConsentCertificate({ trustedFormUrl: `https://cert.trustedform.com/${HEX40}` })).toBe(true);
    expect(hasConsentCertificate({ jornayaLeadId: LEAD_ID })).toBe(true);
    expect(hasConsentCertificate({ trustedFormUrl: null, jornayaLeadId: undefined })).toBe(false);
    expect(hasConsentCertificate({})).toBe(false);
  });

  it("lists the well-formed certificates to claim", () => {
    expect(
      consentCertificates({ trustedFormUrl: `http://cert.trustedform.com/${HEX40}`, jornayaLeadId: LEAD_ID }),
    ).toEqual([
      { provider: "trustedform", url: `https://cert.trustedform.com/${HEX40}` },
      { provider: "jornaya", token: LEAD_ID },
    ]);
    expect(consentCertificates({ trustedFormUrl: "https://example.com", jornayaLeadId: "nope" })).toEqual([]);
  });
});

const evidence = {
  optInAt: "2026-08-01 14:30:00",
  optInUrl: "https://example.com/final-expense-quote",
  consentText: "tcpa-consent-v3",
  ipAddress: "2001:DB8::7",
  trustedFormUrl: `http://cert.trustedform.com/${HEX40}/`,
  jornayaLeadId: LEAD_ID.toLowerCase(),
};

describe("the consent evidence schema", () => {
  it("normalizes every field, and its output parses to itself", () => {
    const parsed = consentEvidenceSchema.parse(evidence);
    expect(parsed).toEqual({
      optInAt: Date.UTC(2026, 7, 1, 14, 30),
      optInUrl: "https://example.com/final-expense-quote",
      consentText: "tcpa-consent-v3",
      ipAddress: "2001:db8::7",
      trustedFormUrl: `https://cert.trustedform.com/${HEX40}`,
      jornayaLeadId: LEAD_ID,
    });
    expect(consentEvidenceSchema.parse(parsed)).toEqual(parsed);
  });

  it("treats blank, whitespace and null as not given", () => {
    const blank = Object.fromEntries(Object.keys(evidence).map((field, i) => [field, i % 2 ? "  " : null]));
    expect(consentEvidenceSchema.parse(blank)).toEqual({});
  });

  it("accepts IPv4, IPv6 and IPv4-mapped IPv6 addresses", () => {
    for (const ip of ["203.0.113.7", "::1", "2001:db8:0:0:0:0:0:7", "::ffff:203.0.113.7"]) {
      expect(consentEvidenceSchema.parse({ ipAddress: ip }).ipAddress).toBe(ip);
    }
  });

  it("accepts an opt-in time a little ahead of our clock, not one in the future", () => {
    expect(consentEvidenceSchema.safeParse({ optInAt: Date.now() + 60_000 }).success).toBe(true);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const result = consentEvidenceSchema.safeParse({ optInAt: tomorrow });
    expect(result.success ? "" : result.error.issues[0]?.message).toBe(CONSENT_MESSAGES.optInAtFuture);
  });
});

describe("placeholder certificates (docs/decisions/0054)", () => {
  const SAMPLE_URL = `https://cert.trustedform.com/${SAMPLE_CERTIFICATES.trustedFormId}`;
  const ZERO_URL = `https://cert.trustedform.com/${"0".repeat(40)}`;
  const ZERO_TOKEN = "00000000-0000-0000-0000-000000000000";

  it("knows the template's sample values and one character repeated, in either case", () => {
    for (const url of [SAMPLE_URL, ZERO_URL, `https://cert.trustedform.com/${"a".repeat(80)}`]) {
      expect(isPlaceholderCertificate({ provider: "trustedform", url })).toBe(true);
    }
    for (const token of [
      SAMPLE_CERTIFICATES.jornayaLeadId.toLowerCase(),
      ZERO_TOKEN,
      "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
    ]) {
      expect(isPlaceholderCertificate({ provider: "jornaya", token })).toBe(true);
    }
    expect(isPlaceholderCertificate({ provider: "trustedform", url: `https://cert.trustedform.com/${HEX40}` })).toBe(
      false,
    );
    expect(isPlaceholderCertificate({ provider: "jornaya", token: LEAD_ID })).toBe(false);
  });

  it("never counts a placeholder as a certificate, nor lists it to claim", () => {
    // Before decision 0054 the template's sample id and a zero token made a lead "certified".
    expect(hasConsentCertificate({ trustedFormUrl: SAMPLE_URL, jornayaLeadId: ZERO_TOKEN })).toBe(false);
    expect(consentCertificates({ trustedFormUrl: ZERO_URL, jornayaLeadId: LEAD_ID })).toEqual([
      { provider: "jornaya", token: LEAD_ID },
    ]);
  });

  it("is refused by the lead schema with its own message, not the malformed one", () => {
    const issues = (input: object) => {
      const result = consentEvidenceSchema.safeParse(input);
      return result.success ? [] : result.error.issues.map((issue) => issue.message);
    };
    expect(issues({ trustedFormUrl: `http://cert.trustedform.com/${SAMPLE_CERTIFICATES.trustedFormId}/` })).toEqual([
      CONSENT_MESSAGES.trustedFormPlaceholder,
    ]);
    expect(issues({ trustedFormUrl: ZERO_URL })).toEqual([CONSENT_MESSAGES.trustedFormPlaceholder]);
    expect(issues({ jornayaLeadId: ZERO_TOKEN })).toEqual([CONSENT_MESSAGES.jornayaPlaceholder]);
    expect(issues({ jornayaLeadId: SAMPLE_CERTIFICATES.jornayaLeadId })).toEqual([CONSENT_MESSAGES.jornayaPlaceholder]);
    expect(issues({ jornayaLeadId: "0000" })).toEqual([CONSENT_MESSAGES.jornayaLeadId]);
  });
});

describe("a certificate's status", () => {
  it("is on file but not verified until a claim answers, in one wording", () => {
    expect(certificateStatus(false, null)).toBe("none");
    expect(certificateStatus(true, null)).toBe("unverified");
    expect(certificateStatus(true, "verified")).toBe("verified");
    expect(certificateStatus(false, "verified")).toBe("none");
    expect(CERTIFICATE_STATUS_LABELS.unverified).toBe("Certificate on file, not verified");
    expect(CERTIFICATE_FILTER_LABEL).toContain(CERTIFICATE_STATUS_LABELS.unverified);
  });
});
