import { describe, expect, it } from "vitest";
import { normalizeUsPhone } from "../../../domain/phone";
import { defaultTimeZone, localTime } from "../../../domain/time-zones";
import { payoutPeriod, payoutStatement } from "../../partners/payouts";
import { parseTransferHours, withinHours } from "../hours";
import { ineligibility, isBillable, NOT_CHARGED_LABEL, type RoutingCandidate, rankEligible } from "../transfers";

describe("the 120-second buffer", () => {
  it("bills only calls longer than 120 seconds", () => {
    expect(isBillable(119)).toBe(false);
    expect(isBillable(120)).toBe(false);
    expect(isBillable(121)).toBe(true);
    expect(isBillable(0)).toBe(false);
  });

  it("labels short calls with the same limit the billing applies", () => {
    const minutes = Number(/^under (\d+) minutes? — not charged$/.exec(NOT_CHARGED_LABEL)?.[1]);
    expect(minutes).toBeGreaterThan(0);
    expect(isBillable(minutes * 60)).toBe(false);
    expect(isBillable(minutes * 60 + 1)).toBe(true);
  });
});

describe("time zones and hours", () => {
  it("defaults a buyer's zone from the first state", () => {
    expect(defaultTimeZone("TX")).toBe("America/Chicago");
    expect(defaultTimeZone("ca")).toBe("America/Los_Angeles");
    expect(defaultTimeZone("AZ")).toBe("America/Phoenix");
    expect(defaultTimeZone("HI")).toBe("Pacific/Honolulu");
    expect(defaultTimeZone(undefined)).toBe("America/New_York");
  });

  it("reads the local day across midnight", () => {
    // 2026-03-03 04:30 UTC is still March 2 in Chicago (22:30) and New York (23:30).
    const now = Date.UTC(2026, 2, 3, 4, 30);
    expect(localTime(now, "America/Chicago")).toEqual({ day: "2026-03-02", weekday: 1, minute: 22 * 60 + 30 });
    expect(localTime(now, "America/New_York").day).toBe("2026-03-02");
    expect(localTime(Date.UTC(2026, 2, 3, 5, 30), "America/New_York").day).toBe("2026-03-03");
  });

  it("parses the ways buyers write transfer hours", () => {
    expect(parseTransferHours("9am-5pm")).toEqual({ startMinute: 540, endMinute: 1020 });
    expect(parseTransferHours("9:00 AM – 5:30 PM")).toEqual({ startMinute: 540, endMinute: 1050 });
    expect(parseTransferHours("09:00-17:00")).toEqual({ startMinute: 540, endMinute: 1020 });
    expect(parseTransferHours("9 to 5")).toEqual({ startMinute: 540, endMinute: 1020 });
    expect(parseTransferHours("8pm-2am")).toEqual({ startMinute: 1200, endMinute: 120 });
    expect(parseTransferHours("whenever")).toBeNull();
    expect(parseTransferHours("13pm-5pm")).toBeNull();
  });

  it("treats hours as [start, end), spanning midnight when end < start", () => {
    expect(withinHours(540, 540, 1020)).toBe(true);
    expect(withinHours(1020, 540, 1020)).toBe(false);
    expect(withinHours(30, 1200, 120)).toBe(true);
    expect(withinHours(600, 1200, 120)).toBe(false);
    expect(withinHours(600, 0, 0)).toBe(true);
  });

  it("normalises US phone numbers", () => {
    expect(normalizeUsPhone("+1 (214) 555-1000")).toBe("2145551000");
    expect(normalizeUsPhone("555-1000")).toBeNull();
  });
});

// Wednesday 2026-03-04 15:00 UTC = 09:00 in Chicago.
const NOW = Date.UTC(2026, 2, 4, 15, 0);
const order = (overrides: Partial<RoutingCandidate> = {}): RoutingCandidate => ({
  orderId: "o1",
  buyerKey: "b1",
  paidAt: 1000,
  timeZone: "America/Chicago",
  hoursStartMinute: 9 * 60,
  hoursEndMinute: 17 * 60,
  days: null,
  closedFrom: null,
  closedUntil: null,
  perHourCap: null,
  maxConcurrent: null,
  perDayCap: 5,
  transfersTotal: 10,
  transfersBillable: 0,
  held: 0,
  deliveredToday: 0,
  deliveredLastHour: 0,
  ...overrides,
});
const context = { now: NOW, recentBuyerKeys: new Set<string>() };

describe("eligibility", () => {
  it("takes an open order within its hours", () => {
    expect(ineligibility(order(), context)).toBeNull();
  });

  it("refuses outside the buyer's hours, in the buyer's zone", () => {
    expect(ineligibility(order({ timeZone: "America/Los_Angeles" }), context)).toBe("outside_hours");
    expect(ineligibility(order({ hoursStartMinute: 9 * 60 + 1 }), context)).toBe("outside_hours");
    expect(ineligibility(order({ days: [1, 2] }), context)).toBe("outside_hours");
    expect(ineligibility(order({ days: [3] }), context)).toBeNull();
  });

  it("counts held slots against the transfers left", () => {
    expect(ineligibility(order({ transfersTotal: 2, transfersBillable: 1, held: 1 }), context)).toBe("caps_reached");
    expect(ineligibility(order({ transfersTotal: 2, transfersBillable: 1 }), context)).toBeNull();
  });

  it("stops at the per-day cap", () => {
    expect(ineligibility(order({ deliveredToday: 5 }), context)).toBe("caps_reached");
    expect(ineligibility(order({ deliveredToday: 4 }), context)).toBeNull();
  });

  it("refuses a buyer who had this phone recently", () => {
    expect(ineligibility(order(), { now: NOW, recentBuyerKeys: new Set(["b1"]) })).toBe("duplicate");
  });
});

describe("ranking", () => {
  it("sends the oldest paid order first", () => {
    const ranked = rankEligible(
      [
        order({ orderId: "new", paidAt: 3000 }),
        order({ orderId: "old", paidAt: 1000 }),
        order({ orderId: "mid", paidAt: 2000 }),
      ],
      context,
    );
    expect(ranked).toEqual({
      orders: [expect.objectContaining({ orderId: "old" }), expect.anything(), expect.anything()],
    });
    if ("orders" in ranked) expect(ranked.orders.map((o) => o.orderId)).toEqual(["old", "mid", "new"]);
  });

  it("skips ineligible orders", () => {
    const ranked = rankEligible(
      [order({ orderId: "full", paidAt: 1, deliveredToday: 5 }), order({ orderId: "open", paidAt: 2 })],
      context,
    );
    expect("orders" in ranked && ranked.orders.map((o) => o.orderId)).toEqual(["open"]);
  });

  it("names why nothing is eligible", () => {
    expect(rankEligible([], context)).toEqual({ reason: "no_open_order" });
    expect(rankEligible([order({ deliveredToday: 5 })], context)).toEqual({ reason: "caps_reached" });
    expect(rankEligible([order({ timeZone: "Pacific/Honolulu" })], context)).toEqual({ reason: "outside_hours" });
    expect(rankEligible([order()], { now: NOW, recentBuyerKeys: new Set(["b1"]) })).toEqual({ reason: "duplicate" });
  });
});

describe("payouts", () => {
  it("runs weekly periods Monday to Sunday, due after the terms", () => {
    expect(payoutPeriod("2026-03-04", "Net 7")).toEqual({ start: "2026-03-02", end: "2026-03-08", due: "2026-03-15" });
    expect(payoutPeriod("2026-03-08", "Net 30")).toEqual({ start: "2026-03-02", end: "2026-03-08", due: "2026-04-07" });
    expect(payoutPeriod("2026-03-09", "Net 15").start).toBe("2026-03-09");
  });

  it("multiplies billable transfers by the pay per transfer", () => {
    const lines = payoutStatement(
      [
        { day: "2026-03-02", billable: 2 },
        { day: "2026-03-08", billable: 1 },
        { day: "2026-03-10", billable: 4 },
      ],
      2500,
      "Net 15",
    );
    expect(lines).toEqual([
      { start: "2026-03-09", end: "2026-03-15", due: "2026-03-30", billableTransfers: 4, amountCents: 10000 },
      { start: "2026-03-02", end: "2026-03-08", due: "2026-03-23", billableTransfers: 3, amountCents: 7500 },
    ]);
  });
});
