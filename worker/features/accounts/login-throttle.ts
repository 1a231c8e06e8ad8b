/**
 * Login throttling (product rule 31). Every attempt is counted, atomically and before the password is
 * checked, against the client address and against the username; past LOGIN_ATTEMPTS_PER_WINDOW a key is
 * locked, for twice as long at each lockout in a row. Parallel requests cannot slip past the count: each
 * one is a single UPSERT whose answer decides whether that request may check a password.
 */
import { eq, sql } from "drizzle-orm";
import {
  LOGIN_ATTEMPTS_PER_WINDOW,
  LOGIN_LOCK_MAX_DOUBLINGS,
  LOGIN_LOCKOUT_MEMORY_MS,
  LOGIN_WINDOW_MS,
} from "../../../src/features/accounts/auth-limits";
import type { Database } from "../../db/client";
import { loginThrottle } from "../../db/schema";
import type { Deps } from "../../deps";
import { RateLimitedError } from "../../errors";

export interface LoginAttempt {
  address: string;
  username: string;
}

const keysOf = ({ address, username }: LoginAttempt) => [
  `address:${address}`,
  `username:${username.trim().toLowerCase()}`,
];

/** Counts one attempt for the key; answers when it is locked until (0 when the attempt may go ahead). */
async function countAttempt(db: Database, key: string, now: number): Promise<number> {
  const t = loginThrottle;
  // The whole decision is one UPSERT with CASE expressions (SQLite reads the old row in every SET), which
  // drizzle's builder cannot say without `sql`: a read-then-write would let parallel requests through.
  const locked = sql`${t.lockedUntil} > ${now}`;
  const windowOver = sql`${t.windowStart} <= ${now - LOGIN_WINDOW_MS}`;
  const overLimit = sql`NOT (${locked}) AND NOT (${windowOver}) AND ${t.attempts} >= ${LOGIN_ATTEMPTS_PER_WINDOW}`;
  const lockouts = sql`CASE WHEN ${t.lockedUntil} < ${now - LOGIN_LOCKOUT_MEMORY_MS} THEN 0 ELSE ${t.lockouts} END`;
  const row = await db
    .insert(t)
    .values({ key, windowStart: now, attempts: 1, lockouts: 0, lockedUntil: 0 })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        attempts: sql`CASE WHEN ${locked} THEN ${t.attempts} WHEN ${windowOver} THEN 1 ELSE ${t.attempts} + 1 END`,
        windowStart: sql`CASE WHEN NOT (${locked}) AND ${windowOver} THEN ${now} ELSE ${t.windowStart} END`,
        lockouts: sql`CASE WHEN ${overLimit} THEN (${lockouts}) + 1 ELSE ${t.lockouts} END`,
        lockedUntil: sql`CASE WHEN ${overLimit}
          THEN ${now} + (${LOGIN_WINDOW_MS} << min(${lockouts}, ${LOGIN_LOCK_MAX_DOUBLINGS}))
          ELSE ${t.lockedUntil} END`,
      },
    })
    .returning({ lockedUntil: t.lockedUntil })
    .get();
  return row && row.lockedUntil > now ? row.lockedUntil : 0;
}

/** Counts the attempt for its address and its username; throws RateLimitedError when either is locked. */
export async function admitLoginAttempt(deps: Deps, attempt: LoginAttempt): Promise<void> {
  const { db, now } = deps;
  const lockedUntil = Math.max(...(await Promise.all(keysOf(attempt).map((key) => countAttempt(db, key, now)))));
  if (lockedUntil === 0) return;
  const minutes = Math.ceil((lockedUntil - now) / 60_000);
  throw new RateLimitedError(
    `Too many attempts. Please wait ${minutes === 1 ? "a minute" : `${minutes} minutes`} and try again.`,
    { retryAfterSeconds: Math.ceil((lockedUntil - now) / 1000) },
  );
}

/**
 * After a correct password: the username starts afresh, and the address gets its attempt back, so agents
 * who share an office address and sign in correctly never lock each other out.
 */
export async function recordLoginSuccess(deps: Deps, attempt: LoginAttempt): Promise<void> {
  const [addressKey, usernameKey] = keysOf(attempt) as [string, string];
  const t = loginThrottle;
  const { db } = deps;
  await db.batch([
    db.delete(t).where(eq(t.key, usernameKey)),
    db
      .update(t)
      .set({ attempts: sql`max(${t.attempts} - 1, 0)` })
      .where(eq(t.key, addressKey)),
  ]);
}
