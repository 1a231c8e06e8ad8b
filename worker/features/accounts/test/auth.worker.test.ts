import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createBuyer, testDb } from "../../../../tests/worker/factories";
import {
  callApi,
  latestMailTo,
  login,
  requestResetToken,
  sessionCookie,
  signedIn,
} from "../../../../tests/worker/helpers";
import { singleUseLinks } from "../../../db/schema";

describe("POST /api/login", () => {
  it("signs in and answers the user without any secret, with a __Host- session cookie", async () => {
    const user = await createBuyer(testDb());
    const response = await callApi("/api/login", { json: { username: user.username, password: user.password } });
    expect(response.status).toBe(200);
    const body = await response.json<Record<string, unknown>>();
    expect(body).toMatchObject({ id: user.id, username: user.username, email: user.email, isAdmin: false });
    expect(JSON.stringify(body)).not.toMatch(/password|pbkdf2/i);
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith("__Host-session=")) ?? "";
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Secure/i); // everywhere, localhost included: the __Host- prefix requires it
    expect(cookie).toMatch(/; Path=\/(;|$)/);
    expect(cookie).not.toMatch(/Domain=/i);
  });

  it("sets the same Secure __Host- cookie on a real host", async () => {
    const user = await createBuyer(testDb());
    const response = await callApi("https://shop.example.com/api/login", {
      json: { username: user.username, password: user.password },
    });
    expect(response.headers.getSetCookie().find((c) => c.startsWith("__Host-session="))).toMatch(/Secure/);
  });

  it("accepts the username in any letter case", async () => {
    const user = await createBuyer(testDb());
    const response = await callApi("/api/login", {
      json: { username: user.username.toUpperCase(), password: user.password },
    });
    expect(response.status).toBe(200);
  });

  it("answers the same 401 for an unknown user and a wrong password", async () => {
    const user = await createBuyer(testDb());
    const wrongPassword = await callApi("/api/login", { json: { username: user.username, password: "nope-nope" } });
    const unknownUser = await callApi("/api/login", { json: { username: "nobody-here", password: "nope-nope" } });
    for (const response of [wrongPassword, unknownUser]) {
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ message: "Invalid credentials" });
      expect(response.headers.getSetCookie()).toEqual([]);
    }
  });

  it.each([
    [{ password: "x" }, "Username is required"],
    [{ username: "  ", password: "x" }, "Username is required"],
    [{ username: "someone" }, "Password is required"],
    [{ username: "someone", password: "" }, "Password is required"],
    [{ username: 42, password: "x" }, expect.any(String)],
  ])("refuses %j with 400 '%s'", async (json, message) => {
    const response = await callApi("/api/login", { json });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ message });
  });

  it("answers malformed JSON with a readable 400", async () => {
    const response = await callApi("/api/login", {
      body: "{not json",
      headers: { "Content-Type": "application/json" },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: expect.stringMatching(/JSON/) });
  });

  it("locks out an address after 10 attempts a minute, with a readable 429", async () => {
    const headers = { "CF-Connecting-IP": "203.0.113.77" };
    for (let attempt = 1; attempt <= 10; attempt++) {
      const other = await createBuyer(testDb());
      const response = await callApi("/api/login", { json: { username: other.username, password: "wrong" }, headers });
      expect(response.status).toBe(401);
    }
    const user = await createBuyer(testDb());
    const blocked = await callApi("/api/login", {
      json: { username: user.username, password: user.password },
      headers,
    });
    expect(blocked.status).toBe(429);
    expect(await blocked.json()).toMatchObject({ message: expect.stringContaining("Too many attempts") });
    const otherAddress = await callApi("/api/login", { json: { username: user.username, password: user.password } });
    expect(otherAddress.status).toBe(200);
  });

  it("never locks out correct sign-ins from one address", async () => {
    const user = await createBuyer(testDb());
    const headers = { "CF-Connecting-IP": "203.0.113.78" };
    for (let attempt = 1; attempt <= 12; attempt++) {
      const response = await callApi("/api/login", {
        json: { username: user.username, password: user.password },
        headers,
      });
      expect(response.status).toBe(200);
    }
  });
});

describe("GET /api/me and GET /api/logout", () => {
  it("/api/me answers the signed-in user, 401 without a session", async () => {
    const { user, cookie } = await signedIn();
    const me = await callApi("/api/me", { cookie });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ id: user.id, username: user.username });
    expect((await callApi("/api/me")).status).toBe(401);
    expect((await callApi("/api/me", { cookie: "__Host-session=forged" })).status).toBe(401);
  });

  it("logout from the site itself ends the session on the server, clears the cookie and redirects to /login", async () => {
    const { cookie } = await signedIn();
    const response = await callApi("/api/logout", { cookie, headers: { "Sec-Fetch-Site": "same-origin" } });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login");
    expect(response.headers.getSetCookie().find((c) => c.startsWith("__Host-session="))).toMatch(/Max-Age=0/);
    expect((await callApi("/api/me", { cookie })).status).toBe(401);
  });

  it("logout without a session still redirects", async () => {
    const response = await callApi("/api/logout", { headers: { "Sec-Fetch-Site": "none" } });
    expect(response.status).toBe(302);
  });
});

describe("password recovery", () => {
  it("forgot-password answers the same for known and unknown addresses and mails a working link", async () => {
    const user = await createBuyer(testDb());
    const known = await callApi("/api/forgot-password", { json: { email: user.email } });
    const unknown = await callApi("/api/forgot-password", { json: { email: "nobody@example.com" } });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(await known.json()).toEqual(await unknown.json());
    expect(await latestMailTo("nobody@example.com")).toBeNull();

    const mail = await latestMailTo(user.email);
    expect(mail?.subject).toBe("Reset your password");
    expect(mail?.text).toContain("1 hour");
    const token = await requestResetToken(user.email);
    expect(token.length).toBeGreaterThanOrEqual(43);
    const [stored] = await testDb()
      .select({ tokenHash: singleUseLinks.tokenHash })
      .from(singleUseLinks)
      .where(and(eq(singleUseLinks.userId, user.id), eq(singleUseLinks.purpose, "password_reset")));
    expect(stored?.tokenHash).not.toBe(token);

    expect(await (await callApi("/api/validate-reset-token", { json: { token } })).json()).toEqual({ valid: true });
  });

  it("forgot-password refuses an invalid e-mail", async () => {
    const response = await callApi("/api/forgot-password", { json: { email: "not-an-email" } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ message: "Please enter a valid email address" });
  });

  it("forgot-password is limited to 10 a minute per address", async () => {
    const headers = { "CF-Connecting-IP": "203.0.113.90" };
    for (let i = 0; i < 10; i++) {
      expect((await callApi("/api/forgot-password", { json: { email: "x@example.com" }, headers })).status).toBe(200);
    }
    const blocked = await callApi("/api/forgot-password", { json: { email: "x@example.com" }, headers });
    expect(blocked.status).toBe(429);
  });

  it("reset-password sets the new password once, ends every session and refuses reuse", async () => {
    const user = await createBuyer(testDb());
    const oldSession = await login(user);
    const token = await requestResetToken(user.email);

    const tooShort = await callApi("/api/reset-password", { json: { token, password: "short" } });
    expect(tooShort.status).toBe(400);
    expect(await tooShort.json()).toMatchObject({ message: "Password must be at least 8 characters" });

    const reset = await callApi("/api/reset-password", { json: { token, password: "brand-new-password" } });
    expect(reset.status).toBe(200);
    expect((await callApi("/api/me", { cookie: oldSession })).status).toBe(401);
    expect((await callApi("/api/login", { json: { username: user.username, password: user.password } })).status).toBe(
      401,
    );
    await login({ username: user.username, password: "brand-new-password" });

    const reuse = await callApi("/api/reset-password", { json: { token, password: "another-password" } });
    expect(reuse.status).toBe(400);
    expect(await reuse.json()).toEqual({ message: "This password reset link is invalid or has expired" });
    expect(await (await callApi("/api/validate-reset-token", { json: { token } })).json()).toEqual({ valid: false });
  });

  it("refuses an expired token", async () => {
    const user = await createBuyer(testDb());
    const token = await requestResetToken(user.email);
    await testDb()
      .update(singleUseLinks)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(and(eq(singleUseLinks.userId, user.id), eq(singleUseLinks.purpose, "password_reset")));
    expect(await (await callApi("/api/validate-reset-token", { json: { token } })).json()).toEqual({ valid: false });
    expect((await callApi("/api/reset-password", { json: { token, password: "brand-new-password" } })).status).toBe(
      400,
    );
  });

  it("treats unknown and missing tokens as invalid", async () => {
    expect(await (await callApi("/api/validate-reset-token", { json: { token: "made-up" } })).json()).toEqual({
      valid: false,
    });
    const missing = await callApi("/api/validate-reset-token", { json: {} });
    expect(missing.status).toBe(400);
    expect((await callApi("/api/reset-password", { json: { token: "made-up", password: "long-enough" } })).status).toBe(
      400,
    );
  });
});

describe("CSRF and request hygiene", () => {
  it("refuses a state-changing request from another origin", async () => {
    const user = await createBuyer(testDb());
    const json = { username: user.username, password: user.password };
    const foreign = await callApi("/api/login", { json, headers: { Origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    const crossSite = await callApi("/api/login", { json, headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    const sameSite = await callApi("/api/login", {
      json,
      headers: { Origin: "http://localhost", "Sec-Fetch-Site": "same-origin" },
    });
    expect(sameSite.status).toBe(200);
  });

  it("refuses a form-encoded body on a JSON endpoint", async () => {
    const response = await callApi("/api/login", {
      body: "username=a&password=b",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ message: expect.stringContaining("JSON") });
  });

  it("refuses oversized bodies with 413", async () => {
    const response = await callApi("/api/login", { json: { username: "a", password: "x".repeat(3 * 1024 * 1024) } });
    expect(response.status).toBe(413);
  });

  it("never shows a password hash in any account response", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    for (const path of ["/api/me", "/api/users"]) {
      const text = await (await callApi(path, { cookie })).text();
      expect(text).not.toMatch(/pbkdf2|password_hash|passwordHash/);
    }
  });

  it("the session cookie from login is what the API accepts", async () => {
    const user = await createBuyer(testDb());
    const response = await callApi("/api/login", { json: { username: user.username, password: user.password } });
    expect((await callApi("/api/me", { cookie: sessionCookie(response) })).status).toBe(200);
  });
});
