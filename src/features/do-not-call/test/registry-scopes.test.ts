/**
 * docs/decisions/0084: which registry copies apply to a number: the national one always, a state's own list
 * for a number of that state (the eleven states that keep one), the lead's state first, else its area code's.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { US_STATE_CODES } from "../../../domain/us-states";
import { isStateDncState, numberState, registryListOf, registryScopesFor, STATE_DNC_STATES } from "../registry-scopes";

describe("the registry copies a number is checked against", () => {
  it("the eleven states with their own list", () => {
    expect([...STATE_DNC_STATES].sort()).toEqual(["CO", "FL", "IN", "LA", "MA", "MO", "OK", "PA", "TN", "TX", "WY"]);
    expect(registryScopesFor("TX")).toEqual(["national", "TX"]);
    expect(registryScopesFor("NY")).toEqual(["national"]);
    expect(registryScopesFor(null)).toEqual(["national"]);
  });

  it("the lead's own state first, else the area code's, else none", () => {
    expect(numberState("tx", () => "OK")).toBe("TX");
    expect(numberState("", () => "OK")).toBe("OK");
    expect(numberState(undefined, () => null)).toBeNull();
    // A state that is not two letters (a test's made-up location) falls back to the area code.
    expect(numberState("QX1", () => "CO")).toBe("CO");
  });

  it("names each copy's list: national_dnc, or state_dnc with its state", () => {
    expect(registryListOf("national")).toMatchObject({ kind: "national_dnc", state: null });
    expect(registryListOf("FL")).toMatchObject({ kind: "state_dnc", state: "FL" });
  });

  it("property: suppressed exactly when the national copy or the number's own state's copy holds it", () => {
    const key = fc.integer({ min: 2_000_000_000, max: 2_000_000_050 });
    fc.assert(
      fc.property(
        fc.uniqueArray(key, { maxLength: 30 }),
        fc.dictionary(fc.constantFrom(...US_STATE_CODES), fc.uniqueArray(key, { maxLength: 30 })),
        fc.array(fc.tuple(key, fc.option(fc.constantFrom(...US_STATE_CODES), { nil: null })), { maxLength: 60 }),
        fc.constantFrom(...US_STATE_CODES),
        (national, states, probes, areaState) => {
          const copies = new Map<string, Set<number>>([
            ["national", new Set(national)],
            ...Object.entries(states).map(([state, keys]) => [state, new Set(keys)] as [string, Set<number>]),
          ]);
          for (const [probe, state] of probes) {
            const own = numberState(state, () => areaState) ?? "";
            const expected = national.includes(probe) || (isStateDncState(own) && (states[own] ?? []).includes(probe));
            const verdict = registryScopesFor(own).some((scope) => copies.get(scope)?.has(probe));
            if (verdict !== expected) return false;
          }
          return true;
        },
      ),
    );
  });
});
