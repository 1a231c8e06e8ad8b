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
import { hashApiKey, type KeyOwner, keyOwnerOf, keyOwnerQuery, touchApiKey } from "../services/api-keys";

/** Requests a second each key may make (locally counted per second; in production by the binding, per 10 s). */
export const PARTNER_API_REQUESTS_PER_SECOND = 20;
const WINDOW_MS = 1000;

export type PartnerApiBindings = { Bindings: Env; Variables: { partnerKey: KeyOwner } };

/** The local one-second window of a key, counted in D1 (the same table as the site's own limits). */
function countHit(env: Env, keyHash: string, now: number) {
  return database(env.DB)
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
}

/**
 * Looks the key up and counts one request of it (by its hash, so both go at once: in production beside
 * the rate-limiting binding, locally in one D1 batch with the window's count).
 */
async function ownerAndAdmission(env: Env, keyHash: string, now: number): Promise<[KeyOwner, boolean]> {
  const db = database(env.DB);
  if (env.APP_ENV === "production" && env.PARTNER_API_RATE_LIMITER) {
    const limiter = env.PARTNER_API_RATE_LIMITER;
    const [rows, outcome] = await Promise.all([keyOwnerQuery(db, keyHash), limiter.limit({ key: keyHash })]);
    return [keyOwnerOf(rows), outcome.success];
  }
  const [rows, [window]] = await db.batch([keyOwnerQuery(db, keyHash), countHit(env, keyHash, now)]);
  return [keyOwnerOf(rows), (window?.hits ?? 0) <= PARTNER_API_REQUESTS_PER_SECOND];
}

export const requirePartnerKey = createMiddleware<PartnerApiBindings>(async (c, next) => {
  const started = Date.now();
  const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("Authorization") ?? "");
  if (!match?.[1]) {
    throw new UnauthenticatedError("Send your API key as 'Authorization: Bearer <key>'.");
  }
  const db = database(c.env.DB);
  const [owner, admitted] = await ownerAndAdmission(c.env, await hashApiKey(match[1]), started);
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
