/** The login's message for the next page, carried by a one-time cookie (src/features/accounts/flash.ts). */
import { describe, expect, it } from "vitest";
import { clearFlashCookie, flashCookie, flashNamed } from "../flash";

describe("flash messages", () => {
  it("the login's message is the spec's text", () => {
    expect(flashNamed("login")).toMatchObject({ title: "Login Successful", description: "Welcome back!" });
  });

  it("names nothing for an unknown or inherited value", () => {
    expect(flashNamed(undefined)).toBeNull();
    expect(flashNamed("toString")).toBeNull();
    expect(flashNamed("<script>")).toBeNull();
  });

  it("is HttpOnly and short-lived, Secure over https, and removed with Max-Age=0", () => {
    const https = new URL("https://shop.example.com/login");
    expect(flashCookie("login", https)).toBe("flash=login; Max-Age=60; Path=/; HttpOnly; SameSite=Lax; Secure");
    expect(flashCookie("login", new URL("http://localhost:8787/login"))).not.toContain("Secure");
    expect(clearFlashCookie(https)).toBe("flash=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure");
  });
});
