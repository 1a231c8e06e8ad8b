/**
 * Every route of the site, who visits it, and how much JavaScript it may load (decisions 0016 and 0032),
 * measured in Chromium: the bytes of every same-origin script a page load fetches (Stripe.js,
 * fetched only when a real Stripe payment step shows, is another origin), raw and gzip -6 of the
 * same bytes. Shared by `npm run bench -- pages` and the e2e budget test.
 */
import { gzipSync } from "node:zlib";
import type { Browser, BrowserContext, Page, Response } from "playwright-core";
import { ADMIN_LANDING, ADMIN_TAB_IDS, adminPath } from "../src/islands/admin/tabs.ts";
import { DASHBOARD_LANDING, DASHBOARD_VIEWS, dashboardPath } from "../src/islands/dashboard/views.ts";
import { DEMO_ADMIN, DEMO_BUYER } from "./demo-data.ts";
import { DEMO_PARTNER } from "./demo-transfers.ts";
import { followRequests, settled } from "./lib/settled.ts";

export type Visitor = "anonymous" | "buyer" | "admin" | "partner";

/** 1 KB = 1,000 bytes, as the budgets are stated. */
export const KB = 1000;
/** Every page with an island: React 19 and react-dom are ~70 KB of it (decision 0032). */
export const ISLAND_PAGE_BUDGET = 100 * KB;
/** A pricing page loads its confetti and nothing else. */
export const CONFETTI_BUDGET = 6 * KB;

export interface RouteSpec {
  path: string;
  /** Who opens it (pages behind a session need a signed-in buyer, admin or partner). */
  visitor: Visitor;
  /** Gzip bytes of JavaScript the page may load. */
  budget: number;
  /** A page with React islands rendered on the server (decision 0032); the others have none. */
  island?: true;
}

const island = (path: string, visitor: Visitor = "anonymous"): RouteSpec => ({
  path,
  visitor,
  budget: ISLAND_PAGE_BUDGET,
  island: true,
});

/**
 * The partner API reference (decision 0081) is no island page: Scalar's UI, one self-hosted script that
 * renders the OpenAPI document in the browser. Its budget is that script as shipped (1,402 KB gzip, version
 * 1.76.0) with a little room, so a heavier release or a second script shows here.
 */
export const API_REFERENCE_BUDGET = 1_450 * KB;

export const ROUTES: RouteSpec[] = [
  { path: "/", visitor: "anonymous", budget: 0 },
  { path: "/pricing", visitor: "anonymous", budget: 0 },
  ...["standard", "special", "premium", "enterprise", "ultimate"].map(
    (name): RouteSpec => ({ path: `/${name}-pricing`, visitor: "anonymous", budget: CONFETTI_BUDGET }),
  ),
  { path: "/no-such-page", visitor: "anonymous", budget: 0 },
  { path: "/api/v1/docs", visitor: "anonymous", budget: API_REFERENCE_BUDGET },
  island("/login"),
  island("/forgot-password"),
  island("/reset-password?token=not-a-real-token"),
  island("/checkout"),
  island("/checkout-high-volume"),
  island("/checkout-premium"),
  island("/checkout-enterprise"),
  island("/checkout-ultimate"),
  island("/onboarding-success"),
  island("/ringcloud-checkout?amount=370&calls=10&tier=ringcloud&packageType=live_transfers&pricePerUnit=37"),
  island("/thank-you"),
  island("/survey-success"),
  island("/transfer-checkout", "buyer"),
  island("/admin-orders", "admin"),
  island("/dashboard", "buyer"),
  // Every dashboard view and admin tab is its own page with its own island (decision 0074).
  ...DASHBOARD_VIEWS.filter((view) => view !== DASHBOARD_LANDING).map((view) => island(dashboardPath(view), "buyer")),
  island("/survey"),
  island("/get-started"),
  island("/ringcloud"),
  island("/affnetwork"),
  island("/delivery-setup?token=not-a-real-token"),
  island("/partner-invitation?token=not-a-real-token"),
  island("/partner", "partner"),
  island("/do-not-call"),
  island("/admin", "admin"),
  ...ADMIN_TAB_IDS.filter((tab) => tab !== ADMIN_LANDING).map((tab) => island(adminPath(tab), "admin")),
];

export const demoAccount = { buyer: DEMO_BUYER, admin: DEMO_ADMIN, partner: DEMO_PARTNER } as const;

/** Signs the context in through the login form (no JavaScript needed) as a demo account. */
export async function signIn(context: BrowserContext, visitor: Visitor): Promise<void> {
  if (visitor === "anonymous") return;
  const account = demoAccount[visitor];
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Username").fill(account.username);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await Promise.all([
    page.waitForURL((url) => url.pathname !== "/login"),
    page.getByRole("button", { name: "Login" }).click(),
  ]);
  await page.close();
}

/** The phone-sized screen the pages are weighed on. */
export const VISITOR_VIEWPORT = { width: 412, height: 823 };

/** A fresh context per visitor, signed in when the visitor is. */
export async function visitorContext(browser: Browser, baseURL: string, visitor: Visitor): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: VISITOR_VIEWPORT });
  await signIn(context, visitor);
  return context;
}

export interface Bytes {
  raw: number;
  gzip: number;
}
export interface PageWeight {
  html: Bytes;
  css: Bytes;
  js: Bytes;
  /** Every same-origin script the load fetched, with its gzip size. */
  scripts: { url: string; gzip: number }[];
}

type Kind = "html" | "css" | "js";
const kindOf: Record<string, Kind> = { document: "html", stylesheet: "css", script: "js" };

/**
 * Loads `path` until it has settled (scripts/lib/settled.ts) and adds up what it fetched from the site
 * (`baseURL`) itself; with `then`, also what the page fetches while the visitor does it (opening a panel
 * and its form).
 */
export async function weighPage(
  page: Page,
  baseURL: string,
  path: string,
  then?: (page: Page) => Promise<void>,
): Promise<PageWeight> {
  const site = new URL(baseURL).origin;
  const weight: PageWeight = {
    html: { raw: 0, gzip: 0 },
    css: { raw: 0, gzip: 0 },
    js: { raw: 0, gzip: 0 },
    scripts: [],
  };
  const pending: Promise<void>[] = [];
  const onResponse = (response: Response) => {
    const kind = kindOf[response.request().resourceType()];
    const url = new URL(response.url());
    const redirect = response.status() >= 300 && response.status() < 400;
    // blob: scripts (confetti's worker) are code the page already fetched, not another download.
    if (!kind || url.protocol === "blob:" || url.origin !== site || redirect) return;
    pending.push(
      response.body().then(
        (body) => {
          const gzip = gzipSync(body).length;
          weight[kind].raw += body.length;
          weight[kind].gzip += gzip;
          if (kind === "js") weight.scripts.push({ url: url.pathname, gzip });
        },
        // A page that forwards (/get-started) drops what it loaded; the next page's loads are counted.
        () => undefined,
      ),
    );
  };
  page.on("response", onResponse);
  followRequests(page);
  await page.goto(new URL(path, baseURL).toString());
  await settled(page);
  if (then) {
    await then(page);
    await settled(page);
  }
  await Promise.all(pending);
  page.off("response", onResponse);
  return weight;
}
