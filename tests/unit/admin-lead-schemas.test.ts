import { describe, expect, it } from "vitest";
import { mapRow } from "../../src/domain/csv-mapping";
import { LEAD_LIMITS } from "../../src/domain/leads";
import {
  adminAgedLeadSchema,
  callbackOpportunitySchema,
  checkLeadRow,
  LEAD_MESSAGES,
} from "../../src/domain/schemas/admin-leads";

const form = { name: "Ann", phone: "2145550100", state: "TX" };

/** A lead as the single form sends it (strings from inputs; the datetime-local value as an ISO instant). */
const formLead = (overrides: Record<string, unknown> = {}) => ({
  ...form,
  email: "",
  ageRange: "",
  price: "",
  formFillTime: "",
  ...overrides,
});
/** The same lead as a CSV row mapped by the browser (columns Name, Email, Phone, State, Age range, Price, Form fill time). */
const csvLead = (overrides: Record<string, string> = {}) => {
  const cells = { name: "Ann", email: "", phone: "2145550100", state: "TX", ageRange: "", price: "", formFillTime: "" };
  const values = { ...cells, ...overrides };
  const mapping = { name: 0, email: 1, phone: 2, state: 3, ageRange: 4, price: 5, formFillTime: 6 };
  return mapRow(
    [values.name, values.email, values.phone, values.state, values.ageRange, values.price, values.formFillTime],
    mapping,
    2,
  );
};

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
  ];
  it.each(cases)("refuses %s with the same message both ways", (_, change, message) => {
    expect(formMessage(formLead(change))).toBe(message);
    expect(csvMessage(csvLead(change))).toBe(message);
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

describe("callback opportunity schema", () => {
  it("requires a price", () => {
    const result = callbackOpportunitySchema.safeParse({ ...form, email: "a@example.com", price: "" });
    expect(result.success ? "" : result.error.issues[0]?.message).toBe("Price is required");
  });
});
