import { describe, expect, it } from "vitest";
import { maskName, maskPhone } from "../../../domain/masking";
import { leadAreaCode } from "../../../domain/phone";
import { keysMatch, leadMatchesLocation, locationKeys, parseLocationFilter } from "../location-filter";

const texas = { state: "TX", areaCode: "214" };
const florida = { state: "Florida", areaCode: "305" };

describe("aged-lead location filter (product rule 13)", () => {
  it("splits on commas, trims, lower-cases and drops empty terms", () => {
    expect(parseLocationFilter(" TX , ,fl ").map((t) => t.text)).toEqual(["tx", "fl"]);
    expect(parseLocationFilter("")).toEqual([]);
    expect(parseLocationFilter(undefined)).toEqual([]);
  });

  it("matches when the state contains a term, case-insensitively", () => {
    expect(leadMatchesLocation(florida, parseLocationFilter("FLOR"))).toBe(true);
    expect(leadMatchesLocation(texas, parseLocationFilter("tx"))).toBe(true);
    expect(leadMatchesLocation(texas, parseLocationFilter("ca"))).toBe(false);
  });

  it("matches a 3-digit term only when it equals the area code, never another part of the phone", () => {
    const lead = { state: "ZZ", areaCode: leadAreaCode("9876543210") };
    const matching = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, "0")).filter((term) =>
      leadMatchesLocation(lead, parseLocationFilter(term)),
    );
    expect(matching).toEqual(["987"]);
    expect(leadMatchesLocation(texas, parseLocationFilter("2145"))).toBe(false);
  });

  it("lets an exact 5-digit term (a ZIP, which leads do not carry) match every lead", () => {
    expect(leadMatchesLocation(texas, parseLocationFilter("90210"))).toBe(true);
    expect(leadMatchesLocation(texas, parseLocationFilter("9021"))).toBe(false);
    expect(locationKeys(parseLocationFilter("tx, 90210"), ["TX"])).toEqual({ all: true });
  });

  it("matches if any term matches; no terms match everything", () => {
    expect(leadMatchesLocation(florida, parseLocationFilter("tx, 305"))).toBe(true);
    expect(leadMatchesLocation(florida, [])).toBe(true);
    expect(locationKeys([], [])).toEqual({ all: true });
  });

  it("expands terms into the existing states they are contained in, and exact area codes", () => {
    const known = ["TX", "FL", "CA", "GA", "Florida", "TX"];
    expect(locationKeys(parseLocationFilter("a, 305, fl, 305"), known)).toEqual({
      all: false,
      states: ["FL", "CA", "GA", "Florida"],
      areaCodes: ["305"],
    });
    expect(locationKeys(parseLocationFilter("l"), known)).toMatchObject({ states: ["FL", "Florida"], areaCodes: [] });
    expect(locationKeys(parseLocationFilter("zz"), known)).toEqual({ all: false, states: [], areaCodes: [] });
  });

  it("selects through the keys exactly the leads the rule selects", () => {
    const leads = [texas, florida, { state: "CA", areaCode: "213" }, { state: "GA", areaCode: "" }];
    for (const filter of ["tx", "a, 214", "305", "flo", "21", "", "12345", "x, 404"]) {
      const terms = parseLocationFilter(filter);
      const keys = locationKeys(
        terms,
        leads.map((lead) => lead.state),
      );
      for (const lead of leads)
        expect(keysMatch(keys, lead), `${filter} / ${lead.state}`).toBe(leadMatchesLocation(lead, terms));
    }
  });
});

describe("area codes", () => {
  it.each([
    ["(214) 555-1000", "214"],
    ["+1 305 555 2000", "305"],
    ["1-800-555-0000", "800"],
    ["12", ""],
  ])("%j → %j", (phone, areaCode) => expect(leadAreaCode(phone)).toBe(areaCode));
});

describe("masked previews (product rules 12, 14)", () => {
  it.each([
    ["Mary Johnson", "Mary J."],
    ["  mary   ann   smith ", "mary S."],
    ["Cher", "Cher"],
  ])("name %j → %j", (name, masked) => expect(maskName(name)).toBe(masked));

  it.each([
    ["(214) 555-1000", "(214) ***-****"],
    ["+1 305 555 2000", "(305) ***-****"],
    ["12", "(12*) ***-****"],
  ])("phone %j → %j", (phone, masked) => expect(maskPhone(phone)).toBe(masked));
});
