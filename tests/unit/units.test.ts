import { describe, expect, it } from "vitest";
import { countOf, megabytes } from "../../src/domain/units";

describe("numbers in UI text", () => {
  it("names one of a unit in the singular and any other count in the plural", () => {
    expect(countOf(1, "hour")).toBe("1 hour");
    expect(countOf(15, "minute")).toBe("15 minutes");
    expect(countOf(0, "lead")).toBe("0 leads");
    expect(countOf(1000, "row")).toBe("1,000 rows");
  });
  it("states a byte limit in megabytes", () => {
    expect(megabytes(10 * 1024 * 1024)).toBe("10 MB");
    expect(megabytes(1.5 * 1024 * 1024)).toBe("1.5 MB");
  });
});
