/**
 * Decision 0074: each dashboard view and admin tab is its own page with its own island. A page load fetches
 * that page's code only; the sidebar and the tab row are plain links, rendered on the server, the current
 * one marked; the one-island screens' old addresses (/dashboard?view=…, /admin?tab=…) answer a redirect to
 * the new page, their other query parameters kept, an unknown id to the landing page.
 */
import type { Page } from "@playwright/test";
import { ADMIN_TAB_IDS, adminPath } from "../../src/islands/admin/tabs";
import { DASHBOARD_VIEWS, dashboardPath } from "../../src/islands/dashboard/views";
import { expect, followRequests, hydrated, settled, test } from "./fixtures";

/** The file names of the scripts the page fetched from the site. */
function scriptsOf(page: Page): string[] {
  const names: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") names.push(new URL(request.url()).pathname.split("/").pop() ?? "");
  });
  return names;
}

const loaded = (scripts: string[], chunk: string) => scripts.some((name) => name.startsWith(`${chunk}.`));

/** Where `path` redirects to (the Location of its 301), asked without following it. */
async function redirectOf(page: Page, path: string): Promise<string | null> {
  const response = await page.request.get(path, { maxRedirects: 0 });
  expect(response.status(), path).toBe(301);
  return response.headers().location ?? null;
}

test.describe("dashboard pages", () => {
  test("load their own island, link to each other with plain links, and follow Back", async ({ buyerPage: page }) => {
    const scripts = scriptsOf(page);
    followRequests(page);
    await page.goto("/dashboard");
    await hydrated(page);
    await expect(page.getByRole("heading", { name: "Buy Aged Leads" })).toBeVisible();
    await settled(page);
    expect(loaded(scripts, "AgedLeadsScreen")).toBe(true);
    for (const other of ["MyOrdersScreen", "LeadTrackerScreen", "ReturnLeadScreen", "CallTransfersScreen"]) {
      expect(loaded(scripts, other), `${other} on the first load`).toBe(false);
    }

    const nav = page.getByRole("navigation", { name: "Dashboard" });
    for (const view of DASHBOARD_VIEWS) {
      expect(await nav.locator(`a[href="${dashboardPath(view)}"]`).count(), view).toBe(1);
    }
    const current = (name: string) =>
      expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute("aria-current", "page");
    await current("Buy Aged Leads");
    await expect(nav.locator("[aria-current]")).toHaveCount(1);

    await nav.getByRole("link", { name: "My Orders" }).click();
    await expect(page).toHaveURL(/\/dashboard\/my-orders$/);
    await expect(page.getByRole("heading", { name: "My Orders" })).toBeVisible();
    await current("My Orders");
    expect(loaded(scripts, "MyOrdersScreen")).toBe(true);
    await nav.getByRole("link", { name: "Support" }).click();
    await expect(page).toHaveURL(/\/dashboard\/support$/);
    await expect(page.getByText("and we will answer")).toBeVisible();

    await page.goBack();
    await expect(page).toHaveURL(/\/dashboard\/my-orders$/);
    await expect(page.getByRole("heading", { name: "My Orders" })).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/\/dashboard$/);
    await current("Buy Aged Leads");
  });

  test("old addresses answer a redirect to the view's page, keeping the other parameters", async ({
    buyerPage: page,
  }) => {
    for (const view of DASHBOARD_VIEWS) {
      expect(await redirectOf(page, `/dashboard?view=${view}`), view).toBe(dashboardPath(view));
    }
    expect(await redirectOf(page, "/dashboard?view=return-lead&transfer=t-1")).toBe(
      "/dashboard/return-lead?transfer=t-1",
    );
    expect(await redirectOf(page, "/dashboard?utm=mail&view=my-leads")).toBe("/dashboard/my-leads?utm=mail");
    expect(await redirectOf(page, "/dashboard?view=no-such-view&utm=mail")).toBe("/dashboard?utm=mail");
    expect(await redirectOf(page, "/dashboard?view=")).toBe("/dashboard");

    await page.goto("/dashboard?view=lead-tracker");
    await expect(page).toHaveURL(/\/dashboard\/lead-tracker$/);
    await expect(page.getByRole("heading", { name: "Lead Tracker" })).toBeVisible();
  });
});

test.describe("admin pages", () => {
  test("load their own island and link to each other with plain links", async ({ adminPage: page }) => {
    const scripts = scriptsOf(page);
    followRequests(page);
    await page.goto("/admin/users");
    await hydrated(page);
    await expect(page.getByText("@buyer", { exact: true })).toBeVisible();
    await settled(page);
    expect(loaded(scripts, "UsersTabScreen")).toBe(true);
    for (const other of ["AgedLeadsTabScreen", "CallbacksTabScreen", "PartnersTabScreen", "FulfilmentTabScreen"]) {
      expect(loaded(scripts, other), `${other} on the first load`).toBe(false);
    }

    const tabs = page.getByRole("navigation", { name: "Admin sections" });
    for (const tab of ADMIN_TAB_IDS) expect(await tabs.locator(`a[href="${adminPath(tab)}"]`).count(), tab).toBe(1);
    await expect(tabs.getByRole("link", { name: "Users" })).toHaveAttribute("aria-current", "page");
    await tabs.getByRole("link", { name: "Fulfilment" }).click();
    await expect(page).toHaveURL(/\/admin\/fulfilment$/);
    await expect(page.getByRole("heading", { name: "Returns" })).toBeVisible();
    await expect(tabs.getByRole("link", { name: "Fulfilment" })).toHaveAttribute("aria-current", "page");
    // The cards above the tabs lead to the same pages.
    await page.getByRole("link", { name: /^Upload Callback Opportunities/ }).click();
    await expect(page).toHaveURL(/\/admin\/callbacks$/);
    await expect(page.getByRole("heading", { name: "Upload a callback opportunity" })).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL(/\/admin\/fulfilment$/);
  });

  test("old addresses answer a redirect to the tab's page, keeping the other parameters", async ({
    adminPage: page,
  }) => {
    for (const tab of ADMIN_TAB_IDS) expect(await redirectOf(page, `/admin?tab=${tab}`), tab).toBe(adminPath(tab));
    expect(await redirectOf(page, "/admin?tab=dnc-requests&phone=5551234567")).toBe(
      "/admin/dnc-requests?phone=5551234567",
    );
    expect(await redirectOf(page, "/admin?tab=no-such-tab")).toBe("/admin");

    await page.goto("/admin?tab=users");
    await expect(page).toHaveURL(/\/admin\/users$/);
    await expect(page.getByText("@buyer", { exact: true })).toBeVisible();
  });
});
