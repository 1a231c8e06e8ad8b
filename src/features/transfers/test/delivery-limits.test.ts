/** An order's own limits (docs/decisions/0068): the pure rules, at any moment and in any zone. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SAMPLE_DELIVERY_SETTINGS } from "../../../../tests/delivery-settings-sample";
import { localTime, US_TIME_ZONES } from "../../../domain/time-zones";
import {
  isCalendarDay,
  isClosedOn,
  LIMIT_MESSAGES,
  limitsFromDetails,
  limitsProblem,
  limitsText,
  MAX_CONCURRENT_TRANSFERS,
  MAX_TRANSFERS_PER_HOUR,
  normalizeDays,
} from "../delivery-limits";
import { settingsFromInput } from "../delivery-setup";
import { deliverySettingsInputSchema } from "../schemas/delivery-setup";
import { ineligibility, type RoutingCandidate } from "../transfers";

const DAY_MS = 86_400_000;
/** An order open all day, every day, with room: only the limit under test can refuse it. */
const order = (overrides: Partial<RoutingCandidate> = {}): RoutingCandidate => ({
  orderId: "o1",
  buyerKey: "b1",
  paidAt: 1,
  timeZone: "America/Chicago",
  hoursStartMinute: 0,
  hoursEndMinute: 0,
  days: null,
  closedFrom: null,
  closedUntil: null,
  perHourCap: null,
  maxConcurrent: null,
  perDayCap: 1000,
  transfersTotal: 1000,
  transfersBillable: 0,
  held: 0,
  deliveredToday: 0,
  deliveredLastHour: 0,
  ...overrides,
});
const at = (now: number) => ({ now, recentBuyerKeys: new Set<string>() });
const instant = fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2030, 0, 1) });
const zone = fc.constantFrom(...US_TIME_ZONES);
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe("closures", () => {
  it("refuse exactly the local days from the first to the last, in the order's zone", () => {
    fc.assert(
      fc.property(
        instant,
        zone,
        fc.integer({ min: -3, max: 3 }),
        fc.integer({ min: 0, max: 5 }),
        (now, tz, start, length) => {
          const today = localTime(now, tz).day;
          const todayMs = Date.parse(`${today}T00:00:00Z`);
          const closedFrom = dayOf(todayMs + start * DAY_MS);
          const closedUntil = dayOf(todayMs + (start + length) * DAY_MS);
          const closedToday = start <= 0 && start + length >= 0;
          expect(isClosedOn(today, closedFrom, closedUntil)).toBe(closedToday);
          expect(ineligibility(order({ timeZone: tz, closedFrom, closedUntil }), at(now))).toBe(
            closedToday ? "outside_hours" : null,
          );
        },
      ),
    );
  });

  it("are none without both days", () => {
    expect(isClosedOn("2026-12-25", null, null)).toBe(false);
    expect(isClosedOn("2026-12-25", "2026-12-25", null)).toBe(false);
    expect(isClosedOn("2026-12-25", "2026-12-25", "2026-12-25")).toBe(true);
  });
});

describe("weekdays", () => {
  it("store none or all seven as every day, else sorted once each", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 6 })), (days) => {
        const chosen = new Set(days);
        const stored = normalizeDays(days);
        if (chosen.size === 0 || chosen.size === 7) expect(stored).toBeNull();
        else expect(stored).toEqual([...chosen].sort((a, b) => a - b));
      }),
    );
  });

  it("refuse a ping on a day left out, at any moment in any zone", () => {
    fc.assert(
      fc.property(
        instant,
        zone,
        fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 6 }),
        (now, tz, days) => {
          const open = days.includes(localTime(now, tz).weekday);
          expect(ineligibility(order({ timeZone: tz, days }), at(now))).toBe(open ? null : "outside_hours");
        },
      ),
    );
  });
});

describe("caps per hour and at once", () => {
  it("refuse once the last 60 minutes reach the hourly cap, and not before", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 60 }), instant, (cap, count, now) => {
        const reason = ineligibility(order({ perHourCap: cap, deliveredLastHour: count }), at(now));
        expect(reason).toBe(count >= cap ? "caps_reached" : null);
      }),
    );
  });

  it("refuse once the calls ringing or connected reach the concurrency cap, and not before", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 30 }), instant, (cap, held, now) => {
        const reason = ineligibility(order({ maxConcurrent: cap, held }), at(now));
        expect(reason).toBe(held >= cap ? "caps_reached" : null);
      }),
    );
  });

  it("count nothing without a cap", () => {
    expect(ineligibility(order({ deliveredLastHour: 999, held: 999 }), at(Date.UTC(2026, 2, 4)))).toBeNull();
  });
});

describe("the settings form's limits", () => {
  const valid = SAMPLE_DELIVERY_SETTINGS;
  const problem = (overrides: Record<string, unknown>) => {
    const result = deliverySettingsInputSchema.safeParse({ ...valid, ...overrides });
    return result.success ? null : result.error.issues[0]?.message;
  };

  it("are all optional: none chosen is every day, empty fields are no limit", () => {
    const parsed = deliverySettingsInputSchema.parse({
      ...valid,
      days: [],
      closedFrom: "",
      closedUntil: "",
      perHourCap: "",
      maxConcurrent: "",
    });
    expect(settingsFromInput(parsed)).toMatchObject({
      days: null,
      closedFrom: null,
      closedUntil: null,
      perHourCap: null,
      maxConcurrent: null,
    });
    expect(settingsFromInput(deliverySettingsInputSchema.parse(valid)).days).toBeNull();
  });

  it("keep what was chosen", () => {
    const parsed = deliverySettingsInputSchema.parse({
      ...valid,
      days: ["5", "1", "1"],
      closedFrom: "2026-12-24",
      closedUntil: "2026-12-24",
      perHourCap: "4",
      maxConcurrent: 3,
    });
    expect(settingsFromInput(parsed)).toMatchObject({
      days: [1, 5],
      closedFrom: "2026-12-24",
      closedUntil: "2026-12-24",
      perHourCap: 4,
      maxConcurrent: 3,
    });
  });

  it("refuse with a clear message", () => {
    expect(problem({ closedFrom: "2026-12-26", closedUntil: "2026-12-24" })).toBe(LIMIT_MESSAGES.closureOrder);
    expect(problem({ closedUntil: "2026-12-24" })).toBe(LIMIT_MESSAGES.closureBoth);
    expect(problem({ closedFrom: "24/12/2026", closedUntil: "2026-12-24" })).toBe(LIMIT_MESSAGES.date);
    expect(problem({ perHourCap: "0" })).toBe(LIMIT_MESSAGES.perHour);
    expect(problem({ perHourCap: "2.5" })).toBe(LIMIT_MESSAGES.perHour);
    expect(problem({ perDayCap: "600", perHourCap: String(MAX_TRANSFERS_PER_HOUR + 1) })).toBe(LIMIT_MESSAGES.perHour);
    expect(problem({ perDayCap: "4", perHourCap: "5" })).toBe(LIMIT_MESSAGES.perHourOverDay);
    expect(problem({ maxConcurrent: "-1" })).toBe(LIMIT_MESSAGES.concurrent);
    expect(problem({ maxConcurrent: String(MAX_CONCURRENT_TRANSFERS + 1) })).toBe(LIMIT_MESSAGES.concurrent);
    expect(problem({ days: ["8"] })).toBe(LIMIT_MESSAGES.day);
    expect(problem({ perDayCap: "4", perHourCap: "4", maxConcurrent: "1" })).toBeNull();
  });

  it("check a closure's order and the hourly cap against the daily one for any values", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 1, max: 1000 }),
        (from, until, perHourCap, perDayCap) => {
          const base = Date.UTC(2026, 0, 1);
          const found = limitsProblem({
            closedFrom: dayOf(base + from * DAY_MS),
            closedUntil: dayOf(base + until * DAY_MS),
            perHourCap,
            perDayCap,
          });
          if (until < from) expect(found?.message).toBe(LIMIT_MESSAGES.closureOrder);
          else if (perHourCap > perDayCap) expect(found?.message).toBe(LIMIT_MESSAGES.perHourOverDay);
          else expect(found).toBeNull();
        },
      ),
    );
  });

  it("read real calendar days only", () => {
    expect(isCalendarDay("2028-02-29")).toBe(true);
    expect(isCalendarDay("2026-02-29")).toBe(false);
    expect(isCalendarDay("2026-2-1")).toBe(false);
  });
});

describe("the summary line", () => {
  it("names each limit the order has, and is null without any", () => {
    expect(limitsText({})).toBeNull();
    expect(limitsText({ days: [1, 2, 3, 4, 5], perHourCap: 10, maxConcurrent: 2 })).toBe(
      "Mon–Fri · 10 an hour · 2 at once",
    );
    expect(limitsText({ days: [0, 6], closedFrom: "2026-12-25", closedUntil: "2026-12-25" })).toBe(
      "Sun, Sat · closed Dec 25, 2026",
    );
  });
});

describe("limits from an order's own form", () => {
  it("keep what the dashboard's order form gave and drop what cannot be read", () => {
    expect(
      limitsFromDetails({
        days: [5, 1],
        closedFrom: "2026-12-24",
        closedUntil: "2026-12-25",
        perHourCap: 3,
        maxConcurrent: 2,
      }),
    ).toEqual({ days: [1, 5], closedFrom: "2026-12-24", closedUntil: "2026-12-25", perHourCap: 3, maxConcurrent: 2 });
    expect(
      limitsFromDetails({
        days: "Mon",
        closedFrom: "2026-12-25",
        closedUntil: "2026-12-24",
        perHourCap: 0,
        maxConcurrent: 1.5,
      }),
    ).toEqual({ days: null, closedFrom: null, closedUntil: null, perHourCap: null, maxConcurrent: null });
  });
});
