/**
 * `npm run simulate:calls`' call-backs (scripts/lib/simulated-callbacks.ts): which refused pings it posts
 * again as call-backs, and the window tomorrow in the caller's zone that each one asks for — a window the
 * partner API's schema accepts.
 */
import { describe, expect, it } from "vitest";
import {
  becomesCallback,
  CALLBACK_REASONS,
  drawSlot,
  planCallback,
  SLOT_MINUTES,
  type Slot,
  tomorrowIn,
} from "../../scripts/lib/simulated-callbacks.ts";
import { PREFERENCE_MINUTES, windowOf, windowProblem } from "../../src/features/callbacks/callbacks.ts";
import { callbackSchema } from "../../src/features/callbacks/schemas/callbacks.ts";
import { NO_ROUTE_REASONS, type NoRouteReason } from "../../src/features/transfers/transfers.ts";

describe("which refused pings become call-backs", () => {
  it.each(["no_open_order", "outside_hours", "caps_reached"])("409 %s: no order can take the caller now", (reason) => {
    expect(becomesCallback(409, reason)).toBe(true);
  });

  it.each(["suppressed", "duplicate", "partner_cap_reached", "calling_window", "call_limit"])(
    "409 %s: not offered a call-back",
    (reason) => {
      expect(becomesCallback(409, reason)).toBe(false);
    },
  );

  it("only a 409 with a known reason: not a 400, a 429 or a 5xx, nor an unknown reason", () => {
    expect(becomesCallback(400, "outside_hours")).toBe(false);
    expect(becomesCallback(429, undefined)).toBe(false);
    expect(becomesCallback(503, "no_open_order")).toBe(false);
    expect(becomesCallback(409, "something_new")).toBe(false);
    expect(becomesCallback(409, undefined)).toBe(false);
  });

  it("every reason it takes is one of the ping's no-route reasons", () => {
    for (const reason of CALLBACK_REASONS) expect(Object.keys(NO_ROUTE_REASONS)).toContain(reason);
    const refused: NoRouteReason[] = ["suppressed", "duplicate", "partner_cap_reached"];
    for (const reason of refused) expect(CALLBACK_REASONS).not.toContain(reason);
  });
});

describe("the window a call-back asks for", () => {
  // 2026-11-27 04:00 UTC: still the 26th in Chicago and Los Angeles, already the 27th nowhere west of London.
  const now = Date.UTC(2026, 10, 27, 4, 0);

  it("is tomorrow in the caller's state's main zone, not tomorrow in UTC", () => {
    expect(tomorrowIn(now, "America/Chicago")).toBe("2026-11-27");
    expect(tomorrowIn(now, "UTC")).toBe("2026-11-28");
    const texas = planCallback(now, "TX", "morning", 1);
    expect(texas).toEqual({
      kind: "callback",
      timeZone: "America/Chicago",
      window: { date: "2026-11-27", from: "08:00", to: "12:00" },
    });
    expect(planCallback(now, "FL", "evening", 1)).toMatchObject({
      timeZone: "America/New_York",
      window: { date: "2026-11-27", from: "17:00", to: "21:00" },
    });
    expect(planCallback(now, "HI", "afternoon", 1).timeZone).toBe("Pacific/Honolulu");
  });

  it("crosses a month and a year end", () => {
    expect(tomorrowIn(Date.UTC(2026, 11, 31, 20), "America/Los_Angeles")).toBe("2027-01-01");
    expect(tomorrowIn(Date.UTC(2026, 1, 28, 20), "America/New_York")).toBe("2026-03-01");
  });

  it("every 4th is an appointment at the slot's start, with no end", () => {
    const kinds = [1, 2, 3, 4, 5, 6, 7, 8].map((ordinal) => planCallback(now, "OH", "afternoon", ordinal).kind);
    expect(kinds).toEqual([
      "callback",
      "callback",
      "callback",
      "appointment",
      "callback",
      "callback",
      "callback",
      "appointment",
    ]);
    expect(planCallback(now, "OH", "afternoon", 4).window).toEqual({ date: "2026-11-27", from: "12:00" });
  });

  it("uses the hours of the buyers' morning, afternoon and evening preferences", () => {
    for (const slot of Object.keys(SLOT_MINUTES) as Slot[])
      expect(SLOT_MINUTES[slot]).toEqual(PREFERENCE_MINUTES[slot]);
  });

  it("draws each slot from the random number, the last for a number just under 1", () => {
    expect(drawSlot(() => 0)).toBe("morning");
    expect(drawSlot(() => 0.5)).toBe("afternoon");
    expect(drawSlot(() => 0.999_999)).toBe("evening");
  });

  it("makes a body and a window POST /api/v1/callbacks accepts, for each slot and kind", () => {
    const consent = {
      optInAt: new Date(now - 90_000).toISOString(),
      optInUrl: "https://example.com/final-expense-quote",
    };
    for (const slot of Object.keys(SLOT_MINUTES) as Slot[])
      for (const ordinal of [1, 4]) {
        const { kind, timeZone, window } = planCallback(now, "GA", slot, ordinal);
        const prospect = { firstName: "Mary", lastName: "Smith", phone: "4045550123", state: "GA", age: 70, timeZone };
        const parsed = callbackSchema.safeParse({ kind, prospect, window, consent });
        expect(parsed.error?.issues ?? []).toEqual([]);
        // …and the shop's window rules (not passed, not too long, not too far ahead) let it through.
        const instants = windowOf(kind, window, timeZone);
        expect(instants).not.toBeNull();
        if (instants) expect(windowProblem(instants, now)).toBeNull();
      }
  });
});
