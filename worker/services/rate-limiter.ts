/**
 * The one fixed-window rate limiter (docs/decisions/0031): the site's per-address limits and the partner
 * API's limits per key and per partner are rules of it. A rule allows `limit` hits per `windowMs` for
 * each key. In production a rule with a binding counts through the Workers rate-limiting binding (its
 * period in wrangler.toml); everywhere else, and for counts the binding cannot make (outcomes only), a
 * window in D1 counts: it opens at a key's first hit, so a burst cannot straddle two windows.
 * Sign-in attempts have a rule of their own with back-off (login-throttle.ts).
 */
import { and, eq, gt, type SQL, sql } from "drizzle-orm";
import { rateLimitWindows } from "../db/schema";
import type { Deps } from "../deps";
import type { Env } from "../env";

type RateLimitBinding = "RATE_LIMITER" | "PARTNER_API_RATE_LIMITER" | "PARTNER_RATE_LIMITER";

export interface RateRule {
  /** Prefixes the counted key, so rules never share a window. */
  name: string;
  limit: number;
  windowMs: number;
  /** The binding that counts this rule in production (wrangler.toml `[[ratelimits]]`, same limit). */
  binding?: RateLimitBinding;
}

/** Abuse-prone site endpoints, per client address: 10 a minute, as the binding's `limit = 10, period = 60`. */
export const ADDRESS_RULE: RateRule = { name: "address", limit: 10, windowMs: 60_000, binding: "RATE_LIMITER" };
/** The partner API per key: 20 a second (the binding counts 200 per 10 s). */
export const PARTNER_KEY_RULE: RateRule = {
  name: "partner-api",
  limit: 20,
  windowMs: 1000,
  binding: "PARTNER_API_RATE_LIMITER",
};
/** The partner API per partner, across all of its keys: 50 a second (the binding counts 500 per 10 s). */
export const PARTNER_RULE: RateRule = {
  name: "partner-api-partner",
  limit: 50,
  windowMs: 1000,
  binding: "PARTNER_RATE_LIMITER",
};

/** The binding that counts `rule` here, or null when D1 does (every environment but production). */
function bindingFor(env: Env, rule: RateRule): RateLimit | null {
  if (env.APP_ENV !== "production" || !rule.binding) return null;
  return env[rule.binding] ?? null;
}

/** Whether `rule` counts through its binding here (else through D1 windows, which a caller may batch). */
export const countsInBinding = (deps: Deps, rule: RateRule) => bindingFor(deps.env, rule) !== null;

const windowKey = (rule: RateRule, key: string) => `${rule.name}:${key}`;

/**
 * One hit on a key's window in D1, as a statement a caller may batch, answering the window's hits so far.
 * A key given as SQL (a scalar sub-select) is counted only when it names something: null opens no window.
 */
export function windowHit(deps: Deps, rule: RateRule, key: string | SQL) {
  const { db, now } = deps;
  const open = sql`${rateLimitWindows.windowStart} > ${now - rule.windowMs}`;
  const set = {
    hits: sql`CASE WHEN ${open} THEN ${rateLimitWindows.hits} + 1 ELSE 1 END`,
    windowStart: sql`CASE WHEN ${open} THEN ${rateLimitWindows.windowStart} ELSE ${now} END`,
  };
  const insert =
    typeof key === "string"
      ? db.insert(rateLimitWindows).values({ key: windowKey(rule, key), windowStart: now, hits: 1 })
      : db
          .insert(rateLimitWindows)
          .select(
            sql`SELECT ${`${rule.name}:`} || k.v, ${now}, 1 FROM (SELECT ${key} AS v) AS k WHERE k.v IS NOT NULL`,
          );
  return insert.onConflictDoUpdate({ target: rateLimitWindows.key, set }).returning({ hits: rateLimitWindows.hits });
}

/** Whether the hits a window answered (windowHit's rows) are within the rule; no row = not counted. */
export const withinRule = (rule: RateRule, rows: { hits: number }[]) => (rows[0]?.hits ?? 0) <= rule.limit;

/** Counts one request of `key` under `rule` and answers whether it is allowed. */
export async function admit(deps: Deps, rule: RateRule, key: string): Promise<boolean> {
  const binding = bindingFor(deps.env, rule);
  if (binding) return (await binding.limit({ key: windowKey(rule, key) })).success;
  return withinRule(rule, await windowHit(deps, rule, key));
}

/** Whether `key` has room left under `rule` in D1, without counting it (limits on outcomes). */
export async function hasRoom(deps: Deps, rule: RateRule, key: string): Promise<boolean> {
  const { db, now } = deps;
  const [row] = await db
    .select({ hits: rateLimitWindows.hits })
    .from(rateLimitWindows)
    .where(and(eq(rateLimitWindows.key, windowKey(rule, key)), gt(rateLimitWindows.windowStart, now - rule.windowMs)));
  return (row?.hits ?? 0) < rule.limit;
}

/** Counts one outcome of `key` under `rule`, in D1 everywhere (the binding cannot count without admitting). */
export async function countOutcome(deps: Deps, rule: RateRule, key: string): Promise<void> {
  await windowHit(deps, rule, key);
}
