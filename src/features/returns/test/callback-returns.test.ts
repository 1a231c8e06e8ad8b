/**
 * The call-back return period (docs/decisions/0062): a call-back marked no answer or wrong number can be
 * returned from the moment its window ends until 24 hours after, both included; never one reached or
 * not marked.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CALLBACK_OUTCOMES, callbackReturnBy } from "../../callbacks/callback-outcomes";
import {
  CALLBACK_RETURN_MESSAGES,
  callbackReturnProblem,
  UNREACHED_OUTCOMES,
  withinCallbackReturnPeriod,
} from "../callback-returns";

const HOUR = 3_600_000;
const instant = fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2030, 0, 1) });

describe("the call-back return period", () => {
  it("is open exactly from the window's end to 24 hours after, whatever the times", () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: -72 * HOUR, max: 72 * HOUR }), (windowEnd, offset) => {
        const now = windowEnd + offset;
        expect(withinCallbackReturnPeriod(windowEnd, now)).toBe(offset >= 0 && offset <= 24 * HOUR);
      }),
    );
  });

  it("includes both ends and nothing a millisecond outside", () => {
    const end = Date.UTC(2026, 10, 27, 15);
    expect(callbackReturnBy(end)).toBe(end + 24 * HOUR);
    expect(withinCallbackReturnPeriod(end, end - 1)).toBe(false);
    expect(withinCallbackReturnPeriod(end, end)).toBe(true);
    expect(withinCallbackReturnPeriod(end, end + 24 * HOUR)).toBe(true);
    expect(withinCallbackReturnPeriod(end, end + 24 * HOUR + 1)).toBe(false);
  });

  it("takes only an unreached outcome, and then only within the period", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(null, ...CALLBACK_OUTCOMES),
        instant,
        fc.integer({ min: -48 * HOUR, max: 48 * HOUR }),
        (outcome, windowEnd, offset) => {
          const problem = callbackReturnProblem({ outcome, windowEnd }, windowEnd + offset);
          if (outcome === null || !UNREACHED_OUTCOMES.includes(outcome))
            expect(problem).toBe(CALLBACK_RETURN_MESSAGES.notUnreached);
          else if (offset < 0 || offset > 24 * HOUR) expect(problem).toBe(CALLBACK_RETURN_MESSAGES.period);
          else expect(problem).toBeNull();
        },
      ),
    );
  });

  it("names no answer and wrong number as the unreached outcomes", () => {
    expect([...UNREACHED_OUTCOMES].sort()).toEqual(["no_answer", "wrong_number"]);
  });
});
