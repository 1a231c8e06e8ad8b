/**
 * D11: per-client-address limits on abuse-prone endpoints, RATE_LIMIT_PER_MINUTE requests a minute.
 * `rateLimit` counts every request: with the Workers rate-limiting binding in production, with a
 * one-minute window in D1 elsewhere (it opens at a key's first hit, so a burst cannot straddle two windows).
 * `rateLimitOutcomes` counts only the responses that matter (applications accepted), in D1 everywhere
 * because the binding cannot count without also admitting. Logins have their own throttle, counted before
 * the password is checked (worker/services/login-throttle.ts).
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppBindings, Env } from "../env";
import { errorJson } from "../http";

/** Matches the `simple = { limit = 10, period = 60 }` of the binding in wrangler.toml. */
export const RATE_LIMIT_PER_MINUTE = 10;
const WINDOW_MS = 60_000;

export function clientAddress(c: Context<AppBindings>): string {
  return c.req.header("CF-Connecting-IP") ?? "unknown";
}

/** Adds one hit to the key's open window (opening a new one when the last has run out) and answers its count. */
async function recordHit(db: D1Database, key: string): Promise<number> {
  const now = Date.now();
  const row = await db
    .prepare(
      `INSERT INTO rate_limit_windows (key, window_start, hits) VALUES (?1, ?2, 1)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN window_start > ?3 THEN hits + 1 ELSE 1 END,
         window_start = CASE WHEN window_start > ?3 THEN window_start ELSE ?2 END
       RETURNING hits`,
    )
    .bind(key, now, now - WINDOW_MS)
    .first<{ hits: number }>();
  return row?.hits ?? 0;
}

async function hitsSoFar(db: D1Database, key: string): Promise<number> {
  const row = await db
    .prepare("SELECT hits FROM rate_limit_windows WHERE key = ?1 AND window_start > ?2")
    .bind(key, Date.now() - WINDOW_MS)
    .first<{ hits: number }>();
  return row?.hits ?? 0;
}

async function admitRequest(env: Env, key: string): Promise<boolean> {
  if (env.APP_ENV === "production" && env.RATE_LIMITER) return (await env.RATE_LIMITER.limit({ key })).success;
  return (await recordHit(env.DB, key)) <= RATE_LIMIT_PER_MINUTE;
}

const tooManyRequests = (c: Context<AppBindings>) =>
  errorJson(c, 429, "Too many attempts. Please wait a minute and try again.");

/** `keyOf` names who is counted (the client address unless given); null lets the request through uncounted. */
export function rateLimit(action: string, keyOf: (c: Context<AppBindings>) => string | null = clientAddress) {
  return createMiddleware<AppBindings>(async (c, next) => {
    const key = keyOf(c);
    if (key !== null && !(await admitRequest(c.env, `${action}:${key}`))) return tooManyRequests(c);
    return next();
  });
}

export function rateLimitOutcomes(action: string, counts: (status: number) => boolean) {
  return createMiddleware<AppBindings>(async (c, next) => {
    const key = `${action}-outcomes:${clientAddress(c)}`;
    if ((await hitsSoFar(c.env.DB, key)) >= RATE_LIMIT_PER_MINUTE) return tooManyRequests(c);
    await next();
    if (counts(c.res.status)) await recordHit(c.env.DB, key);
    return undefined;
  });
}
