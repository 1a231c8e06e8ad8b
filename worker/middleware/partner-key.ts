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
import { hashApiKey, type KeyOwner, touchApiKey, verifyApiKeyHash } from "../services/api-keys";

/** Requests a second each key may make (locally counted per second; in production by the binding, per 10 s). */
export const PARTNER_API_REQUESTS_PER_SECOND = 20;
const WINDOW_MS = 1000;

export type PartnerApiBindings = { Bindings: Env; Variables: { partnerKey: KeyOwner } };

/** Counts one request of a key (by its hash, so it runs beside the key's lookup) and says if it may go on. */
async function admit(env: Env, keyHash: string, now: number): Promise<boolean> {
  if (env.APP_ENV === "production" && env.PARTNER_API_RATE_LIMITER) {
    return (await env.PARTNER_API_RATE_LIMITER.limit({ key: keyHash })).success;
  }
  // A fixed one-second window per key in D1 (the same table as the site's own limits).
  const [window] = await database(env.DB)
    .insert(rateLimitWindows)
    .values({ key: `partner-api:${keyHash}`, windowStart: now, hits: 1 })
    .onConflictDoUpdate({
      target: rateLimitWindows.key,
      set: {
        hits: sql`CASE WHEN ${rateLimitWindows.windowStart} > ${now - WINDOW_MS} THEN ${rateLimitWindows.hits} + 1 ELSE 1 END`,
        windowStart: sql`CASE WHEN ${rateLimitWindows.windowStart} > ${now - WINDOW_MS} THEN ${rateLimitWindows.windowStart} ELSE ${now} END`,
      },
    })
    .returning({ hits: rateLimitWindows.hits });
  return (window?.hits ?? 0) <= PARTNER_API_REQUESTS_PER_SECOND;
}

export const requirePartnerKey = createMiddleware<PartnerApiBindings>(async (c, next) => {
  const started = Date.now();
  const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("Authorization") ?? "");
  if (!match?.[1]) {
    throw new UnauthenticatedError("Send your API key as 'Authorization: Bearer <key>'.");
  }
  const db = database(c.env.DB);
  const keyHash = await hashApiKey(match[1]);
  const [owner, admitted] = await Promise.all([verifyApiKeyHash(db, keyHash), admit(c.env, keyHash, started)]);
  if (!admitted) {
    console.log(
      JSON.stringify({ partnerApi: c.req.path, method: c.req.method, apiKeyId: owner.apiKeyId, status: 429 }),
    );
    throw new RateLimitedError(
      `Too many requests: at most ${PARTNER_API_REQUESTS_PER_SECOND} a second for each API key. Slow down and retry.`,
    );
  }
  // The key's last use is written at most once a minute, after the response.
  const touch = touchApiKey(db, owner, started);
  if (touch) c.executionCtx.waitUntil(touch.then(() => undefined));
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
