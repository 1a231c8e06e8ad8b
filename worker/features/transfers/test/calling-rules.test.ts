/**
 * The calling rules (docs/decisions/0064): every boundary of every row of the table, in the prospect's
 * zone, across a daylight-saving change and on a holiday; the zone a prospect is in (ZIP, area code,
 * state) and the stricter answer where a state spans several zones.
 */
import { describe, expect, it } from "vitest";
import { CALLING_RULES, callLimit, FEDERAL, rulesInForce } from "../../../../src/features/transfers/calling-rules";
import type { Env } from "../../../env";
import { callingRulesClock, callingWindow, isStateHoliday, nextAllowedMoment } from "../calling-window";
import { areaCodeState, prospectTimeZone, prospectZones, zipZone } from "../prospect-zone";

const open = (place: Parameters<typeof callingWindow>[0], iso: string) => callingWindow(place, Date.parse(iso)).open;
const next = (place: Parameters<typeof callingWindow>[0], iso: string) => {
  const window = callingWindow(place, Date.parse(iso));
  return window.open ? null : window.nextAllowedAt === null ? "never" : new Date(window.nextAllowedAt).toISOString();
};

describe("the rule table", () => {
  it("names a source and an effective day for every row, one row per jurisdiction", () => {
    const seen = new Set<string>();
    for (const rule of CALLING_RULES) {
      expect(rule.source.length).toBeGreaterThan(10);
      expect(rule.effectiveFrom).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(rule.hours).toHaveLength(7);
      expect(seen.has(rule.jurisdiction)).toBe(false);
      seen.add(rule.jurisdiction);
    }
    expect([...seen].sort()).toEqual(["AL", "FL", "LA", "MD", "OK", "TX", FEDERAL].sort());
  });

  it("puts every boundary on a whole hour (the search for the next allowed moment steps by quarter hours)", () => {
    for (const rule of CALLING_RULES)
      for (const hours of rule.hours) if (hours) for (const minute of hours) expect(minute % 60).toBe(0);
  });

  it("applies a row only from its effective day, and the strictest 24-hour limit of those in force", () => {
    expect(rulesInForce(["TX"], "2025-08-31").map((rule) => rule.jurisdiction)).toEqual([FEDERAL]);
    expect(rulesInForce(["TX"], "2025-09-01").map((rule) => rule.jurisdiction)).toEqual([FEDERAL, "TX"]);
    expect(callLimit(["FL"], "2021-06-30")).toBeNull();
    expect(callLimit(["FL"], "2021-07-01")).toBe(3);
    expect(callLimit(["TX", "FL"], "2026-03-04")).toBe(3);
    expect(callLimit(["TX"], "2026-03-04")).toBeNull();
    expect(callLimit(["OK"], "2022-10-31")).toBeNull();
    expect(callLimit(["OK"], "2022-11-01")).toBe(3);
    expect(callLimit(["MD"], "2023-12-31")).toBeNull();
    expect(callLimit(["MD"], "2024-01-01")).toBe(3);
  });
});

describe("boundaries of every row, in the prospect's zone", () => {
  it("federal: 8 am to 9 pm (Chicago, a Wednesday in winter)", () => {
    const il = { state: "IL", zip: "60601", phone: "3125550100" };
    expect(open(il, "2026-03-04T13:59:00Z")).toBe(false);
    expect(open(il, "2026-03-04T14:00:00Z")).toBe(true);
    expect(open(il, "2026-03-05T02:59:00Z")).toBe(true);
    expect(open(il, "2026-03-05T03:00:00Z")).toBe(false);
    expect(next(il, "2026-03-05T03:00:00Z")).toBe("2026-03-05T14:00:00.000Z");
  });

  it("federal across the spring change: 8 am is an hour earlier in UTC on the Sunday it happens", () => {
    const il = { state: "IL", zip: "60601" };
    expect(open(il, "2026-03-07T13:59:00Z")).toBe(false);
    expect(open(il, "2026-03-07T14:00:00Z")).toBe(true);
    expect(open(il, "2026-03-08T12:59:00Z")).toBe(false);
    expect(open(il, "2026-03-08T13:00:00Z")).toBe(true);
    expect(next(il, "2026-03-08T06:00:00Z")).toBe("2026-03-08T13:00:00.000Z");
  });

  it("federal across the autumn change: 9 pm on the Saturday before and 8 am on the Sunday it happens", () => {
    const il = { state: "IL", zip: "60601" };
    expect(open(il, "2026-11-01T01:59:00Z")).toBe(true);
    expect(open(il, "2026-11-01T02:00:00Z")).toBe(false);
    expect(next(il, "2026-11-01T02:00:00Z")).toBe("2026-11-01T14:00:00.000Z");
  });

  for (const [state, zip, effective] of [
    ["FL", "33101", "2021-07-01"],
    ["OK", "73102", "2022-11-01"],
    ["MD", "21201", "2024-01-01"],
  ] as const) {
    it(`${state}: 8 am to 8 pm from ${effective}, 9 pm before`, () => {
      const place = { state, zip };
      const zone = prospectTimeZone(place);
      const at = (day: string, hour: number, minute = 0) => open(place, localIso(day, hour, minute, zone));
      expect(at("2026-03-04", 7, 59)).toBe(false);
      expect(at("2026-03-04", 8)).toBe(true);
      expect(at("2026-03-04", 19, 59)).toBe(true);
      expect(at("2026-03-04", 20)).toBe(false);
      const before = dayBefore(effective);
      expect(at(before, 20, 30)).toBe(true);
      expect(at(effective, 20, 30)).toBe(false);
    });
  }

  it("TX: 9 am to 9 pm Monday to Saturday, noon to 9 pm on Sunday, from 1 September 2025", () => {
    const tx = { state: "TX", zip: "75201" };
    // Monday 2026-03-02 and Saturday 2026-03-07 (CST, UTC-6); Sunday 2026-03-15 (CDT, UTC-5).
    expect(open(tx, "2026-03-02T14:59:00Z")).toBe(false);
    expect(open(tx, "2026-03-02T15:00:00Z")).toBe(true);
    expect(open(tx, "2026-03-08T02:59:00Z")).toBe(true);
    expect(open(tx, "2026-03-08T03:00:00Z")).toBe(false);
    expect(open(tx, "2026-03-15T16:59:00Z")).toBe(false);
    expect(open(tx, "2026-03-15T17:00:00Z")).toBe(true);
    expect(open(tx, "2026-03-16T01:59:00Z")).toBe(true);
    expect(open(tx, "2026-03-16T02:00:00Z")).toBe(false);
    expect(next(tx, "2026-03-15T14:00:00Z")).toBe("2026-03-15T17:00:00.000Z");
    // Sunday 2025-08-31, 10:00 CDT: only the federal rule then.
    expect(open(tx, "2025-08-31T15:00:00Z")).toBe(true);
    expect(open(tx, "2025-09-07T15:00:00Z")).toBe(false);
  });

  for (const [state, zip, holiday, name, workday] of [
    ["AL", "35203", "2026-12-25", "Christmas Day", "2026-12-24"],
    ["LA", "70112", "2026-02-17", "Mardi Gras", "2026-02-18"],
  ] as const) {
    it(`${state}: no calls on Sundays nor on its holidays (${name}), 8 am to 9 pm otherwise`, () => {
      const place = { state, zip };
      const zone = prospectTimeZone(place);
      expect(isStateHoliday(state, holiday)).toBe(true);
      expect(open(place, localIso(holiday, 12, 0, zone))).toBe(false);
      expect(open(place, localIso(workday, 12, 0, zone))).toBe(true);
      // Sunday 2026-03-15: closed all day; Monday 8:00 opens.
      expect(open(place, localIso("2026-03-15", 12, 0, zone))).toBe(false);
      expect(next(place, localIso("2026-03-15", 12, 0, zone))).toBe(
        new Date(localIso("2026-03-16", 8, 0, zone)).toISOString(),
      );
      expect(open(place, localIso("2026-03-16", 7, 59, zone))).toBe(false);
      expect(open(place, localIso("2026-03-16", 20, 59, zone))).toBe(true);
      expect(open(place, localIso("2026-03-16", 21, 0, zone))).toBe(false);
    });
  }

  it("a holiday on a Friday before a weekend: the next allowed moment is Monday 8 am (Alabama)", () => {
    const al = { state: "AL", zip: "35203" };
    expect(next(al, "2026-12-25T18:00:00Z")).toBe("2026-12-26T14:00:00.000Z");
    // Saturday is allowed in Alabama; Sunday 27th is not.
    expect(next(al, "2026-12-27T18:00:00Z")).toBe("2026-12-28T14:00:00.000Z");
  });
});

describe("the prospect's zone", () => {
  it("comes from the ZIP first, across a zone border inside a state", () => {
    expect(zipZone("79901")).toBe("America/Denver");
    expect(zipZone("75201")).toBe("America/Chicago");
    expect(zipZone("32501")).toBe("America/Chicago");
    expect(zipZone("33101-1234")).toBe("America/New_York");
    expect(prospectZones({ state: "TX", zip: "79901", phone: "2145550100" })).toMatchObject({
      zones: ["America/Denver"],
      from: "zip",
    });
  });

  it("else the state's zones and the area code's state's together; an explicit zone of the state wins", () => {
    expect(areaCodeState("3125550100")).toBe("IL");
    expect(areaCodeState("8005550100")).toBeNull();
    expect(prospectZones({ state: "TX", phone: "3125550100" })).toMatchObject({
      zones: ["America/Chicago", "America/Denver"],
      from: "area_code",
    });
    expect(prospectZones({ state: "FL", phone: "8005550100" })).toMatchObject({
      zones: ["America/New_York", "America/Chicago"],
      from: "state",
    });
    expect(prospectZones({ state: "TX", zip: "79901", timeZone: "America/Chicago" })).toMatchObject({ from: "given" });
    expect(prospectTimeZone({ state: "AZ" })).toBe("America/Phoenix");
  });

  it("believes no ZIP, zone or area code that would move the prospect to a later clock", () => {
    // A New Yorker sent with a Honolulu ZIP or zone keeps New York's clock.
    expect(prospectZones({ state: "NY", phone: "2125550100", zip: "96813" }).zones).toEqual(["America/New_York"]);
    expect(prospectZones({ state: "NY", timeZone: "Pacific/Honolulu" }).zones).toEqual(["America/New_York"]);
    // A Californian with a New York number: both clocks must allow the call.
    expect(prospectZones({ state: "CA", phone: "2125550100" }).zones).toEqual([
      "America/Los_Angeles",
      "America/New_York",
    ]);
    const sixInTheMorningPacific = Date.parse("2026-03-04T14:00:00Z");
    expect(callingWindow({ state: "CA", phone: "2125550100" }, sixInTheMorningPacific).open).toBe(false);
    expect(
      callingWindow({ state: "NY", phone: "2125550100", zip: "96813" }, Date.parse("2026-03-05T03:30:00Z")).open,
    ).toBe(false);
  });

  it("applies the rules of the area code's state too", () => {
    expect(prospectZones({ state: "TX", phone: "3055550100" }).states).toEqual(["TX", "FL"]);
    const window = callingWindow({ state: "TX", phone: "3055550100" }, Date.parse("2026-03-04T18:00:00Z"));
    expect(window).toMatchObject({ open: true, callLimit: 3 });
  });

  it("takes the stricter answer where the state spans zones (El Paso's area code, Texas hours)", () => {
    const elPaso = { state: "TX", phone: "9155550100" };
    // Monday 2026-06-01 (CDT UTC-5, MDT UTC-6): 9 am in Denver is 15:00Z; 9 pm in Chicago is 02:00Z.
    expect(open(elPaso, "2026-06-01T14:59:00Z")).toBe(false);
    expect(open(elPaso, "2026-06-01T15:00:00Z")).toBe(true);
    expect(open(elPaso, "2026-06-02T01:59:00Z")).toBe(true);
    expect(open(elPaso, "2026-06-02T02:00:00Z")).toBe(false);
    expect(nextAllowedMoment(["TX"], ["America/Chicago", "America/Denver"], Date.parse("2026-06-01T14:00:00Z"))).toBe(
      Date.parse("2026-06-01T15:00:00Z"),
    );
  });
});

/** The instant of a local wall time in a zone (tests only: scans the day's UTC minutes). */
function localIso(day: string, hour: number, minute: number, zone: string): string {
  const format = new Intl.DateTimeFormat("en-CA", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
  });
  const want = `${day}, ${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
  const start = Date.parse(`${day}T00:00:00Z`);
  for (let at = start; at < start + 2 * 86_400_000; at += 60_000) {
    if (format.format(at) === want) return new Date(at).toISOString();
  }
  throw new Error(`no ${want} in ${zone}`);
}

function dayBefore(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

describe("the clock the rules are read at", () => {
  const now = Date.UTC(2026, 10, 27, 7, 45);
  const at = "2027-03-03T20:00:00Z";
  const env = (vars: Partial<Env>) => ({ env: { APP_ENV: "production", ...vars } as Env, now });

  it("is the request's clock, unless a local test server names an instant", () => {
    expect(callingRulesClock(env({}))).toBe(now);
    expect(
      callingRulesClock(env({ APP_ENV: "development", ALLOW_SIMULATED_PAYMENTS: "true", CALLING_RULES_AT: at })),
    ).toBe(Date.parse(at));
  });

  it("ignores the instant in production, without simulated payments, or when it is no date", () => {
    expect(callingRulesClock(env({ ALLOW_SIMULATED_PAYMENTS: "true", CALLING_RULES_AT: at }))).toBe(now);
    expect(callingRulesClock(env({ APP_ENV: "development", CALLING_RULES_AT: at }))).toBe(now);
    expect(
      callingRulesClock(env({ APP_ENV: "development", ALLOW_SIMULATED_PAYMENTS: "true", CALLING_RULES_AT: "soon" })),
    ).toBe(now);
  });
});
