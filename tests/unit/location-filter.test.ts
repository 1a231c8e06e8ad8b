import { describe, expect, it } from "vitest";
import { leadMatchesLocation, parseLocationFilter } from "../../src/domain/location-filter";
import { maskName, maskPhone } from "../../src/domain/masking";

const texas = { state: "TX", phone: "2145551000" };
const florida = { state: "Florida", phone: "3055552000" };

describe("aged-lead location filter (spec §5)", () => {
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

  it("matches a 3-character term inside the phone (area code), not longer ones", () => {
    expect(leadMatchesLocation(texas, parseLocationFilter("214"))).toBe(true);
    expect(leadMatchesLocation(texas, parseLocationFilter("2145"))).toBe(false);
  });

  it("lets an exact 5-digit term match every lead", () => {
    expect(leadMatchesLocation(texas, parseLocationFilter("90210"))).toBe(true);
    expect(leadMatchesLocation(texas, parseLocationFilter("9021"))).toBe(false);
  });

  it("matches if any term matches; no terms match everything", () => {
    expect(leadMatchesLocation(florida, parseLocationFilter("tx, 305"))).toBe(true);
    expect(leadMatchesLocation(florida, [])).toBe(true);
  });
});

describe("masked previews (D6)", () => {
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
