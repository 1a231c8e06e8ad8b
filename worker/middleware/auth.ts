/** Who is calling, decided once per request from the session cookie; the guards every protected route uses. */
import { getCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { AppBindings } from "../env";
import { errorJson } from "../http";
import { rememberSessionUser } from "../page-user";
import { SESSION_COOKIE, sessions } from "../services/sessions";

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

/** 401 for anonymous callers. */
export const requireUser = createMiddleware<AppBindings>(async (c, next) => {
  if (!c.get("user")) return errorJson(c, 401, "Please log in to continue.");
  return next();
});

/** 401 for anonymous callers, 403 for partners: the buyer screens' APIs (admins keep their access). */
export const requireBuyer = createMiddleware<AppBindings>(async (c, next) => {
  const user = c.get("user");
  if (!user) return errorJson(c, 401, "Please log in to continue.");
  if (user.accountType === "partner") return errorJson(c, 403, "Partner accounts cannot do that.");
  return next();
});

/** 403 for partners on routes anyone else may call signed in or not (starting a payment). */
export const refusePartners = createMiddleware<AppBindings>(async (c, next) => {
  if (c.get("user")?.accountType === "partner") return errorJson(c, 403, "Partner accounts cannot do that.");
  return next();
});

/** 401 for anonymous callers, 403 for anyone who is not a partner (buyers and admins alike). */
export const requirePartner = createMiddleware<AppBindings>(async (c, next) => {
  const user = c.get("user");
  if (!user) return errorJson(c, 401, "Please log in to continue.");
  if (user.accountType !== "partner") return errorJson(c, 403, "Only partner accounts can do that.");
  return next();
});

/** 401 for anonymous callers, 403 for signed-in non-admins. */
export const requireAdmin = createMiddleware<AppBindings>(async (c, next) => {
  const user = c.get("user");
  if (!user) return errorJson(c, 401, "Please log in to continue.");
  if (!user.isAdmin) return errorJson(c, 403, "You do not have permission to do that.");
  return next();
});
