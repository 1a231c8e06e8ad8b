/**
 * The whole route list through axe-core (WCAG 2.0/2.1 A and AA, plus best practice) at desktop and phone
 * width: no critical or serious violation, no sideways page scroll, exactly one h1. Both wizards are
 * audited at every step, each lead type's step 2 and each step's refusal included, the checkouts at their
 * payment stage, the partner portal, the dashboard at every view and the admin
 * at every tab. `SCREENSHOTS=1` also saves each screen to docs/screenshots/ (`npm run screenshots`). Every
 * page here opens with `bypassCSP`, which lets axe-core be injected (the app keeps its CSP).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { ADMIN_TAB_IDS, adminPath } from "../../src/islands/admin/tabs";
import { DASHBOARD_VIEWS, dashboardPath } from "../../src/islands/dashboard/views";
import { axeOf, expect, followRequests, hydrated, settled, test } from "./fixtures";

test.use({ bypassCSP: true });

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];
const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;
type Viewport = (typeof VIEWPORTS)[number];

const SCREENSHOT_DIR = "docs/screenshots";
const screenshots = Boolean(process.env.SCREENSHOTS);
if (screenshots) mkdirSync(SCREENSHOT_DIR, { recursive: true });

let counter = 0;
const unique = () => `${Date.now().toString(36)}${++counter}`;

/** Pages audited as they load (anonymous). */
const PUBLIC_ROUTES: readonly [name: string, path: string][] = [
  ["home", "/"],
  ["pricing", "/pricing"],
  ["standard-pricing", "/standard-pricing"],
  ["special-pricing", "/special-pricing"],
  ["premium-pricing", "/premium-pricing"],
  ["enterprise-pricing", "/enterprise-pricing"],
  ["ultimate-pricing", "/ultimate-pricing"],
  ["checkout", "/checkout"],
  ["checkout-high-volume", "/checkout-high-volume"],
  ["checkout-premium", "/checkout-premium"],
  ["checkout-enterprise", "/checkout-enterprise"],
  ["checkout-ultimate", "/checkout-ultimate"],
  ["login", "/login"],
  ["forgot-password", "/forgot-password"],
  ["reset-password", "/reset-password?token=not-a-real-token"],
  ["delivery-setup", "/delivery-setup?token=not-a-real-token"],
  ["partner-invitation", "/partner-invitation?token=not-a-real-token"],
  ["affnetwork", "/affnetwork"],
  ["thank-you", "/thank-you"],
  ["onboarding-success", "/onboarding-success"],
  ["survey-success", "/survey-success"],
  ["do-not-call", "/do-not-call"],
  ["not-found", "/no-such-page"],
];

/** Only violations are reported in full, in the page itself when it has no frames (`axeOf`, fixtures.ts). */
const axe = (page: Page) => axeOf(page).withTags(AXE_TAGS).analyze();

/** Opens `path`, following the page's requests from before it loads (for `settle`). */
async function visit(page: Page, path: string) {
  followRequests(page);
  await page.goto(path);
}

/** Lets the page's islands hydrate and their first requests finish (scripts/lib/settled.ts). */
async function settle(page: Page) {
  await hydrated(page);
  await settled(page);
  await expect(page.locator("h1").first()).toBeVisible();
}

/**
 * Audits what the page shows now and records every problem as one readable line. With SCREENSHOTS set,
 * saves a viewport-high palette PNG of it.
 */
async function audit(page: Page, name: string, viewport: Viewport, problems: string[]) {
  await settle(page);
  const where = `${name} @${viewport.width}px`;
  const results = await axe(page);
  if (results.passes.length === 0) problems.push(`${where}: axe checked nothing`);
  for (const violation of results.violations) {
    if (violation.impact !== "critical" && violation.impact !== "serious") continue;
    const targets = violation.nodes.slice(0, 3).map((node) => node.target.join(" "));
    problems.push(`${where}: ${violation.id} (${violation.impact}) ${targets.join(" | ")}`);
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 0) problems.push(`${where}: the page scrolls sideways by ${overflow}px`);
  const h1s = await page.locator("h1").count();
  if (h1s !== 1) problems.push(`${where}: ${h1s} h1 elements`);
  if (screenshots) {
    const png = await page.screenshot({ animations: "disabled", caret: "hide" });
    await sharp(png)
      .png({ palette: true, colours: 64, compressionLevel: 9, effort: 10 })
      .toFile(join(SCREENSHOT_DIR, `${name}-${viewport.width}.png`));
  }
}

test("the audit catches the contrast the old brand green failed (white on #059669)", async ({ page }) => {
  await visit(page, "/login");
  await settle(page);
  await page.evaluate(() => {
    const button = document.querySelector<HTMLElement>("main button[type=submit]");
    if (button) button.style.backgroundColor = "#059669";
  });
  const results = await axe(page);
  expect(results.violations.map((violation) => violation.id)).toContain("color-contrast");
});

for (const viewport of VIEWPORTS) {
  test.describe(`axe, overflow and one h1 at ${viewport.width} px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("marketing, checkout, auth, partner, result and 404 pages", async ({ page }) => {
      test.setTimeout(600_000);
      const problems: string[] = [];
      for (const [name, path] of PUBLIC_ROUTES) {
        await visit(page, path);
        await audit(page, name, viewport, problems);
      }
      // A checkout's payment stage: the card form.
      await visit(page, "/checkout");
      await settle(page);
      await page.getByLabel("Email for your receipt").fill(`shopper${unique()}@example.com`);
      await page.getByRole("button", { name: "Proceed to Payment" }).click();
      await expect(page.getByLabel("Card number")).toBeVisible();
      await audit(page, "checkout-payment", viewport, problems);
      expect(problems).toEqual([]);
    });

    // Decision 0081: Scalar's UI, audited once it has drawn the document, its webhooks included.
    test("the partner API reference", async ({ page }) => {
      const problems: string[] = [];
      await visit(page, "/api/v1/docs");
      await expect(page.getByRole("heading", { name: "Webhooks" })).toBeVisible();
      await audit(page, "api-reference", viewport, problems);
      expect(problems).toEqual([]);
    });

    test("the survey at every step", async ({ page }) => {
      test.setTimeout(240_000);
      const problems: string[] = [];
      await visit(page, "/survey");
      await audit(page, "survey-step-1", viewport, problems);
      await page.getByRole("button", { name: "Next" }).click();
      await expect(page.getByText("First name is required")).toBeVisible();
      await audit(page, "survey-step-1-errors", viewport, problems);
      const tag = unique();
      await page.getByLabel("First name").fill("Ada");
      await page.getByLabel("Last name").fill("Audit");
      await page.getByLabel("Agency name").fill("Audit Agency");
      await page.getByLabel("Agency Owner").check();
      await page.getByLabel("Phone").fill("5551112222");
      await page.getByLabel("Email").fill(`ada${tag}@example.com`);
      await page.getByLabel("Username").fill(`ada${tag}`);
      await page.getByLabel("Password").fill("ada-audit-1");
      await page.getByRole("button", { name: "Next" }).click();
      await expect(page.getByText("Step 2 of 3")).toBeVisible();
      // Step 2 refused (nothing chosen), then each lead type's own fields. Aged Leads comes last and is the
      // one paid for: its age-range choice, once shown, stays empty in the form when another type is
      // chosen after it, and the step is then refused with no message (a bug once, fixed).
      await page.getByRole("button", { name: "Continue to Payment" }).click();
      await expect(page.getByText("Please select a lead type")).toBeVisible();
      await audit(page, "survey-step-2-errors", viewport, problems);
      await page.getByLabel("Call-Backs").check();
      await expect(page.getByLabel("Number of callbacks")).toBeVisible();
      await audit(page, "survey-step-2-call-backs", viewport, problems);
      await page.getByLabel("Live Transfers").check();
      await page.getByLabel("Total transfers").fill("60");
      await page.getByLabel("Calls per day").fill("6");
      await page.getByLabel("Transfer hours").fill("9-5 EST");
      await audit(page, "survey-step-2", viewport, problems);
      // A bundle is reserved at checkout from the seed's stock (decision 0057): a few leads of the
      // largest band, so that both viewports' walks and the later specs all find theirs.
      await page.getByLabel("Aged Leads").check();
      await page.getByLabel("Number of leads").fill("2");
      await page.getByLabel("90-180 days").check();
      await audit(page, "survey-step-2-aged-leads", viewport, problems);
      await page.getByRole("button", { name: "Continue to Payment" }).click();
      await expect(page.getByLabel("Card number")).toBeVisible();
      await audit(page, "survey-step-3", viewport, problems);
      expect(problems).toEqual([]);
    });

    test("the ringcloud wizard and its checkout at every step", async ({ page }) => {
      test.setTimeout(240_000);
      const problems: string[] = [];
      await visit(page, "/ringcloud");
      await audit(page, "ringcloud-step-1", viewport, problems);
      await page.getByRole("button", { name: "Next" }).click();
      await expect(page.getByText("Agency name is required")).toBeVisible();
      await audit(page, "ringcloud-step-1-errors", viewport, problems);
      const tag = unique();
      await page.getByLabel("Agency name").fill("Ring Audit");
      await page.getByLabel("First name").fill("Rae");
      await page.getByLabel("Last name").fill("Audit");
      await page.getByLabel("Email").fill(`rae${tag}@example.com`);
      await page.getByLabel("Phone").fill("5553334444");
      await page.getByLabel("State").selectOption("TX");
      await page.getByLabel("Username").fill(`rae${tag}`);
      await page.getByLabel("Password", { exact: true }).fill("rae-audit-1");
      await page.getByLabel("Confirm password").fill("rae-audit-1");
      await page.getByRole("button", { name: "Next" }).click();
      await expect(page.getByRole("heading", { name: "Lead Preferences" })).toBeVisible();
      // Step 2 refused (nothing chosen), then each lead type's own fields, Aged Leads last (as in the survey).
      await page.getByRole("button", { name: "Continue to Payment" }).click();
      await expect(page.getByText("Please select a lead type")).toBeVisible();
      await audit(page, "ringcloud-step-2-errors", viewport, problems);
      await page.getByLabel("Live Transfers").check();
      await expect(page.getByLabel("Transfer phone")).toBeVisible();
      await audit(page, "ringcloud-step-2-live-transfers", viewport, problems);
      await page.getByLabel("Call-Backs").check();
      await page.getByLabel("Number of call-backs").fill("8");
      await page.getByLabel("Morning").check();
      await page.getByLabel("States you work in").fill("TX, FL, CA, GA, OH, NC, AZ, PA, TN, MI");
      await audit(page, "ringcloud-step-2", viewport, problems);
      await page.getByLabel("Aged Leads (partial applications)").check();
      await page.getByLabel("Number of leads").fill("1");
      await page.getByLabel("90-180 days").check();
      await audit(page, "ringcloud-step-2-aged-leads", viewport, problems);
      await page.getByRole("button", { name: "Continue to Payment" }).click();
      await expect(page).toHaveURL(/\/ringcloud-checkout\?/);
      await audit(page, "ringcloud-checkout", viewport, problems);
      await page.getByRole("button", { name: "Complete Purchase" }).click();
      await expect(page.getByLabel("Card number")).toBeVisible();
      await audit(page, "ringcloud-checkout-payment", viewport, problems);
      expect(problems).toEqual([]);
    });

    test("every dashboard view and the transfer checkout (buyer)", async ({ buyerPage: page }) => {
      test.setTimeout(300_000);
      const problems: string[] = [];
      for (const view of DASHBOARD_VIEWS) {
        await visit(page, dashboardPath(view));
        await audit(page, `dashboard-${view}`, viewport, problems);
      }
      await visit(page, "/transfer-checkout");
      await audit(page, "transfer-checkout", viewport, problems);
      await visit(page, "/admin");
      await audit(page, "forbidden", viewport, problems);
      expect(problems).toEqual([]);
    });

    test("the partner portal (partner)", async ({ newPage }) => {
      test.setTimeout(120_000);
      const problems: string[] = [];
      const page = await newPage({ as: "partner" });
      await visit(page, "/partner");
      await audit(page, "partner", viewport, problems);
      expect(problems).toEqual([]);
    });

    test("every admin tab and /admin-orders", async ({ adminPage: page }) => {
      test.setTimeout(300_000);
      const problems: string[] = [];
      for (const tab of ADMIN_TAB_IDS) {
        await visit(page, adminPath(tab));
        await audit(page, `admin-${tab}`, viewport, problems);
      }
      await visit(page, "/admin-orders");
      await audit(page, "admin-orders", viewport, problems);
      expect(problems).toEqual([]);
    });
  });
}
