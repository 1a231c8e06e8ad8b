/**
 * Decision 0032: each dashboard view and admin tab is its own URL and its own chunk. A page load fetches the
 * open view's code only; the sidebar and the tab row move between views without reloading the page, and
 * the browser's Back and Forward return to the views seen before.
 */
import type { Page } from "@playwright/test";
import { expect, hydrated, test } from "./fixtures";

/** The file names of the scripts the page fetched from the site. */
function scriptsOf(page: Page): string[] {
  const names: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") names.push(new URL(request.url()).pathname.split("/").pop() ?? "");
  });
  return names;
}

const loaded = (scripts: string[], chunk: string) => scripts.some((name) => name.startsWith(`${chunk}.`));

test.describe("dashboard views", () => {
  test("load their own code, have their own URLs, and follow Back and Forward", async ({ buyerPage: page }) => {
    const scripts = scriptsOf(page);
    await page.goto("/dashboard");
    await hydrated(page);
    await expect(page.getByRole("heading", { name: "Buy Aged Leads" })).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(loaded(scripts, "AgedLeadsView")).toBe(true);
    for (const other of ["AccountViews", "LeadTrackerView", "ReturnLeadView", "CallTransfersView", "SupportView"]) {
      expect(loaded(scripts, other), `${other} on the first load`).toBe(false);
    }

    const nav = page.getByRole("navigation", { name: "Dashboard" });
    const current = (name: string) =>
      expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute("aria-current", "page");
    // Moving between views keeps the page: a marker set on it survives.
    await page.evaluate(() => Object.assign(window, { samePage: true }));
    await nav.getByRole("link", { name: "My Orders" }).click();
    await expect(page).toHaveURL(/\/dashboard\?view=my-orders$/);
    await expect(page.getByRole("heading", { name: "My Orders" })).toBeVisible();
    await current("My Orders");
    expect(loaded(scripts, "AccountViews")).toBe(true);
    await nav.getByRole("link", { name: "Support" }).click();
    await expect(page).toHaveURL(/\/dashboard\?view=support$/);
    await expect(page.getByText("and we will answer")).toBeVisible();

    await page.goBack();
    await expect(page).toHaveURL(/\/dashboard\?view=my-orders$/);
    await expect(page.getByRole("heading", { name: "My Orders" })).toBeVisible();
    await current("My Orders");
    await page.goBack();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: "Buy Aged Leads" })).toBeVisible();
    await current("Buy Aged Leads");
    await page.goForward();
    await expect(page.getByRole("heading", { name: "My Orders" })).toBeVisible();
    expect(await page.evaluate(() => (window as { samePage?: boolean }).samePage)).toBe(true);
  });
});

test.describe("admin tabs", () => {
  test("load their own code, have their own URLs, and follow Back and Forward", async ({ adminPage: page }) => {
    const scripts = scriptsOf(page);
    await page.goto("/admin?tab=users");
    await hydrated(page);
    await expect(page.getByText("@buyer", { exact: true })).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(loaded(scripts, "UsersTab")).toBe(true);
    for (const other of ["AgedLeadsTab", "CallbacksTab", "PartnersTab", "FulfilmentTab"]) {
      expect(loaded(scripts, other), `${other} on the first load`).toBe(false);
    }

    const tabs = page.getByRole("navigation", { name: "Admin sections" });
    await tabs.getByRole("link", { name: "Fulfilment" }).click();
    await expect(page).toHaveURL(/\/admin\?tab=fulfilment$/);
    await expect(page.getByRole("heading", { name: "Returns" })).toBeVisible();
    expect(loaded(scripts, "FulfilmentTab")).toBe(true);
    // The cards above the tabs lead to the same URLs.
    await page.getByRole("link", { name: /^Upload Callback Opportunities/ }).click();
    await expect(page).toHaveURL(/\/admin\?tab=callbacks$/);
    await expect(page.getByRole("heading", { name: "Upload a callback opportunity" })).toBeVisible();

    await page.goBack();
    await expect(page).toHaveURL(/\/admin\?tab=fulfilment$/);
    await expect(tabs.getByRole("link", { name: "Fulfilment" })).toHaveAttribute("aria-current", "page");
    await page.goBack();
    await expect(page).toHaveURL(/\/admin\?tab=users$/);
    await expect(page.getByText("@buyer", { exact: true })).toBeVisible();
    await page.goForward();
    await expect(page.getByRole("heading", { name: "Returns" })).toBeVisible();
  });
});
