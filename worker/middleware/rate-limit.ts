/**
 * Per-client-address limits on abuse-prone endpoints, ADDRESS_RULE's 10 requests a minute, counted
 * by the one fixed-window limiter (worker/services/rate-limiter.ts). `rateLimit` counts every request;
 * `rateLimitOutcomes` counts only the responses that matter (applications accepted). Logins have their
 * own throttle with back-off, counted before the password is checked (worker/features/accounts/login-throttle.ts).
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppBindings } from "../env";
import { errorJson } from "../http";
import { ADDRESS_RULE, admit, countOutcome, hasRoom } from "../services/rate-limiter";

export function clientAddress(c: Context<AppBindings>): string {
  return c.req.header("CF-Connecting-IP") ?? "unknown";
}

const tooManyRequests = (c: Context<AppBindings>) =>
  errorJson(c, 429, "Too many attempts. Please wait a minute and try again.");

/** `keyOf` names who is counted (the client address unless given); null lets the request through uncounted. */
export function rateLimit(action: string, keyOf: (c: Context<AppBindings>) => string | null = clientAddress) {
  return createMiddleware<AppBindings>(async (c, next) => {
    const key = keyOf(c);
    if (key !== null && !(await admit(c.var.deps, ADDRESS_RULE, `${action}:${key}`))) return tooManyRequests(c);
    return next();
  });
}

export function rateLimitOutcomes(action: string, counts: (status: number) => boolean) {
  return createMiddleware<AppBindings>(async (c, next) => {
    const key = `${action}-outcomes:${clientAddress(c)}`;
    if (!(await hasRoom(c.var.deps, ADDRESS_RULE, key))) return tooManyRequests(c);
    await next();
    if (counts(c.res.status)) await countOutcome(c.var.deps, ADDRESS_RULE, key);
    return undefined;
  });
}
