import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LOGIN_ATTEMPTS_PER_WINDOW, LOGIN_WINDOW_MS } from "../../../../src/features/accounts/auth-limits";
import { createBuyer, testDb } from "../../../../tests/worker/factories";
import { callApi, latestMailTo, login, requestResetToken, signedIn } from "../../../../tests/worker/helpers";
import { sessions } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { emails } from "../../../services/email-templates";
import { sendMail } from "../../../services/mail";
import { admitLoginAttempt } from "../login-throttle";

describe("login throttling (product rule 31)", () => {
  it("checks at most 10 of 40 parallel wrong passwords for one user; the rest answer 429", async () => {
    const user = await createBuyer(testDb());
    const headers = { "CF-Connecting-IP": "203.0.113.140" };
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        callApi("/api/login", { json: { username: user.username, password: "wrong-password" }, headers }),
      ),
    );
    const statuses = answers.map((response) => response.status);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(LOGIN_ATTEMPTS_PER_WINDOW);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(40 - LOGIN_ATTEMPTS_PER_WINDOW);
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
  });

  it("limits per username whatever the address, so spreading guesses over addresses does not help", async () => {
    const user = await createBuyer(testDb());
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        callApi("/api/login", { json: { username: user.username.toUpperCase(), password: "wrong-password" } }),
      ),
    );
    expect(answers.filter((response) => response.status === 401).length).toBeLessThanOrEqual(10);
    // Even the right password now waits for the lock to pass.
    const right = await callApi("/api/login", { json: { username: user.username, password: user.password } });
    expect(right.status).toBe(429);
    expect(await right.json()).toMatchObject({ message: expect.stringContaining("Too many attempts") });
  });

  it("backs off: each lockout in a row locks for twice as long", async () => {
    const attempt = { address: "203.0.113.141", username: `backoff-${crypto.randomUUID()}` };
    const lockLength = async (start: number) => {
      for (let i = 0; i < LOGIN_ATTEMPTS_PER_WINDOW; i++) await admitLoginAttempt(createDeps(env, start), attempt);
      const error = await admitLoginAttempt(createDeps(env, start), attempt).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: "RateLimitedError" });
      return (error as { details: { retryAfterSeconds: number } }).details.retryAfterSeconds * 1000;
    };
    const start = Date.now();
    const first = await lockLength(start);
    expect(first).toBe(LOGIN_WINDOW_MS);
    const second = await lockLength(start + first);
    expect(second).toBe(2 * LOGIN_WINDOW_MS);
    const third = await lockLength(start + first + second);
    expect(third).toBe(4 * LOGIN_WINDOW_MS);
    // Still locked inside the lock, free again after it.
    await expect(admitLoginAttempt(createDeps(env, start + first + second + third - 1), attempt)).rejects.toThrow(
      /Too many/,
    );
    await expect(admitLoginAttempt(createDeps(env, start + first + second + third), attempt)).resolves.toBeUndefined();
  });
});

describe("sessions (product rule 30)", () => {
  const age = (cookie: string, column: "created_at" | "last_seen_at", ms: number) =>
    testDb()
      .update(sessions)
      .set(column === "created_at" ? { createdAt: Date.now() - ms } : { lastSeenAt: Date.now() - ms })
      .where(eq(sessions.id, cookie.split("=")[1] ?? ""));
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;

  it("ends a buyer's session after 7 idle days, not before", async () => {
    const { cookie } = await signedIn();
    await age(cookie, "last_seen_at", 6 * DAY);
    expect((await callApi("/api/me", { cookie })).status).toBe(200);
    await age(cookie, "last_seen_at", 7 * DAY + 1000);
    const ended = await callApi("/api/me", { cookie });
    expect(ended.status).toBe(401);
    expect(ended.headers.getSetCookie().find((c) => c.startsWith("__Host-session="))).toMatch(/Max-Age=0/);
  });

  it("ends an admin's session after 12 idle hours", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    await age(cookie, "last_seen_at", 11 * HOUR);
    expect((await callApi("/api/me", { cookie })).status).toBe(200);
    await age(cookie, "last_seen_at", 12 * HOUR + 1000);
    expect((await callApi("/api/me", { cookie })).status).toBe(401);
  });

  it("ends every session 30 days after sign-in, however active", async () => {
    const { cookie } = await signedIn();
    await age(cookie, "created_at", 29 * DAY);
    expect((await callApi("/api/me", { cookie })).status).toBe(200);
    await age(cookie, "created_at", 30 * DAY + 1000);
    expect((await callApi("/api/me", { cookie })).status).toBe(401);
  });

  it("a request keeps the idle clock from running out", async () => {
    const { cookie } = await signedIn();
    await age(cookie, "last_seen_at", 6 * DAY);
    expect((await callApi("/api/me", { cookie })).status).toBe(200);
    const [row] = await testDb()
      .select({ lastSeenAt: sessions.lastSeenAt })
      .from(sessions)
      .where(eq(sessions.id, cookie.split("=")[1] ?? ""));
    expect(Date.now() - (row?.lastSeenAt ?? 0)).toBeLessThan(60_000);
  });

  it("does not accept the old cookie name", async () => {
    const { cookie } = await signedIn();
    expect((await callApi("/api/me", { cookie: `session=${cookie.split("=")[1]}` })).status).toBe(401);
  });
});

describe("logout cannot be forced by another site", () => {
  it.each([["cross-site"], ["same-site"], [undefined]])(
    "GET with Sec-Fetch-Site %s keeps the session and shows a Logout button that POSTs",
    async (fetchSite) => {
      const { cookie } = await signedIn();
      const response = await callApi("/api/logout", {
        cookie,
        headers: fetchSite ? { "Sec-Fetch-Site": fetchSite } : {},
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(response.headers.getSetCookie()).toEqual([]);
      const html = await response.text();
      expect(html).toMatch(/<form method="post" action="\/api\/logout">/);
      expect(html).toMatch(/<button type="submit">Logout<\/button>/);
      expect((await callApi("/api/me", { cookie })).status).toBe(200);
    },
  );

  it("a typed address (Sec-Fetch-Site: none) signs out", async () => {
    const { cookie } = await signedIn();
    const response = await callApi("/api/logout", { cookie, headers: { "Sec-Fetch-Site": "none" } });
    expect(response.status).toBe(302);
    expect((await callApi("/api/me", { cookie })).status).toBe(401);
  });

  it("the page's POST signs out; a POST from another origin does not", async () => {
    const { cookie } = await signedIn();
    const foreign = await callApi("/api/logout", {
      method: "POST",
      cookie,
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(foreign.status).toBe(403);
    expect((await callApi("/api/me", { cookie })).status).toBe(200);
    const own = await callApi("/api/logout", {
      method: "POST",
      cookie,
      headers: { Origin: "http://localhost", "Sec-Fetch-Site": "same-origin", "Content-Length": "0" },
    });
    expect(own.status).toBe(303);
    expect(own.headers.get("location")).toBe("/login");
    expect((await callApi("/api/me", { cookie })).status).toBe(401);
  });
});

describe("reset links are never stored or logged in plain text (product rule 32)", () => {
  afterEach(() => vi.restoreAllMocks());

  it("the outbox keeps a redacted copy; the development console shows the working link", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const user = await createBuyer(testDb());
    await callApi("/api/forgot-password", { json: { email: user.email } });
    const printed = log.mock.calls.map((call) => String(call[0])).find((line) => line.includes(user.email)) ?? "";
    const token = /reset-password\?token=([\w-]+)/.exec(printed)?.[1] ?? "";
    expect(token.length).toBeGreaterThanOrEqual(43);
    const stored = await latestMailTo(user.email);
    expect(stored?.text).not.toContain(token);
    expect(stored?.text).not.toContain("reset-password?token=");
    expect(stored?.text).toContain("[link removed from the stored copy]");
    expect(await (await callApi("/api/validate-reset-token", { json: { token } })).json()).toEqual({ valid: true });
  });

  it("outside development the console gets the redacted copy too", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const linkPath = `/reset-password?token=${crypto.randomUUID()}`;
    const secret = `https://shop.example.com${linkPath}`;
    const to = `redact-${crypto.randomUUID()}@example.com`;
    await sendMail(
      createDeps({ ...env, APP_ENV: "production", MAIL_API_URL: "" }),
      to,
      emails.passwordReset("https://shop.example.com", { name: "Pat", linkPath }),
    );
    expect(log.mock.calls.flat().join("\n")).not.toContain(secret);
    const stored = (await latestMailTo(to))?.text ?? "";
    expect(stored).not.toContain(linkPath);
    expect(stored).toContain("\n[link removed from the stored copy]\n");
  });
});

describe("headers (product rule 43)", () => {
  it("turn off camera, microphone and geolocation", async () => {
    const response = await callApi("/api/health");
    expect(response.headers.get("permissions-policy")).toBe("camera=(), microphone=(), geolocation=()");
  });

  it("the CSP allows Stripe's Payment Element sources and nothing broader", async () => {
    const csp = (await callApi("/api/health")).headers.get("content-security-policy") ?? "";
    const directive = (name: string) =>
      csp
        .split(";")
        .map((part) => part.trim().split(/\s+/))
        .find(([key]) => key === name)
        ?.slice(1) ?? [];
    expect(directive("script-src").filter((source) => source.includes("stripe"))).toEqual([
      "https://js.stripe.com",
      "https://*.js.stripe.com",
    ]);
    expect(directive("frame-src").filter((source) => source.includes("stripe"))).toEqual([
      "https://js.stripe.com",
      "https://*.js.stripe.com",
      "https://hooks.stripe.com",
    ]);
    expect(directive("connect-src")).toEqual(["'self'", "https://api.stripe.com"]);
    expect(directive("img-src")).toEqual(["'self'", "data:"]);
    expect(csp).not.toMatch(/https:\/\/\*\.stripe\.com/);
  });
});

describe("passwords (product rule 29)", () => {
  it("reset-password refuses a common password and keeps the link usable", async () => {
    const user = await createBuyer(testDb());
    const token = await requestResetToken(user.email);
    const common = await callApi("/api/reset-password", { json: { token, password: "football" } });
    expect(common.status).toBe(400);
    expect(await common.json()).toMatchObject({ message: "This password is too common. Please choose another." });
    expect(await (await callApi("/api/validate-reset-token", { json: { token } })).json()).toEqual({ valid: true });
    await login(user);
  });
});
