import { describe, expect, it } from "vitest";
import { safeNextPath } from "../safe-redirect";

const origin = "https://shop.example.com";
/** What the login page reads: the query parameter, decoded as URLSearchParams decodes it. */
const nextParam = (raw: string) => new URLSearchParams(`next=${raw}`).get("next");

describe("safeNextPath (login's `next`)", () => {
  it.each([
    ["/%09/evil.example"],
    ["//evil.example"],
    ["/\\evil.example"],
    ["/%5Cevil.example"],
    ["https://evil.example"],
    ["https://evil.example/dashboard"],
    ["javascript:alert(1)"],
    ["%20//evil.example"],
    ["/.//evil.example"],
    ["http://shop.example.com/dashboard"],
  ])("refuses %s", (raw) => {
    expect(safeNextPath(nextParam(raw), origin)).toBeNull();
  });

  it.each([
    ["/dashboard", "/dashboard"],
    ["%2Fdashboard", "/dashboard"],
    ["/transfer-checkout?order=1%26x", "/transfer-checkout?order=1&x"],
    ["https://shop.example.com/admin-orders#top", "/admin-orders#top"],
  ])("follows %s to %s", (raw, path) => {
    expect(safeNextPath(nextParam(raw), origin)).toBe(path);
  });

  it("gives null when there is no next", () => {
    expect(safeNextPath(null, origin)).toBeNull();
    expect(safeNextPath("", origin)).toBeNull();
  });
});
