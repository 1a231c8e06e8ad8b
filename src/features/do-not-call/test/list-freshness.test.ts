/**
 * A stale registry copy stops what it covers (docs/decisions/0085): the day edges (24, 25, 31, 32 days
 * after the refresh), what each copy covers, the SQL cutoff agreeing with isListStale, and the banner's words.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  copyNotice,
  freshCutoff,
  isCopyStale,
  marketplaceStopNotice,
  NO_NATIONAL_COPY_NOTICE,
  type RegistryCopy,
  registryBanner,
  staleCopyFor,
  staleFrom,
} from "../list-freshness";
import { isListStale } from "../suppression";

const at = (day: string, time = "12:00:00") => Date.parse(`${day}T${time}Z`);
const national = (refreshedOn: string | null): RegistryCopy => ({ state: null, refreshedOn });
const state = (code: string, refreshedOn: string | null): RegistryCopy => ({ state: code, refreshedOn });

describe("the day edges (refreshed on 1 January)", () => {
  const copy = national("2026-01-01");
  it("day 24: fresh, no notice", () => {
    expect(isCopyStale(copy, at("2026-01-25"))).toBe(false);
    expect(copyNotice(copy, at("2026-01-25", "23:59:59"))).toBeNull();
  });
  it("day 25: fresh, the admins are warned of the day it goes stale", () => {
    expect(isCopyStale(copy, at("2026-01-26", "00:00:00"))).toBe(false);
    expect(copyNotice(copy, at("2026-01-26", "00:00:00"))).toEqual({
      stale: false,
      text: "The National Do Not Call Registry copy was refreshed on 2026-01-01; it goes stale on 2026-02-02: upload a fresh copy.",
    });
  });
  it("day 31: still fresh (fresh through 1 February)", () => {
    expect(isCopyStale(copy, at("2026-02-01", "23:59:59"))).toBe(false);
    expect(copyNotice(copy, at("2026-02-01"))?.stale).toBe(false);
  });
  it("day 32: stale, sales stopped", () => {
    expect(isCopyStale(copy, at("2026-02-02", "00:00:00"))).toBe(true);
    expect(copyNotice(copy, at("2026-02-02"))).toEqual({
      stale: true,
      text: "The National Do Not Call Registry copy was refreshed on 2026-01-01 and went stale on 2026-02-02: sales stopped, with call-back deliveries and live transfers, for every number. Upload a fresh copy.",
    });
    expect(staleFrom("2026-01-01")).toBe("2026-02-02");
  });
  it("a copy without a readable refreshed-on day is stale", () => {
    expect(isCopyStale(national(null), at("2026-01-01"))).toBe(true);
    expect(isCopyStale(national("2026-02-30"), at("2026-01-01"))).toBe(true);
  });
});

describe("the cutoff the SQL compares with", () => {
  it("a day before the cutoff is stale, the cutoff itself fresh, exactly as isListStale says (any day, any time)", () => {
    const day = fc.integer({ min: 0, max: 40_000 }).map((n) => new Date(n * 86_400_000).toISOString().slice(0, 10));
    const time = fc.integer({ min: 0, max: 86_399_999 });
    fc.assert(
      fc.property(day, fc.integer({ min: -5, max: 80 }), time, (refreshedOn, after, ms) => {
        const now = Date.parse(`${refreshedOn}T00:00:00Z`) + after * 86_400_000 + ms;
        expect(refreshedOn < freshCutoff(now)).toBe(isListStale(refreshedOn, now));
        expect(isCopyStale(national(refreshedOn), now)).toBe(after > 31);
      }),
    );
  });
});

describe("what a copy covers", () => {
  const now = at("2026-03-10");
  it("the national copy covers every number; a state's copy only its own state's", () => {
    expect(staleCopyFor([national("2026-01-01")], "TX", now)).toEqual(national("2026-01-01"));
    expect(staleCopyFor([national("2026-01-01")], null, now)).toEqual(national("2026-01-01"));
    const copies = [national("2026-03-01"), state("TX", "2026-01-01")];
    expect(staleCopyFor(copies, "TX", now)).toEqual(state("TX", "2026-01-01"));
    expect(staleCopyFor(copies, "tx", now)).toEqual(state("TX", "2026-01-01"));
    expect(staleCopyFor(copies, "FL", now)).toBeNull();
  });
  it("a copy never loaded stops nothing", () => {
    expect(staleCopyFor([], "TX", now)).toBeNull();
    expect(staleCopyFor([state("FL", "2026-01-01")], "TX", now)).toBeNull();
  });
});

describe("what buyers and admins read", () => {
  const now = at("2026-03-10");
  it("the marketplace names the states a stale copy stops, or all leads for the national copy", () => {
    expect(marketplaceStopNotice([])).toBeNull();
    expect(marketplaceStopNotice([national("2026-01-01")])).toMatch(
      /^Leads can't be bought right now: our copy of the National/,
    );
    expect(marketplaceStopNotice([state("FL", "2026-01-01"), state("TX", "2026-01-01")])).toMatch(
      /^Leads in FL and TX can't be bought right now: our copy of those states' Do Not Call list/,
    );
  });
  it("the banner: nothing while every copy is younger than 25 days, stale lines first, and a missing national copy said", () => {
    expect(registryBanner([national("2026-03-01")], now)).toBeNull();
    const banner = registryBanner([national("2026-02-10"), state("TX", "2026-01-01")], now);
    expect(banner?.stale).toBe(true);
    expect(banner?.lines[0]).toMatch(/^The TX Do Not Call list copy was refreshed on 2026-01-01 and went stale/);
    expect(banner?.lines[1]).toMatch(
      /^The National Do Not Call Registry copy was refreshed on 2026-02-10; it goes stale on 2026-03-14/,
    );
    expect(registryBanner([], now)).toEqual({ stale: false, lines: [NO_NATIONAL_COPY_NOTICE] });
  });
});
