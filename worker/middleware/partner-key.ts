/**
 * The partner API's credential (issue 15, item 2): `Authorization: Bearer <key>`, never a session cookie.
 * Every keyed request is rate-limited per key and logged with its key id.
 */
import { sql } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { database } from "../db/client";
import { rateLimitWindows } from "../db/schema";
import type { Env } from "../env";
import { RateLimitedError, UnauthenticatedError } from "../errors";
import { type KeyOwner, touchApiKey, verifyApiKey } from "../services/api-keys";

/** Requests a second each key may make (locally counted per second; in production by the binding, per 10 s). */
export const PARTNER_API_REQUESTS_PER_SECOND = 20;
const WINDOW_MS = 1000;

export type PartnerApiBindings = { Bindings: Env; Variables: { partnerKey: KeyOwner } };

async function admit(env: Env, owner: KeyOwner, now: number): Promise<boolean> {
  const db = database(env.DB);
  const touch = touchApiKey(db, owner, now);
  if (env.APP_ENV === "production" && env.PARTNER_API_RATE_LIMITER) {
    if (touch) await touch;
    return (await env.PARTNER_API_RATE_LIMITER.limit({ key: owner.apiKeyId })).success;
  }
  // A fixed one-second window per key in D1 (the same table as the site's own limits).
  const hit = db
    .insert(rateLimitWindows)
    .values({ key: `partner-api:${owner.apiKeyId}`, windowStart: now, hits: 1 })
    .onConflictDoUpdate({
      target: rateLimitWindows.key,
      set: {
        hits: sql`CASE WHEN ${rateLimitWindows.windowStart} > ${now - WINDOW_MS} THEN ${rateLimitWindows.hits} + 1 ELSE 1 END`,
        windowStart: sql`CASE WHEN ${rateLimitWindows.windowStart} > ${now - WINDOW_MS} THEN ${rateLimitWindows.windowStart} ELSE ${now} END`,
      },
    })
    .returning({ hits: rateLimitWindows.hits });
  const [[window]] = touch ? await db.batch([hit, touch]) : [await hit];
  return (window?.hits ?? 0) <= PARTNER_API_REQUESTS_PER_SECOND;
}

export const requirePartnerKey = createMiddleware<PartnerApiBindings>(async (c, next) => {
  const started = Date.now();
  const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("Authorization") ?? "");
  if (!match?.[1]) {
    throw new UnauthenticatedError("Send your API key as 'Authorization: Bearer <key>'.");
  }
  const owner = await verifyApiKey(database(c.env.DB), match[1]);
  if (!(await admit(c.env, owner, started))) {
    console.log(
      JSON.stringify({ partnerApi: c.req.path, method: c.req.method, apiKeyId: owner.apiKeyId, status: 429 }),
    );
    throw new RateLimitedError(
      `Too many requests: at most ${PARTNER_API_REQUESTS_PER_SECOND} a second for each API key. Slow down and retry.`,
    );
  }
  c.set("partnerKey", owner);
  await next();
  const ms = Date.now() - started;
  // The Worker's own time for the request (the bench reads it beside the client's round trip).
  c.res.headers.set("Server-Timing", `app;dur=${ms}`);
  console.log(
    JSON.stringify({
      partnerApi: c.req.path,
      method: c.req.method,
      apiKeyId: owner.apiKeyId,
      partnerId: owner.partnerId,
      status: c.res.status,
      ms,
    }),
  );
});
