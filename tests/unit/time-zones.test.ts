/**
 * `localTime` remembers its answers for the minute last asked (routing asks it for every candidate order):
 * asked in any order, across minute and day boundaries, in every US zone, it answers what formatting the
 * moment afresh answers.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { localTime, US_TIME_ZONES } from "../../src/domain/time-zones";

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** The same answer, formatted afresh with nothing remembered. */
function fresh(now: number, timeZone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      weekday: "short",
    })
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  );
  return {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    weekday: WEEKDAYS.indexOf(parts.weekday ?? ""),
    minute: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

describe("localTime", () => {
  it("answers as formatting afresh, asked in any order around minute, day and DST boundaries", () => {
    // 2026-03-08 (DST starts), 2026-11-01 (DST ends), a New Year's Eve: each at midnight UTC.
    const anchors = [Date.UTC(2026, 2, 8, 7), Date.UTC(2026, 10, 1, 6), Date.UTC(2026, 11, 31, 23)];
    const moment = fc
      .tuple(fc.constantFrom(...anchors), fc.integer({ min: -3 * 3_600_000, max: 3 * 3_600_000 }))
      .map(([anchor, offset]) => anchor + offset);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(moment, fc.constantFrom(...US_TIME_ZONES)), { minLength: 1, maxLength: 40 }),
        (asks) => {
          for (const [now, zone] of asks) expect(localTime(now, zone)).toEqual(fresh(now, zone));
        },
      ),
    );
  });

  it("answers the same minute twice from memory, and a frozen answer no caller can change", () => {
    const now = Date.UTC(2026, 5, 1, 15, 30, 10);
    const first = localTime(now, "America/Chicago");
    expect(localTime(now + 20_000, "America/Chicago")).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(localTime(now + 60_000, "America/Chicago").minute).toBe(first.minute + 1);
  });
});
