/**
 * Session refresh (lucia 3 behind worker/services/sessions.ts): a session in the second
 * half of its lifetime is extended on use and the answer sets a fresh cookie for the same session; a
 * session whose expiry has passed is refused, deleted and its cookie cleared.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SESSION_ABSOLUTE_MS } from "../../../../src/features/accounts/auth-limits";
import { testDb } from "../../../../tests/worker/factories";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import { sessions } from "../../../db/schema";
import { SESSION_COOKIE } from "../../../services/sessions";

const DAY = 86_400_000;
const idOf = (cookie: string) => cookie.split("=")[1] ?? "";

/** lucia stores the expiry in whole seconds. */
async function setExpiry(sessionId: string, at: number) {
  await testDb()
    .update(sessions)
    .set({ expiresAt: Math.floor(at / 1000) })
    .where(eq(sessions.id, sessionId));
}

async function expiry(sessionId: string): Promise<number | null> {
  const [row] = await testDb()
    .select({ expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(eq(sessions.id, sessionId));
  return row ? row.expiresAt * 1000 : null;
}

const sessionSetCookie = (response: Response) =>
  response.headers.getSetCookie().find((value) => value.startsWith(`${SESSION_COOKIE}=`));

describe("session refresh", () => {
  it("a session before its refresh point is used as is: no new cookie, same expiry", async () => {
    const { cookie } = await signedIn();
    const before = await expiry(idOf(cookie));
    const response = await callApi("/api/me", { cookie });
    expect(response.status).toBe(200);
    expect(sessionSetCookie(response)).toBeUndefined();
    expect(await expiry(idOf(cookie))).toBe(before);
  });

  it("a session past its refresh point is extended and the answer sets a new cookie for it", async () => {
    const { cookie } = await signedIn();
    const sessionId = idOf(cookie);
    // Less than half of the lifetime left: lucia's refresh point.
    await setExpiry(sessionId, Date.now() + SESSION_ABSOLUTE_MS / 2 - DAY);

    const response = await callApi("/api/me", { cookie });
    expect(response.status).toBe(200);
    const refreshed = sessionSetCookie(response);
    expect(refreshed).toBeDefined();
    expect(refreshed?.split(";")[0]).toBe(cookie);
    expect(refreshed).toMatch(new RegExp(`Max-Age=${SESSION_ABSOLUTE_MS / 1000}(;|$)`));
    expect(refreshed).toMatch(/HttpOnly/);
    expect(refreshed).toMatch(/Secure/);
    expect(refreshed).toMatch(/SameSite=Lax/i);
    // The stored expiry moved a whole lifetime ahead (give or take the test's own run time).
    expect(Math.abs(((await expiry(sessionId)) ?? 0) - (Date.now() + SESSION_ABSOLUTE_MS))).toBeLessThan(60_000);

    // The extended session goes on working, without another refresh.
    const next = await callApi("/api/me", { cookie });
    expect(next.status).toBe(200);
    expect(sessionSetCookie(next)).toBeUndefined();
  });

  it("an expired session is refused, deleted, and its cookie cleared", async () => {
    const { cookie } = await signedIn();
    const sessionId = idOf(cookie);
    await setExpiry(sessionId, Date.now() - 1000);

    const response = await callApi("/api/me", { cookie });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: expect.any(String) });
    expect(sessionSetCookie(response)).toMatch(new RegExp(`^${SESSION_COOKIE}=;.*Max-Age=0`));
    expect(await expiry(sessionId)).toBeNull();
    expect((await callApi("/api/my-orders", { cookie })).status).toBe(401);
  });
});
