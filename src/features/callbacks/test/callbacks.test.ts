/**
 * Call-back windows and allocation (src/features/callbacks/callbacks.ts): local times across zones and daylight-saving
 * changes, and the allocation rules under any order of arrivals, payments and the passing of time.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type CallbackPreference,
  type CallbackToPlace,
  callbackOrderTerms,
  chooseOrder,
  fitsPreference,
  localToInstant,
  type OpenCallbackOrder,
  PREFERENCE_MINUTES,
  prospectBuyerKey,
  SAME_PROSPECT_WINDOW_MS,
  windowOf,
  windowProblem,
} from "../callbacks";

const HOUR = 3_600_000;

describe("a window in the prospect's local time", () => {
  it.each([
    ["2026-07-01", 9 * 60, "America/New_York", "2026-07-01T13:00:00.000Z"],
    ["2026-12-01", 9 * 60, "America/New_York", "2026-12-01T14:00:00.000Z"],
    ["2026-07-01", 9 * 60, "America/Phoenix", "2026-07-01T16:00:00.000Z"],
    ["2026-12-01", 9 * 60, "America/Phoenix", "2026-12-01T16:00:00.000Z"],
    ["2026-07-01", 9 * 60, "Pacific/Honolulu", "2026-07-01T19:00:00.000Z"],
    // The spring-forward day: 09:00 is already daylight time; 01:30 is still standard time.
    ["2026-03-08", 9 * 60, "America/Chicago", "2026-03-08T14:00:00.000Z"],
    ["2026-03-08", 90, "America/Chicago", "2026-03-08T07:30:00.000Z"],
    // The fall-back day: 09:00 is standard time again.
    ["2026-11-01", 9 * 60, "America/Chicago", "2026-11-01T15:00:00.000Z"],
    ["2026-11-01", 23 * 60 + 59, "America/Los_Angeles", "2026-11-02T07:59:00.000Z"],
  ])("%s at minute %i in %s is %s", (day, minute, zone, iso) => {
    expect(new Date(localToInstant(day, minute, zone)).toISOString()).toBe(iso);
  });

  it("a call-back window spans the spring-forward change by its real length", () => {
    const window = windowOf("callback", { date: "2026-03-08", from: "01:00", to: "04:00" }, "America/New_York");
    expect(window && (window.windowEnd - window.windowStart) / HOUR).toBe(2);
  });

  it("an appointment holds 30 minutes; a call-back needs an end after its start", () => {
    const appointment = windowOf("appointment", { date: "2026-12-01", from: "15:30" }, "America/Denver");
    expect(appointment && appointment.windowEnd - appointment.windowStart).toBe(30 * 60_000);
    expect(windowOf("callback", { date: "2026-12-01", from: "15:30", to: "15:30" }, "America/Denver")).toBeNull();
    expect(windowOf("callback", { date: "2026-12-01", from: "15:30" }, "America/Denver")).toBeNull();
    expect(windowOf("callback", { date: "2026-12-01", from: "25:00", to: "26:00" }, "America/Denver")).toBeNull();
  });

  it("names what is wrong with a window at a moment", () => {
    const start = Date.parse("2026-12-01T15:00:00Z");
    const window = { windowStart: start, windowEnd: start + HOUR, timeZone: "America/Chicago" };
    expect(windowProblem(window, start - HOUR)).toBeNull();
    expect(windowProblem(window, start + 2 * HOUR)).toMatch(/passed/);
    expect(windowProblem({ ...window, windowEnd: start + 13 * HOUR }, start)).toMatch(/at most 12 hours/);
    expect(windowProblem(window, start - 31 * 24 * HOUR)).toMatch(/30 days ahead/);
  });

  it("fits a preference by the prospect's local hours, not the shop's", () => {
    // 09:00-10:00 in Los Angeles is 12:00-13:00 in New York: a morning there.
    const window = windowOf("callback", { date: "2026-12-01", from: "09:00", to: "10:00" }, "America/Los_Angeles");
    if (!window) throw new Error("no window");
    expect(fitsPreference(window, "morning")).toBe(true);
    expect(fitsPreference(window, "afternoon")).toBe(false);
    expect(fitsPreference(window, "anytime")).toBe(true);
    const evening = windowOf("callback", { date: "2026-12-01", from: "20:30", to: "22:00" }, "America/Chicago");
    if (!evening) throw new Error("no window");
    expect(fitsPreference(evening, "evening")).toBe(true);
    expect(fitsPreference(evening, "morning")).toBe(false);
  });

  it("reads an order's call-back terms from its form", () => {
    expect(callbackOrderTerms("survey", { leadType: "Call-Backs" })).toEqual({ states: null, preference: "anytime" });
    expect(
      callbackOrderTerms("ringcloud", {
        leadType: "call_backs",
        callbackPreference: "evening",
        workingStates: "tx, Florida",
      }),
    ).toEqual({
      states: ["TX", "FL"],
      preference: "evening",
    });
    expect(callbackOrderTerms("survey", { leadType: "Aged Leads" })).toBeNull();
    expect(callbackOrderTerms("transfer", { leadType: "Call-Backs" })).toBeNull();
  });
});

/** The model: events in any order, checked against the rules written out again, independently. */
type Event =
  | { type: "arrive"; state: string; phone: number; startHours: number; lengthHours: number }
  | { type: "pay"; quantity: number; buyer: number; states: string[] | null; preference: CallbackPreference }
  | { type: "tick"; hours: number };

const STATES = ["TX", "FL", "CA"];
const ZONE = "America/Chicago";
const event: fc.Arbitrary<Event> = fc.oneof(
  fc.record({
    type: fc.constant("arrive" as const),
    state: fc.constantFrom(...STATES),
    phone: fc.integer({ min: 0, max: 4 }),
    startHours: fc.integer({ min: 0, max: 72 }),
    lengthHours: fc.integer({ min: 1, max: 6 }),
  }),
  fc.record({
    type: fc.constant("pay" as const),
    quantity: fc.integer({ min: 1, max: 3 }),
    buyer: fc.integer({ min: 0, max: 2 }),
    states: fc.option(fc.subarray(STATES, { minLength: 1 }), { nil: null }),
    preference: fc.constantFrom(...(Object.keys(PREFERENCE_MINUTES) as CallbackPreference[])),
  }),
  fc.record({ type: fc.constant("tick" as const), hours: fc.integer({ min: 1, max: 48 }) }),
);

describe("allocation under any order of events", () => {
  it("never beyond the count, never twice to a buyer in 30 days, never after the window, oldest paid first", () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 60 }), (events) => {
        let now = Date.parse("2026-12-01T06:00:00Z");
        const orders: OpenCallbackOrder[] = [];
        const waiting: CallbackToPlace[] = [];
        const deliveries: { callback: CallbackToPlace; order: OpenCallbackOrder; at: number }[] = [];
        let ids = 0;
        const recent = () =>
          new Set(
            deliveries
              .filter((d) => d.at > now - SAME_PROSPECT_WINDOW_MS)
              .map((d) => prospectBuyerKey(d.order.userId, d.callback.phoneKey)),
          );
        const place = (callback: CallbackToPlace): boolean => {
          const order = chooseOrder(callback, orders, recent(), now);
          if (!order) return false;
          // The rules, checked here on their own terms.
          expect(now).toBeLessThan(callback.windowEnd);
          expect(order.delivered).toBeLessThan(order.quantity);
          expect(order.states === null || order.states.includes(callback.state)).toBe(true);
          expect(fitsPreference(callback, order.preference)).toBe(true);
          for (const d of deliveries)
            if (d.callback.phoneKey === callback.phoneKey && d.order.userId === order.userId)
              expect(d.at).toBeLessThanOrEqual(now - SAME_PROSPECT_WINDOW_MS);
          for (const older of orders)
            if (older.paidAt < order.paidAt && older.delivered < older.quantity)
              expect(
                (older.states === null || older.states.includes(callback.state)) &&
                  fitsPreference(callback, older.preference) &&
                  !deliveries.some(
                    (d) =>
                      d.callback.phoneKey === callback.phoneKey &&
                      d.order.userId === older.userId &&
                      d.at > now - SAME_PROSPECT_WINDOW_MS,
                  ),
              ).toBe(false);
          order.delivered += 1;
          deliveries.push({ callback, order, at: now });
          return true;
        };
        for (const e of events) {
          if (e.type === "tick") now += e.hours * HOUR;
          else if (e.type === "arrive") {
            const windowStart = now + e.startHours * HOUR;
            const callback = {
              id: `c${ids++}`,
              state: e.state,
              phoneKey: 3125550100 + e.phone,
              timeZone: ZONE,
              windowStart,
              windowEnd: windowStart + e.lengthHours * HOUR,
            };
            if (!place(callback)) waiting.push(callback);
          } else {
            orders.push({
              id: `o${ids++}`,
              userId: `b${e.buyer}`,
              paidAt: now,
              quantity: e.quantity,
              delivered: 0,
              states: e.states,
              preference: e.preference,
            });
            waiting.sort((a, b) => a.windowStart - b.windowStart);
            for (const callback of [...waiting]) if (place(callback)) waiting.splice(waiting.indexOf(callback), 1);
          }
        }
        for (const order of orders) {
          const count = deliveries.filter((d) => d.order === order).length;
          expect(count).toBe(order.delivered);
          expect(count).toBeLessThanOrEqual(order.quantity);
        }
        expect(new Set(deliveries.map((d) => d.callback.id)).size).toBe(deliveries.length);
      }),
      { numRuns: 200 },
    );
  });
});
