import { describe, expect, it } from "vitest";
import { packageName } from "../../transfers/order-progress";
import { balanceToApply, RETURN_REASONS, returnBy, returnCap, returnsRemaining, withinReturnWindow } from "../returns";
import { createReturnSchema, returnDecisionSchema, trackerQuerySchema } from "../schemas/returns";

const HOUR = 3_600_000;

describe("return windows", () => {
  it("takes a transfer back up to 72 hours after delivery", () => {
    expect(withinReturnWindow("transfer", 0, 71 * HOUR)).toBe(true);
    expect(withinReturnWindow("transfer", 0, 72 * HOUR)).toBe(true);
    expect(withinReturnWindow("transfer", 0, 72 * HOUR + 1)).toBe(false);
    expect(returnBy("transfer", 1000)).toBe(1000 + 72 * HOUR);
  });

  it("takes an aged lead back up to 7 days after purchase", () => {
    expect(withinReturnWindow("aged_lead", 0, 7 * 24 * HOUR)).toBe(true);
    expect(withinReturnWindow("aged_lead", 0, 7 * 24 * HOUR + 1)).toBe(false);
  });
});

describe("the 20 % cap", () => {
  it("rounds down and never goes below zero", () => {
    expect([0, 4, 5, 9, 10, 14, 15].map(returnCap)).toEqual([0, 0, 1, 1, 2, 2, 3]);
    expect(returnsRemaining(10, 1)).toBe(1);
    expect(returnsRemaining(10, 2)).toBe(0);
    expect(returnsRemaining(5, 3)).toBe(0);
  });
});

describe("the balance at checkout", () => {
  it("pays at most the balance and at most the total", () => {
    expect(balanceToApply(300, 1000)).toBe(300);
    expect(balanceToApply(1500, 1000)).toBe(1000);
    expect(balanceToApply(0, 1000)).toBe(0);
    expect(balanceToApply(-50, 1000)).toBe(0);
  });
});

describe("request schemas", () => {
  it("needs a text for 'other' only, at most 500 characters", () => {
    expect(RETURN_REASONS.map((reason) => reason.value)).toContain("other");
    expect(createReturnSchema.safeParse({ kind: "transfer", itemId: "t", reason: "duplicate" }).success).toBe(true);
    const other = createReturnSchema.safeParse({ kind: "transfer", itemId: "t", reason: "other", reasonText: " " });
    expect(other.success).toBe(false);
    const long = createReturnSchema.safeParse({
      kind: "aged_lead",
      itemId: "l",
      reason: "other",
      reasonText: "x".repeat(501),
    });
    expect(long.success).toBe(false);
  });

  it("needs a note to deny, not to approve", () => {
    expect(returnDecisionSchema.safeParse({ decision: "approved" }).success).toBe(true);
    expect(returnDecisionSchema.safeParse({ decision: "denied" }).success).toBe(false);
    expect(returnDecisionSchema.safeParse({ decision: "denied", note: "Long call" }).success).toBe(true);
  });

  it("reads tracker filters from the query string", () => {
    expect(trackerQuerySchema.parse({ from: "2026-03-04", billable: "true" })).toEqual({
      from: "2026-03-04",
      billable: "true",
      page: 1,
    });
    expect(trackerQuerySchema.safeParse({ from: "2026-13-45" }).success).toBe(false);
    expect(trackerQuerySchema.safeParse({ to: "03/04/2026" }).success).toBe(false);
  });
});

describe("package names", () => {
  it("names the count and the tier, or where the order came from", () => {
    expect(packageName("package", "premium", 50)).toBe("50 live transfers · Premium");
    expect(packageName("survey", null, 1)).toBe("1 live transfer · Survey order");
  });
});
