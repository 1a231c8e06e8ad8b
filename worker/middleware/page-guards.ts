/**
 * D5 for pages: /dashboard and /transfer-checkout need a session (else to /login and back after it);
 * /admin and /admin-orders need an admin (a signed-in non-admin gets the 403 page). Only these paths
 * pay for a session lookup; every other page and asset passes straight through.
 */
import { createMiddleware } from "hono/factory";
import type { AppBindings } from "../env";
import { loadSession } from "./auth";

const SIGNED_IN_PAGES = new Set(["/dashboard", "/transfer-checkout"]);
const ADMIN_PAGES = new Set(["/admin", "/admin-orders"]);

/** '/admin/', '/admin/index.html' and '/admin' are the same page to the asset server. */
const pagePath = (path: string) => path.replace(/\/index\.html$/, "").replace(/\/+$/, "") || "/";

export const pageGuards = createMiddleware<AppBindings>(async (c, next) => {
  const path = pagePath(c.req.path);
  const needsAdmin = ADMIN_PAGES.has(path);
  if (!needsAdmin && !SIGNED_IN_PAGES.has(path)) return next();

  return loadSession(c, async () => {
    const user = c.get("user");
    if (!user) {
      const url = new URL(c.req.url);
      c.res = c.redirect(`/login?next=${encodeURIComponent(path + url.search)}`, 302);
    } else if (needsAdmin && !user.isAdmin) {
      const page = await c.env.ASSETS.fetch(new URL("/403", c.req.url));
      c.res = new Response(page.body, { status: 403, headers: { "Content-Type": "text/html; charset=utf-8" } });
    } else {
      await next();
    }
    c.header("Cache-Control", "private, no-store");
  });
});
