/** Session lifetimes and login throttling (product rules 30, 31): the one place these durations live. */
import { countOf } from "../../domain/units.ts";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** A session ends this long after sign-in, however active it is. */
export const SESSION_ABSOLUTE_MS = 30 * DAY_MS;
/** A buyer's session ends after this long without a request. */
export const SESSION_IDLE_MS = 7 * DAY_MS;
/** An admin's session ends after this long without a request. */
export const ADMIN_SESSION_IDLE_MS = 12 * HOUR_MS;

/** Password checks allowed per client address, and per username, in one window. */
export const LOGIN_ATTEMPTS_PER_WINDOW = 10;
export const LOGIN_WINDOW_MS = MINUTE_MS;
/** Each lockout in a row doubles the lock (1, 2, 4 … minutes), up to this many doublings (32 minutes). */
export const LOGIN_LOCK_MAX_DOUBLINGS = 5;
/** A password-reset link works once, for this long (product rule 32). */
export const RESET_LINK_TTL_MS = HOUR_MS;
/** '1 hour': what the forgot/reset pages and the e-mail say. */
export const RESET_LINK_LIFETIME = countOf(RESET_LINK_TTL_MS / HOUR_MS, "hour");

/** Lockouts are forgotten after this long without one. */
export const LOGIN_LOCKOUT_MEMORY_MS = DAY_MS;
