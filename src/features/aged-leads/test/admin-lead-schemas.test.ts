import { describe, expect, it } from "vitest";
import { callbackOpportunitySchema } from "../../callbacks/schemas/callback-opportunity";
import { CONSENT_FIELDS } from "../../consent/consent";
import { CONSENT_MESSAGES } from "../../consent/schemas/consent";
import { mapRow } from "../csv-mapping";
import { LEAD_LIMITS } from "../leads";
import { adminAgedLeadSchema, checkLeadRow, LEAD_MESSAGES } from "../schemas/admin-leads";

const form = { name: "Ann", phone: "2145550100", state: "TX" };
/** The consent inputs of the single form, left blank. */
const noConsent = Object.fromEntries(CONSENT_FIELDS.map((field) => [field, ""]));

/** A lead as the single form sends it (strings from inputs; the datetime-local value as an ISO instant). */
const formLead = (overrides: Record<string, unknown> = {}) => ({
  ...form,
  email: "",
  ageRange: "",
  price: "",
  formFillTime: "",
  ...noConsent,
  ...overrides,
});
/**
 * The same lead as a CSV row mapped by the browser (columns Name, Email, Phone, State, Age range, Price,
 * Form fill time, then the consent fields).
 */
const csvLead = (overrides: Record<string, string> = {}) => {
  const cells = { name: "Ann", email: "", phone: "2145550100", state: "TX", ageRange: "", price: "", formFillTime: "" };
  const values: Record<string, string> = { ...cells, ...noConsent, ...overrides };
  const columns = [...Object.keys(cells), ...CONSENT_FIELDS];
  const mapping = Object.fromEntries(columns.map((field, index) => [field, index]));
  return mapRow(
    columns.map((field) => values[field] ?? ""),
    mapping,
    2,
  );
};

const CERT = "https://cert.trustedform.com/4f1c2a9e7b3d5086c1e2f3a4b5c6d7e8f9a0b1c2";
const LEAD_ID = "9C2B7E14-3A5D-4F60-8B1C-2D3E4F5A6B7C";

const formMessage = (input: unknown) => {
  const result = adminAgedLeadSchema.safeParse(input);
  return result.success ? "" : result.error.issues[0]?.message;
};
const csvMessage = (input: unknown) => {
  const checked = checkLeadRow(input);
  return "reason" in checked ? checked.reason : "";
};

describe("admin aged-lead form schema", () => {
  it("treats blank optional fields as not given", () => {
    expect(adminAgedLeadSchema.parse(formLead())).toEqual(form);
  });
  it("reads a typed price and refuses a negative one", () => {
    expect(adminAgedLeadSchema.parse({ ...form, price: "7.5" }).price).toBe(7.5);
    expect(adminAgedLeadSchema.safeParse({ ...form, price: "-1" }).success).toBe(false);
  });
  it("gives the form fill time as epoch milliseconds, and its own output parses to itself", () => {
    const parsed = adminAgedLeadSchema.parse(formLead({ formFillTime: "2026-08-01T14:30:00.000Z", price: "4.50" }));
    expect(parsed.formFillTime).toBe(Date.UTC(2026, 7, 1, 14, 30));
    expect(adminAgedLeadSchema.parse(parsed)).toEqual(parsed);
  });
});

describe("one lead schema for the single form and CSV rows", () => {
  const cases: [string, Record<string, string>, string][] = [
    ["a missing name", { name: "" }, LEAD_MESSAGES.name],
    ["a phone of fewer than 10 digits, however long its text", { phone: "(214) 555-01" }, LEAD_MESSAGES.phone],
    ["a phone of letters", { phone: "call me maybe" }, LEAD_MESSAGES.phone],
    ["a one-letter state", { state: "T" }, LEAD_MESSAGES.state],
    ["an e-mail without a domain", { email: "ann@example" }, LEAD_MESSAGES.email],
    ["an e-mail with a space", { email: "ann smith@example.com" }, LEAD_MESSAGES.email],
    ["an unknown age range", { ageRange: "45" }, LEAD_MESSAGES.ageRange],
    ["a negative price", { price: "-3" }, LEAD_MESSAGES.price],
    ["a price in fractions of a cent", { price: "4.505" }, LEAD_MESSAGES.priceCents],
    ["a form fill time that is not a date", { formFillTime: "yesterday-ish" }, LEAD_MESSAGES.formFillTime],
    ["a name that is too long", { name: "A".repeat(LEAD_LIMITS.nameLength + 1) }, LEAD_MESSAGES.nameLength],
    // The consent evidence (product rule 39).
    ["an opt-in time that is not a date", { optInAt: "last tuesday" }, CONSENT_MESSAGES.optInAt],
    ["an opt-in time on a day that does not exist", { optInAt: "2026-02-30 10:00:00" }, CONSENT_MESSAGES.optInAt],
    ["an opt-in time in the future", { optInAt: "2099-01-01 10:00:00" }, CONSENT_MESSAGES.optInAtFuture],
    ["an opt-in page without a scheme", { optInUrl: "example.com/quote" }, CONSENT_MESSAGES.optInUrl],
    ["an opt-in page on a script URL", { optInUrl: "javascript:alert(1)" }, CONSENT_MESSAGES.optInUrl],
    ["an opt-in page without a domain", { optInUrl: "http://localhost/quote" }, CONSENT_MESSAGES.optInUrl],
    [
      "a too-long opt-in page",
      { optInUrl: `https://example.com/${"a".repeat(2000)}` },
      CONSENT_MESSAGES.optInUrlLength,
    ],
    ["consent text that is too long", { consentText: "x".repeat(2001) }, CONSENT_MESSAGES.consentText],
    ["an IPv4 address out of range", { ipAddress: "256.1.1.1" }, CONSENT_MESSAGES.ipAddress],
    ["an IPv4 address with three parts", { ipAddress: "203.0.113" }, CONSENT_MESSAGES.ipAddress],
    ["an IPv6 address with a zone", { ipAddress: "fe80::1%eth0" }, CONSENT_MESSAGES.ipAddress],
    ["a host name as the IP", { ipAddress: "example.com" }, CONSENT_MESSAGES.ipAddress],
    [
      "a TrustedForm URL of another host",
      { trustedFormUrl: CERT.replace("cert.", "") },
      CONSENT_MESSAGES.trustedFormUrl,
    ],
    [
      "a TrustedForm placeholder",
      { trustedFormUrl: "https://cert.trustedform.com/xxx" },
      CONSENT_MESSAGES.trustedFormUrl,
    ],
    ["a LeadiD without dashes", { jornayaLeadId: LEAD_ID.replaceAll("-", "") }, CONSENT_MESSAGES.jornayaLeadId],
  ];
  it.each(cases)("refuses %s with the same message both ways", (_, change, message) => {
    expect(formMessage(formLead(change))).toBe(message);
    expect(csvMessage(csvLead(change))).toBe(message);
  });

  it("stores the same normalized consent evidence both ways", () => {
    const evidence = {
      optInAt: "2026-08-01 14:30:00",
      optInUrl: "https://example.com/quote",
      consentText: "tcpa-consent-v3",
      ipAddress: "2001:DB8::7",
      trustedFormUrl: `${CERT.replace("https:", "http:")}/`,
      jornayaLeadId: LEAD_ID.toLowerCase(),
    };
    const stored = {
      optInAt: Date.UTC(2026, 7, 1, 14, 30),
      optInUrl: "https://example.com/quote",
      consentText: "tcpa-consent-v3",
      ipAddress: "2001:db8::7",
      trustedFormUrl: CERT,
      jornayaLeadId: LEAD_ID,
    };
    const fromForm = adminAgedLeadSchema.parse(formLead(evidence));
    expect(fromForm).toMatchObject(stored);
    expect(adminAgedLeadSchema.parse(fromForm)).toEqual(fromForm);
    const checked = checkLeadRow(csvLead(evidence));
    expect("lead" in checked && checked.lead).toMatchObject(stored);
  });

  it("sends and stores no consent fields for a lead without evidence", () => {
    expect(Object.keys(csvLead()).filter((key) => (CONSENT_FIELDS as readonly string[]).includes(key))).toEqual([]);
    const checked = checkLeadRow(csvLead());
    expect("lead" in checked && CONSENT_FIELDS.filter((field) => field in checked.lead)).toEqual([]);
  });

  it("accepts the same formatted phone and e-mail both ways", () => {
    const change = { phone: "+1 (214) 555-0100", email: "ann.lee+leads@example.com" };
    expect(adminAgedLeadSchema.parse(formLead(change))).toMatchObject(change);
    const checked = checkLeadRow(csvLead(change));
    expect("lead" in checked && checked.lead).toMatchObject(change);
  });

  it("reads a CSV row's price and template time, and a price that does not parse as priced by age", () => {
    const checked = checkLeadRow(
      csvLead({ price: "$1,250.00", formFillTime: "2026-08-01 14:30:00", ageRange: "60-90" }),
    );
    expect("lead" in checked && checked.lead).toMatchObject({
      price: 1250,
      formFillTime: Date.UTC(2026, 7, 1, 14, 30),
      ageRange: "60-90",
    });
    const unparsed = checkLeadRow({ name: "Ann", phone: 2145550100, state: "TX", price: "abc", actualAge: 3 });
    expect("lead" in unparsed && unparsed.lead).toMatchObject({ phone: "2145550100", price: 0 });
  });
});

describe("callback opportunity schema (docs/decisions/0059)", () => {
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  /** The callbacks tab's inputs: strings, blanks for what was left out. */
  const callback = (overrides: Record<string, unknown> = {}) => ({
    ...form,
    email: "a@example.com",
    price: "15",
    kind: "callback",
    date: tomorrow,
    from: "10:00",
    to: "12:00",
    timeZone: "",
    ...noConsent,
    ...overrides,
  });
  const firstMessage = (input: unknown) => {
    const result = callbackOpportunitySchema.safeParse(input);
    return result.success ? "" : result.error.issues[0]?.message;
  };

  it("requires a price", () => expect(firstMessage(callback({ price: "" }))).toBe("Price is required"));

  it("reads the form's strings; its output parses to itself (the form sends it on to the API)", () => {
    const output = callbackOpportunitySchema.parse(callback({ phone: "(214) 555-0100", state: "tx" }));
    expect(output).toMatchObject({
      phone: "2145550100",
      state: "TX",
      price: 15,
      kind: "callback",
      timeZone: undefined,
    });
    expect(callbackOpportunitySchema.parse(output)).toEqual(output);
  });

  it("takes an appointment without To, and refuses a call-back without it", () => {
    expect(firstMessage(callback({ kind: "appointment", to: "" }))).toBe("");
    expect(firstMessage(callback({ to: "" }))).toBe("To is required for a call-back (an appointment takes From only)");
  });

  it.each([
    [{ to: "09:00" }, "To must be a time after From"],
    [{ date: "2020-01-01" }, "Date, From and To: The window has already passed"],
    [{ timeZone: "Europe/Paris" }, "Time zone must be one of"],
    [{ state: "ZZ" }, "State must be a two-letter US state code"],
    [{ ipAddress: "999.1.1.1" }, CONSENT_MESSAGES.ipAddress],
  ])("refuses %j with its message", (overrides, message) =>
    expect(firstMessage(callback(overrides))).toContain(message),
  );
});
