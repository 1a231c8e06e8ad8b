/**
 * D5 for pages, by path prefix: everything under /dashboard and /transfer-checkout needs a buyer's session
 * (else to /login and back after it); under /admin and /admin-orders an admin; under /partner a partner.
 * A signed-in user of another kind gets the 403 page. A prefix covers the page and everything below it
 * (`/admin`, `/admin/…`), never a sibling that merely starts alike (`/partner-invitation` stays public).
 * Only these paths pay for a session lookup; every other page and asset passes straight through.
 */
import { createMiddleware } from "hono/factory";
import type { PublicUser } from "../../src/domain/user";
import type { AppBindings } from "../env";
import { loadSession } from "./auth";

type PageRule = (user: PublicUser) => boolean;
const isBuyer: PageRule = (user) => user.accountType !== "partner";
const isAdmin: PageRule = (user) => user.isAdmin;
const isPartner: PageRule = (user) => user.accountType === "partner";

/** Who may open the pages under each guarded prefix. */
export const GUARDED_PREFIXES = new Map<string, PageRule>([
  ["/dashboard", isBuyer],
  ["/transfer-checkout", isBuyer],
  ["/admin", isAdmin],
  ["/admin-orders", isAdmin],
  ["/partner", isPartner],
]);

/** The rule for a page path: its own prefix or the nearest guarded folder above it; undefined when public. */
export function pageRuleFor(path: string): PageRule | undefined {
  for (let prefix = path; prefix.length > 1; prefix = prefix.slice(0, prefix.lastIndexOf("/")) || "/") {
    const rule = GUARDED_PREFIXES.get(prefix);
    if (rule) return rule;
  }
  return undefined;
}

/** '/admin/', '/admin/index.html' and '/admin' are the same page to the asset server. */
const pagePath = (path: string) => path.replace(/\/index\.html$/, "").replace(/\/+$/, "") || "/";

export const pageGuards = createMiddleware<AppBindings>(async (c, next) => {
  const path = pagePath(c.req.path);
  const mayOpen = pageRuleFor(path);
  if (!mayOpen) return next();

  return loadSession(c, async () => {
    const user = c.get("user");
    if (!user) {
      const url = new URL(c.req.url);
      c.res = c.redirect(`/login?next=${encodeURIComponent(path + url.search)}`, 302);
    } else if (!mayOpen(user)) {
      const page = await c.env.ASSETS.fetch(new URL("/403", c.req.url));
      c.res = new Response(page.body, { status: 403, headers: { "Content-Type": "text/html; charset=utf-8" } });
    } else {
      await next();
    }
    c.header("Cache-Control", "private, no-store");
  });
});
