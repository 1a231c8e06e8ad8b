/**
 * Product rule 28 for pages, by path prefix: everything under /dashboard and /transfer-checkout needs a buyer's session
 * (else to /login and back after it); under /admin and /admin-orders an admin; under /partner a partner.
 * A signed-in user of another kind gets the 403 page, told whom the page is for and linked to their own home. A prefix covers the page and everything below it
 * (`/admin`, `/admin/…`), never a sibling that merely starts alike (`/partner-invitation` stays public),
 * and every alias of a guarded page (`/admin.html`, `/admin/index.html`, case, escapes: `pagePath`).
 * Only these paths pay for a session lookup; every other page and asset passes straight through.
 */
import { createMiddleware } from "hono/factory";
import { createDeps } from "../deps";
import type { AppBindings } from "../env";
import { loadSession } from "./auth";
import { forbiddenPage } from "./forbidden-page";
import { type Audience, mayAct } from "./policy";

/** Who may open the pages under each guarded prefix. */
export const GUARDED_PREFIXES = new Map<string, Audience>([
  ["/dashboard", "buyer"],
  ["/transfer-checkout", "buyer"],
  ["/admin", "admin"],
  ["/admin-orders", "admin"],
  ["/partner", "partner"],
]);

/** Whom a page path is for: its own prefix or the nearest guarded folder above it; undefined when public. */
function audienceOf(path: string): Audience | undefined {
  for (let prefix = path; prefix.length > 1; prefix = prefix.slice(0, prefix.lastIndexOf("/")) || "/") {
    const audience = GUARDED_PREFIXES.get(prefix);
    if (audience) return audience;
  }
  return undefined;
}

/** Percent-decoding, repeated until nothing changes (a broken escape stops it where it is). */
function decoded(path: string): string {
  let current = path;
  for (let round = 0; round < 4; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return current;
    }
    if (next === current) return current;
    current = next;
  }
  return current;
}

/** Resolves '.' and '..' segments (a decoded '%2F..%2F' can bring them back after the URL parser removed them). */
function withoutDotSegments(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "..") segments.pop();
    else if (segment !== "." && segment !== "") segments.push(segment);
  }
  return `/${segments.join("/")}`;
}

/**
 * The page a request path names, whatever alias reaches it: '/admin', '/admin/', '/admin.html',
 * '/admin/index.html', '/ADMIN', '/%61dmin', '//admin' and '/x/..%2Fadmin' are all '/admin'. Aliases the
 * asset server does not serve are guarded all the same: a guard too many costs nothing.
 */
function pagePath(path: string): string {
  let page = withoutDotSegments(decoded(path).replaceAll("\\", "/").toLowerCase());
  for (let before = ""; before !== page; ) {
    before = page;
    page =
      page
        .replace(/\/index(\.html?)?$/, "")
        .replace(/\.html?$/, "")
        .replace(/\/+$/, "") || "/";
  }
  return page;
}

export const pageGuards = createMiddleware<AppBindings>(async (c, next) => {
  const path = pagePath(c.req.path);
  const audience = audienceOf(path);
  if (!audience) return next();

  // Pages are outside /api, whose first middleware sets the request's deps: the guard sets them here.
  c.set("deps", createDeps(c.env));
  return loadSession(c, async () => {
    const user = c.get("user");
    if (!user) {
      const url = new URL(c.req.url);
      c.res = c.redirect(`/login?next=${encodeURIComponent(path + url.search)}`, 302);
    } else if (!mayAct[audience](user)) {
      c.res = forbiddenPage(await c.env.ASSETS.fetch(new URL("/403", c.req.url)), audience, user);
    } else {
      await next();
    }
    c.header("Cache-Control", "private, no-store");
  });
});
