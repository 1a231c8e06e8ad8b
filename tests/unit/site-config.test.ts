import { describe, expect, it } from "vitest";
import { bookingUrlFrom } from "../../src/config/site";

describe("bookingUrlFrom (PUBLIC_BOOKING_URL)", () => {
  it("keeps an https address", () => {
    expect(bookingUrlFrom(" https://cal.example.com/team/intro ")).toBe("https://cal.example.com/team/intro");
  });
  it.each([undefined, "", "   ", "not a url", "http://cal.example.com/x", "javascript:alert(1)", 42])(
    "gives null for %j, so the landing page shows phone and e-mail",
    (value) => {
      expect(bookingUrlFrom(value)).toBeNull();
    },
  );
});
