/**
 * Astro's middleware: the pages rendered in the Worker know who is signed in (`Astro.locals.user`, from the
 * session cookie through the Worker's one session module) and hand it to their islands as a prop
 * (decision 0032). Who may open a page is still decided before Astro runs, by the Worker's page guards
 * (worker/middleware/page-guards.ts). Pre-rendered pages are built once for everyone and have no user.
 */
import { defineMiddleware } from "astro:middleware";
import { pageRegistryNotices, pageUser } from "../worker/page-user";
import { clearFlashCookie, FLASH_COOKIE, flashNamed } from "./features/accounts/flash";

export const onRequest = defineMiddleware(async (context, next) => {
  context.locals.user = null;
  context.locals.flash = null;
  context.locals.registry = null;
  if (context.isPrerendered) return next();
  // Loaded here, not at the top: pre-rendering runs in Node, where the Worker's modules do not exist.
  const { env } = await import("cloudflare:workers");
  const { user, cookie } = await pageUser(context.request, env);
  context.locals.user = user;
  // A stale Do Not Call registry copy: the admins' banner and the marketplace's stop (docs/decisions/0085).
  context.locals.registry = await pageRegistryNotices(env, user, context.url.pathname);
  // A message the previous response left for this page ('Login Successful'): shown once, to the signed-in user.
  const flash = flashNamed(context.cookies.get(FLASH_COOKIE)?.value);
  if (flash && user) context.locals.flash = flash;
  const response = await next();
  if (cookie) response.headers.append("Set-Cookie", cookie);
  if (flash) response.headers.append("Set-Cookie", clearFlashCookie(context.url));
  // A page that carries someone's data is theirs alone.
  if (user) response.headers.set("Cache-Control", "private, no-store");
  return response;
});
