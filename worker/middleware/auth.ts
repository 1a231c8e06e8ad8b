/** Who is calling, decided once per request from the session cookie; the guards every protected route uses. */
import { getCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { AppBindings } from "../env";
import { errorJson } from "../http";
import { rememberSessionUser } from "../page-user";
import { SESSION_COOKIE, sessions } from "../services/sessions";
import { type Audience, mayAct, REFUSAL, SIGN_IN_FIRST } from "./policy";

export const loadSession = createMiddleware<AppBindings>(async (c, next) => {
  c.set("user", null);
  c.set("sessionId", null);
  const sessionId = getCookie(c, SESSION_COOKIE);
  if (sessionId) {
    const { user, cookie } = await sessions(c.var.deps).validate(sessionId);
    c.set("user", user);
    c.set("sessionId", user ? sessionId : null);
    if (cookie) c.header("Set-Cookie", cookie, { append: true });
  }
  // A page this request goes on to render reads the same answer (worker/page-user.ts).
  rememberSessionUser(c.req.raw, c.get("user"));
  await next();
});

/** An API guard for an audience: 401 for anonymous callers, 403 with the audience's refusal for the others. */
function requireAudience(audience: Audience) {
  return createMiddleware<AppBindings>(async (c, next) => {
    const user = c.get("user");
    if (!user) return errorJson(c, 401, SIGN_IN_FIRST);
    if (!mayAct[audience](user)) return errorJson(c, 403, REFUSAL[audience]);
    return next();
  });
}

/** 401 for anonymous callers. */
export const requireUser = createMiddleware<AppBindings>(async (c, next) => {
  if (!c.get("user")) return errorJson(c, 401, SIGN_IN_FIRST);
  return next();
});

/** 401 for anonymous callers, 403 for partners: the buyer screens' APIs (admins keep their access). */
export const requireBuyer = requireAudience("buyer");

/** 403 for partners on routes anyone else may call signed in or not (starting a payment). */
export const refusePartners = createMiddleware<AppBindings>(async (c, next) => {
  const user = c.get("user");
  if (user && !mayAct.buyer(user)) return errorJson(c, 403, REFUSAL.buyer);
  return next();
});

/** 401 for anonymous callers, 403 for anyone who is not a partner (buyers and admins alike). */
export const requirePartner = requireAudience("partner");

/** 401 for anonymous callers, 403 for signed-in non-admins. */
export const requireAdmin = requireAudience("admin");
