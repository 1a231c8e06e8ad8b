/** The calling status line (docs/decisions/0070): "Callable now" or from the next allowed moment in the lead's zone. */
import { describe, expect, it } from "vitest";
import { CALLABLE_NOW, callableLabel, NOT_CALLABLE_SOON } from "../../src/domain/callable";
import { formatWeekdayTimeIn } from "../../src/domain/format";

/** Sunday 2027-03-07, 10:00 am in Chicago. */
const SUNDAY_MORNING = Date.UTC(2027, 2, 7, 16);

describe("callableLabel", () => {
  it("says callable now when the window is open, whatever the next moment", () => {
    expect(callableLabel(true, null, "America/Chicago", SUNDAY_MORNING)).toBe(CALLABLE_NOW);
    expect(CALLABLE_NOW).toBe("Callable now");
  });

  it("names the weekday and the clock in the lead's zone within the coming week", () => {
    expect(callableLabel(false, Date.UTC(2027, 2, 7, 19), "America/Chicago", SUNDAY_MORNING)).toBe(
      "Callable from Sun 1:00 PM CST",
    );
    expect(callableLabel(false, Date.UTC(2027, 2, 11, 15), "America/Chicago", SUNDAY_MORNING)).toBe(
      "Callable from Thu 9:00 AM CST",
    );
    expect(callableLabel(false, Date.UTC(2027, 2, 7, 19), "America/Denver", SUNDAY_MORNING)).toBe(
      "Callable from Sun 12:00 PM MST",
    );
  });

  it("adds the date when the moment is six days away or more (a weekday alone would be ambiguous)", () => {
    expect(callableLabel(false, Date.UTC(2027, 2, 13, 17), "America/Chicago", SUNDAY_MORNING)).toBe(
      "Callable from Sat, Mar 13, 11:00 AM CST",
    );
  });

  it("says so when no moment is allowed within the search", () => {
    expect(callableLabel(false, null, "America/Chicago", SUNDAY_MORNING)).toBe(NOT_CALLABLE_SOON);
  });
});

describe("formatWeekdayTimeIn", () => {
  it("writes the weekday and the clock without a comma, in the zone's daylight time too", () => {
    expect(formatWeekdayTimeIn(Date.UTC(2027, 6, 1, 13), "America/New_York")).toBe("Thu 9:00 AM EDT");
  });
});
