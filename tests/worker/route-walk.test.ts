/// <reference types="vite/client" />
/**
 * Route walk: every API route registered on the app and every page under a guarded
 * prefix refuses the callers it is not for. Who may call what is listed here, once; a route that is in
 * no list is taken for an admin route, so a new route without a guard fails this test.
 */
import type { ExtractSchema } from "hono/types";
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TAB_IDS, adminPath } from "../../src/islands/admin/tabs";
import { DASHBOARD_VIEWS, dashboardPath } from "../../src/islands/dashboard/views";
import { type Api, api } from "../../worker/api";
import { GUARDED_PREFIXES } from "../../worker/middleware/page-guards";
import { callApi, signedIn } from "./helpers";
import { signedInPartner } from "./partner-helpers";
import { createOpenOrder } from "./transfer-fixtures";

type Route = `${string} /api/${string}`;

/** The only API routes anyone may call without signing in (the partner API under /api/v1 has its own keys). */
const PUBLIC_ROUTES: Route[] = [
  "GET /api/health",
  "POST /api/login",
  "GET /api/logout",
  "POST /api/logout",
  "POST /api/forgot-password",
  "POST /api/validate-reset-token",
  "POST /api/reset-password",
  "POST /api/create-payment-intent",
  "POST /api/stripe/webhook",
  "POST /api/simulated-payments/confirm",
  "GET /api/orders/:orderId/status",
  "POST /api/survey",
  "POST /api/ringcloud-survey",
  "POST /api/affnetwork-signup",
  "POST /api/partner-invitation/check",
  "POST /api/partner-invitation/accept",
  "POST /api/delivery-setup/check",
  "POST /api/delivery-setup",
  "POST /api/do-not-call",
];

/** Any signed-in user, whatever their kind. */
const ACCOUNT_ROUTES: Route[] = ["GET /api/me", "GET /api/surveys/:id"];

/** The buyer screens' APIs (admins may call them too; partners may not). */
const BUYER_ROUTES: Route[] = [
  "GET /api/aged-leads",
  "POST /api/bulk-purchase-leads",
  "GET /api/my-leads",
  "GET /api/my-callbacks",
  "GET /api/my-callbacks.csv",
  "GET /api/my-callbacks/:id/invite.ics",
  "GET /api/callback-market",
  "POST /api/callback-market/purchase",
  "PUT /api/my-callbacks/:id/outcome",
  "GET /api/my-leads.csv",
  "GET /api/my-leads/:id/consent",
  "GET /api/my-orders",
  "POST /api/my-orders/:orderId/payment",
  "POST /api/call-transfer-order",
  "GET /api/tracker/transfers",
  "GET /api/tracker/transfers.csv",
  "GET /api/tracker/transfers/:id/consent",
  "GET /api/tracker/orders",
  "POST /api/tracker/orders/:orderId/pause",
  "POST /api/tracker/orders/:orderId/resume",
  "GET /api/returns",
  "GET /api/returns/eligible",
  "POST /api/returns",
  "GET /api/balance",
  "GET /api/my-suppression-list",
  "POST /api/my-suppression-uploads",
  "GET /api/my-suppression-uploads/:id",
  "POST /api/my-suppression-uploads/:id/batches",
  "POST /api/my-suppression-uploads/:id/finish",
  "GET /api/webhook-endpoints",
  "POST /api/webhook-endpoints",
  "PATCH /api/webhook-endpoints/:id",
  "DELETE /api/webhook-endpoints/:id",
  "POST /api/webhook-endpoints/:id/rotate-secret",
  "POST /api/webhook-endpoints/:id/test",
  "GET /api/webhook-endpoints/:id/deliveries",
  "POST /api/webhook-endpoints/:id/deliveries/:eventId/resend",
  "POST /api/webhook-endpoints/:id/resend-failed",
  "GET /api/transfer-orders/:id/agents",
  "POST /api/transfer-orders/:id/agents",
  "PUT /api/transfer-orders/:id/agents/:agentId",
  "PATCH /api/transfer-orders/:id/agents/:agentId/taking-calls",
  "DELETE /api/transfer-orders/:id/agents/:agentId",
];

/** The /partner portal's APIs, for partner accounts only. */
const PARTNER_ROUTES: Route[] = [
  "GET /api/partner/profile",
  "GET /api/partner/keys",
  "POST /api/partner/keys",
  "DELETE /api/partner/keys/:id",
  "GET /api/partner/stats",
  "GET /api/partner/transfers",
  "GET /api/partner/payouts",
];

/** Every method + path registered on the app, except middleware, the 404 fallback and the partner API. */
function registeredRoutes(): Route[] {
  const routes = new Set<Route>();
  for (const { method, path } of api.routes) {
    if (path.includes("*") || path.startsWith("/api/v1/")) continue;
    routes.add(`${method} ${path}` as Route);
  }
  return [...routes];
}

interface Caller {
  who: string;
  cookie?: string;
}

/** Real ids for the routes' parameters, so a refusal is the guard's and not a missing record's. */
const params = new Map<string, string>();

function request(route: Route): [method: string, path: string] {
  const [method = "GET", pattern = ""] = route.split(" ");
  const path = pattern.replace(/:(\w+)/g, (_, name: string) => params.get(`${pattern}:${name}`) ?? crypto.randomUUID());
  return [method === "ALL" ? "GET" : method, path];
}

async function call(route: Route, caller: Caller) {
  const [method, path] = request(route);
  const json = method === "GET" || method === "DELETE" ? undefined : {};
  return callApi(path, { method, json, ...(caller.cookie ? { cookie: caller.cookie } : {}) });
}

async function expectRefused(routes: Route[], caller: Caller, status: 401 | 403) {
  for (const route of routes) {
    const response = await call(route, caller);
    expect(response.status, `${route} as ${caller.who}`).toBe(status);
    expect(await response.json(), `${route} as ${caller.who}`).toEqual({ message: expect.any(String) });
  }
}

async function expectReached(routes: Route[], caller: Caller) {
  for (const route of routes) {
    const response = await call(route, caller);
    expect([401, 403], `${route} as ${caller.who} answered ${response.status}`).not.toContain(response.status);
  }
}

const except = (routes: Route[], ...lists: Route[][]) => routes.filter((route) => !lists.flat().includes(route));

describe("the API's route walk", () => {
  const anonymous: Caller = { who: "anonymous" };
  let buyer: Caller;
  let admin: Caller;
  let partner: Caller;
  let routes: Route[];

  beforeAll(async () => {
    const signedInBuyer = await signedIn();
    const signedInPartnerAccount = await signedInPartner();
    buyer = { who: "buyer", cookie: signedInBuyer.cookie };
    admin = { who: "admin", cookie: (await signedIn({ isAdmin: true })).cookie };
    partner = { who: "partner", cookie: signedInPartnerAccount.cookie };
    const order = await createOpenOrder({ buyerId: signedInBuyer.user.id });
    const key = await callApi("/api/partner/keys", { json: { name: "Walk" }, cookie: partner.cookie });
    params.set("/api/users/:userId/change-password:userId", signedInBuyer.user.id);
    params.set("/api/transfer-orders/:id/status:id", order.id);
    params.set("/api/transfer-orders/:id/delivery:id", order.id);
    params.set("/api/affnetwork-signups/:id/status:id", signedInPartnerAccount.applicationId);
    params.set("/api/partner/keys/:id:id", (await key.json<{ id: string }>()).id);
    routes = registeredRoutes();
  });

  it("lists only routes that exist, each once", () => {
    const listed = [...PUBLIC_ROUTES, ...ACCOUNT_ROUTES, ...BUYER_ROUTES, ...PARTNER_ROUTES];
    expect(new Set(listed).size).toBe(listed.length);
    expect(except(listed, routes)).toEqual([]);
    // The walk sees the whole API: every list, and admin routes besides.
    expect(except(routes, listed).length).toBeGreaterThan(10);
  });

  it("answers 401 to anonymous callers on every route outside the public list", async () => {
    await expectRefused(except(routes, PUBLIC_ROUTES), anonymous, 401);
  });

  it("answers 403 to buyers on every admin and partner route", async () => {
    await expectRefused(except(routes, PUBLIC_ROUTES, ACCOUNT_ROUTES, BUYER_ROUTES), buyer, 403);
  });

  it("answers 403 to partners on every buyer and admin route", async () => {
    await expectRefused(except(routes, PUBLIC_ROUTES, ACCOUNT_ROUTES, PARTNER_ROUTES), partner, 403);
  });

  it("answers 403 to admins on the partner portal, and lets them reach every admin route", async () => {
    await expectRefused(PARTNER_ROUTES, admin, 403);
    await expectReached(except(routes, PUBLIC_ROUTES, ACCOUNT_ROUTES, BUYER_ROUTES, PARTNER_ROUTES), admin);
  });

  it("lets each kind reach its own routes: no guard runs for another sub-app's routes", async () => {
    await expectReached(PUBLIC_ROUTES, anonymous);
    await expectReached([...ACCOUNT_ROUTES, ...BUYER_ROUTES], buyer);
    await expectReached([...ACCOUNT_ROUTES, ...PARTNER_ROUTES], partner);
  });

  it("answers 404, not 401, for a path no sub-app declares", async () => {
    const response = await callApi("/api/no-such-route");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: "Not found" });
  });

  it("describes every route in the app's type, for Hono's typed client", () => {
    // Type-level: a route missing from `Api` fails tsc here.
    const typed: (keyof ExtractSchema<Api>)[] = ["/api/my-orders", "/api/admin/aged-leads", "/api/partner/keys/:id"];
    expect(typed.every((path) => routes.some((route) => route.endsWith(` ${path}`)))).toBe(true);
  });
});

/** Every page Astro builds, from the file list in src/pages ('/admin' for admin.astro, '/' for index.astro). */
const PAGES = Object.keys(import.meta.glob("../../src/pages/**/*.astro")).map(
  (file) =>
    file
      .replace(/^.*\/src\/pages/, "")
      .replace(/\.astro$/, "")
      .replace(/\/index$/, "") || "/",
);

/**
 * Other spellings that reach a page (or could, on some server): the asset server's '.html' and
 * '/index.html', a trailing slash after them, other letter case, percent-escapes (of a letter, of the
 * slash), a doubled slash and a dot segment hidden behind an escaped slash. Absolute, so '//' stays a path.
 */
const aliases = (page: string) => {
  const escapedFirst = `%${page.charCodeAt(1).toString(16)}`;
  return [
    `${page}.html`,
    `${page}/index.html`,
    `${page}.html/`,
    `${page}/index`,
    page.toUpperCase(),
    `${page.slice(0, 2).toUpperCase()}${page.slice(2)}.HTML`,
    `/${escapedFirst}${page.slice(2)}`,
    `/${escapedFirst.replace("%", "%25")}${page.slice(2)}`,
    `${page}%2Findex.html`,
    `//${page.slice(1)}`,
    `/somewhere/..%2F${page.slice(1)}`,
  ].map((path) => `http://localhost${path}`);
};

const underPrefix = (page: string, prefix: string) => page === prefix || page.startsWith(`${prefix}/`);
const guardOf = (page: string) =>
  [...GUARDED_PREFIXES.keys()].filter((prefix) => underPrefix(page, prefix)).sort((a, b) => b.length - a.length)[0];

/** Who may open the pages under each prefix. */
const PAGE_AUDIENCE: Record<string, "buyer" | "admin" | "partner"> = {
  "/dashboard": "buyer",
  "/transfer-checkout": "buyer",
  "/admin": "admin",
  "/admin-orders": "admin",
  "/partner": "partner",
};

describe("the page guards", () => {
  let callers: Record<"buyer" | "admin" | "partner", string>;

  beforeAll(async () => {
    callers = {
      buyer: (await signedIn()).cookie,
      admin: (await signedIn({ isAdmin: true })).cookie,
      partner: (await signedInPartner()).cookie,
    };
  });

  it("guard exactly the prefixes of the page list, and nothing that only starts alike", () => {
    expect([...GUARDED_PREFIXES.keys()].sort()).toEqual(Object.keys(PAGE_AUDIENCE).sort());
    const guarded = PAGES.filter((page) => guardOf(page));
    // Each dashboard view and admin tab is its own page (decision 0074), all under the same two prefixes.
    const screens = [...DASHBOARD_VIEWS.map(dashboardPath), ...ADMIN_TAB_IDS.map(adminPath)];
    expect(screens).toContain("/dashboard/lead-tracker");
    expect(screens).toContain("/admin/users");
    expect(guarded.sort()).toEqual([...screens, "/admin-orders", "/partner", "/transfer-checkout"].sort());
    expect(PAGES).toContain("/partner-invitation");
  });

  it("send anonymous visitors of every guarded page (and anything below it) to /login", async () => {
    for (const page of PAGES.filter((path) => guardOf(path))) {
      for (const path of [page, `${page}/`, `${page}/anything`]) {
        const response = await callApi(path);
        expect(response.status, path).toBe(302);
        expect(response.headers.get("location"), path).toBe(
          `/login?next=${encodeURIComponent(path.replace(/\/$/, ""))}`,
        );
      }
    }
  });

  it("show the 403 page to signed-in users of the wrong kind on every guarded page", async () => {
    for (const page of PAGES.filter((path) => guardOf(path))) {
      const audience = PAGE_AUDIENCE[guardOf(page) ?? ""];
      // Admins may open buyer pages (they keep the buyer screens' access).
      const refused = (["buyer", "admin", "partner"] as const).filter(
        (kind) => kind !== audience && !(audience === "buyer" && kind === "admin"),
      );
      expect(refused.length, page).toBeGreaterThan(0);
      for (const kind of refused) {
        for (const path of [page, `${page}/anything`]) {
          expect((await callApi(path, { cookie: callers[kind] })).status, `${path} as ${kind}`).toBe(403);
        }
      }
    }
  });

  it("guard every alias of a guarded page as the page itself", async () => {
    for (const page of PAGES.filter((path) => guardOf(path))) {
      const audience = PAGE_AUDIENCE[guardOf(page) ?? ""];
      const wrongKind = audience === "partner" ? "buyer" : "partner";
      for (const path of aliases(page)) {
        const anonymous = await callApi(path);
        expect(anonymous.status, path).toBe(302);
        expect(anonymous.headers.get("location"), path).toBe(`/login?next=${encodeURIComponent(page)}`);
        expect((await callApi(path, { cookie: callers[wrongKind] })).status, `${path} as ${wrongKind}`).toBe(403);
      }
    }
  });

  it("let everyone through to the pages outside the guarded prefixes", async () => {
    for (const page of PAGES.filter((path) => !guardOf(path))) {
      for (const path of [page, `${page}.html`, page.toUpperCase()]) {
        const response = await callApi(path);
        expect([302, 403], `${path} answered ${response.status}`).not.toContain(response.status);
      }
    }
  });
});
