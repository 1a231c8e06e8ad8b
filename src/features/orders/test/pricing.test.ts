import { describe, expect, it } from "vitest";
import { formatUsd } from "../../../domain/format";
import {
  AGED_LEAD_PRICING_RULE,
  agedLeadPrice,
  dollarsToCents,
  highVolumeTierLabel,
  highVolumeUnitCents,
  leadAgeDays,
  MAX_CHARGE_CENTS,
  PACKAGE_RULES,
  PRICING_PAGES,
  parseCount,
  quoteCallTransfer,
  quotePackage,
  quoteRingcloud,
  quoteSurvey,
} from "../pricing";

const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 22, 12);

describe("pricing pages", () => {
  it("advertise $40 / $38 / $35 / $32 / $28 and send buyers to the product rule 44 checkouts", () => {
    expect(PRICING_PAGES.map((p) => [p.slug, p.rateDollars, p.checkout])).toEqual([
      ["standard-pricing", 40, "/checkout"],
      ["special-pricing", 38, "/checkout"],
      ["premium-pricing", 35, "/checkout-premium"],
      ["enterprise-pricing", 32, "/checkout-enterprise"],
      ["ultimate-pricing", 28, "/checkout-ultimate"],
    ]);
  });
});

describe("special-pricing checkout ($39, 1-1000, default 25)", () => {
  it("has the spec's rate, range and default", () => {
    expect(PACKAGE_RULES.special).toMatchObject({ unitCents: 3900, min: 1, max: 1000, defaultCount: 25 });
  });
  it.each([
    [1, 3900],
    [25, 97_500],
    [1000, 3_900_000],
  ])("prices %i transfers at %i cents", (count, total) => {
    expect(quotePackage("special", count)).toEqual({ ok: true, quantity: count, unitCents: 3900, totalCents: total });
  });
  it("refuses 0 and max+1", () => {
    expect(quotePackage("special", 0)).toEqual({ ok: false, message: "Quantity must be at least 1" });
    expect(quotePackage("special", 1001)).toEqual({ ok: false, message: "Quantity must be at most 1000" });
  });
});

describe("high-volume tiers", () => {
  it.each([
    [50, 3200],
    [99, 3200],
    [100, 3000],
    [149, 3000],
    [150, 2900],
    [199, 2900],
    [200, 2800],
    [10_000, 2800],
  ])("%i transfers cost %i cents each", (count, unit) => {
    expect(highVolumeUnitCents(count)).toBe(unit);
    expect(quotePackage("high-volume", count)).toEqual({
      ok: true,
      quantity: count,
      unitCents: unit,
      totalCents: count * unit,
    });
  });
  it("refuses 49 and 0 (minimum 50)", () => {
    expect(quotePackage("high-volume", 49)).toEqual({ ok: false, message: "Quantity must be at least 50" });
    expect(quotePackage("high-volume", 0).ok).toBe(false);
  });
  it("is bounded only by the card provider's maximum charge", () => {
    const max = PACKAGE_RULES["high-volume"].max;
    expect(max * 2800).toBeLessThanOrEqual(MAX_CHARGE_CENTS);
    expect((max + 1) * 2800).toBeGreaterThan(MAX_CHARGE_CENTS);
    expect(quotePackage("high-volume", max).ok).toBe(true);
    expect(quotePackage("high-volume", max + 1).ok).toBe(false);
  });
  it.each([
    [50, "50-99 transfers: $32 each"],
    [100, "100-149 transfers: $30 each"],
    [150, "150-199 transfers: $29 each"],
    [200, "200+ transfers: $28 each"],
  ])("labels %i as '%s'", (count, label) => {
    expect(highVolumeTierLabel(count)).toBe(label);
  });
  it("defaults to 50", () => expect(PACKAGE_RULES["high-volume"].defaultCount).toBe(50));
});

describe("tier checkouts", () => {
  it.each([
    ["premium", 3700, 50, 2000],
    ["enterprise", 3500, 100, 5000],
    ["ultimate", 3200, 200, 10_000],
  ] as const)("%s: %i cents, default %i, max %i", (tier, unit, defaultCount, max) => {
    expect(PACKAGE_RULES[tier]).toMatchObject({ unitCents: unit, min: 1, max, defaultCount });
    expect(quotePackage(tier, 1)).toMatchObject({ ok: true, totalCents: unit });
    expect(quotePackage(tier, max)).toMatchObject({ ok: true, totalCents: max * unit });
    expect(quotePackage(tier, max + 1)).toEqual({ ok: false, message: `Quantity must be at most ${max}` });
    expect(quotePackage(tier, 0)).toEqual({ ok: false, message: "Quantity must be at least 1" });
  });
  it("refuses fractional counts", () => {
    expect(quotePackage("premium", 2.5)).toEqual({ ok: false, message: "Quantity must be a whole number" });
  });
});

describe("non-numeric counts (product rule 47)", () => {
  it.each([
    ["", 0],
    ["abc", 0],
    ["12", 12],
    [" 7 ", 7],
    ["3.9", 3],
  ])("'%s' counts as %i on the special and tier checkouts", (input, expected) => {
    expect(parseCount(input, PACKAGE_RULES.special.nonNumericCount)).toBe(expected);
    expect(parseCount(input, PACKAGE_RULES.ultimate.nonNumericCount)).toBe(expected);
  });
  it("falls back to 50 on the high-volume checkout", () => {
    expect(parseCount("abc", PACKAGE_RULES["high-volume"].nonNumericCount)).toBe(50);
    expect(parseCount(Number.NaN, PACKAGE_RULES["high-volume"].nonNumericCount)).toBe(50);
  });
});

describe("survey, ringcloud and dashboard prices", () => {
  it("survey: live transfers 35, call-backs 15, aged leads 4/3/2 by band", () => {
    expect(quoteSurvey("Live Transfers", 10)).toMatchObject({ ok: true, unitCents: 3500, totalCents: 35_000 });
    expect(quoteSurvey("Call-Backs", 10)).toMatchObject({ unitCents: 1500 });
    expect(quoteSurvey("Aged Leads", 10, "30-60")).toMatchObject({ unitCents: 400 });
    expect(quoteSurvey("Aged Leads", 10, "60-90")).toMatchObject({ unitCents: 300 });
    expect(quoteSurvey("Aged Leads", 10, "90-180")).toMatchObject({ unitCents: 200 });
    expect(quoteSurvey("Live Transfers", 0).ok).toBe(false);
  });
  it("ringcloud: live 37, call-backs 15, partial apps 5/4/3 with default 5", () => {
    expect(quoteRingcloud("live_transfers", 2)).toMatchObject({ unitCents: 3700, totalCents: 7400 });
    expect(quoteRingcloud("call_backs", 2)).toMatchObject({ unitCents: 1500 });
    expect(quoteRingcloud("partial_apps", 2, "30-60")).toMatchObject({ unitCents: 500 });
    expect(quoteRingcloud("partial_apps", 2, "60-90")).toMatchObject({ unitCents: 400 });
    expect(quoteRingcloud("partial_apps", 2, "90-180")).toMatchObject({ unitCents: 300 });
    expect(quoteRingcloud("partial_apps", 2)).toMatchObject({ unitCents: 500 });
  });
  it("dashboard call transfers: 35 each, at least 1", () => {
    expect(quoteCallTransfer(3)).toMatchObject({ ok: true, totalCents: 10_500 });
    expect(quoteCallTransfer(0).ok).toBe(false);
  });
  it("no order above $999,999.99", () => {
    expect(quoteSurvey("Live Transfers", 28_571)).toMatchObject({ ok: true, totalCents: 99_998_500 });
    expect(quoteSurvey("Live Transfers", 28_572)).toEqual({
      ok: false,
      message: "Order total exceeds the maximum of $999999.99",
    });
  });
});

describe("aged-lead pricing (product rule 5)", () => {
  it.each([
    [1, "30-60", 500],
    [60, "30-60", 500],
    [61, "60-90", 400],
    [90, "60-90", 400],
    [91, "90-180", 300],
    [400, "90-180", 300],
  ])("a lead %i days old is band %s at %i cents", (days, band, cents) => {
    expect(agedLeadPrice({ formFillTime: now - days * DAY }, now)).toEqual({
      ageRange: band,
      ageDays: days,
      priceCents: cents,
    });
  });
  it("rounds partial days up and ignores the sign", () => {
    expect(leadAgeDays(now - 60 * DAY - 1, now)).toBe(61);
    expect(leadAgeDays(now + DAY / 2, now)).toBe(1);
  });
  it("uses the uploaded band without formFillTime, else 30-60", () => {
    expect(agedLeadPrice({ ageRange: "90-180" }, now)).toEqual({ ageRange: "90-180", ageDays: null, priceCents: 300 });
    expect(agedLeadPrice({}, now)).toEqual({ ageRange: "30-60", ageDays: null, priceCents: 500 });
  });
  it("lets an explicit price above 0 override the band", () => {
    expect(agedLeadPrice({ formFillTime: now - 100 * DAY, priceCents: 725 }, now).priceCents).toBe(725);
    expect(agedLeadPrice({ formFillTime: now - 100 * DAY, priceCents: 0 }, now).priceCents).toBe(300);
  });
  it("states in words the rule it applies, for the template and form hint", () => {
    const clauses = AGED_LEAD_PRICING_RULE.split("; ").map((clause) => {
      const match = /^(\d+)(?:-(\d+)|\+) days: \$(\d+)\.(\d\d) \(range ([\d-]+)\)$/.exec(clause);
      if (!match) throw new Error(`unexpected clause: ${clause}`);
      const [, from, to, dollars, cents, range] = match;
      return {
        from: Number(from),
        to: to ? Number(to) : null,
        priceCents: Number(dollars) * 100 + Number(cents),
        range,
      };
    });
    expect(clauses.length).toBeGreaterThan(1);
    // The stated bands start at day 1, follow each other without a gap, and the last is open-ended.
    expect(clauses[0]?.from).toBe(1);
    expect(clauses.slice(1).map((clause) => clause.from)).toEqual(
      clauses.slice(0, -1).map((clause) => (clause.to ?? 0) + 1),
    );
    expect(clauses.at(-1)?.to).toBeNull();
    // A lead at either end of each stated band gets exactly the stated price and range.
    for (const { from, to, priceCents, range } of clauses) {
      for (const days of [from, to ?? from + 365]) {
        expect(agedLeadPrice({ formFillTime: now - days * DAY }, now)).toEqual({
          ageRange: range,
          ageDays: days,
          priceCents,
        });
      }
    }
  });
});

describe("money helpers", () => {
  it("turns the spec's dollar amounts into exact cents", () => {
    expect(dollarsToCents(975)).toBe(97_500);
    expect(dollarsToCents(19.99)).toBe(1999);
    expect(dollarsToCents(0.1 + 0.2)).toBe(30);
    expect(dollarsToCents(1.005)).toBeNull();
    expect(dollarsToCents(-1)).toBeNull();
    expect(dollarsToCents(Number.NaN)).toBeNull();
  });
  it("formats with two decimals", () => {
    expect(formatUsd(97_500)).toBe("$975.00");
    expect(formatUsd(3000, { cents: false })).toBe("$30");
  });
});
