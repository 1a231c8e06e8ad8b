import { describe, expect, it } from "vitest";
import { phoneDigits } from "../../../domain/phone";
import { leadDedupeKey } from "../leads";

describe("lead duplicate key (product rule 15)", () => {
  it("ignores phone punctuation", () => {
    expect(phoneDigits("(214) 555-0101")).toBe("2145550101");
    expect(leadDedupeKey("(214) 555-0101", 1_700_000_000_000)).toBe(
      leadDedupeKey("214.555.0101", new Date(1_700_000_000_000)),
    );
  });
  it("tells different form fill times apart and treats a missing one as its own value", () => {
    expect(leadDedupeKey("2145550101", 1)).not.toBe(leadDedupeKey("2145550101", 2));
    expect(leadDedupeKey("2145550101", null)).toBe("2145550101|");
  });
});
