/**
 * Decision 0032: every island is rendered on the server. With the browser's scripts switched off, each island
 * page still shows its first screen (the checkout's summary and button, the wizards' step 1, the application
 * form, the dashboard's current view, the admin's current tab), and the pages that need the user read them
 * from the session on the server.
 */
import type { Page } from "@playwright/test";
import { DEMO_BUYER } from "../../scripts/demo-data.ts";
import { ROUTES } from "../../scripts/page-weights.ts";
import { type AdminTab, adminPath } from "../../src/islands/admin/tabs.ts";
import { type DashboardView, dashboardPath } from "../../src/islands/dashboard/views.ts";
import { expect, type SignedIn, test } from "./fixtures";

interface Screen {
  path: string;
  as?: SignedIn;
  /** What the server's HTML must show by itself. */
  shows: (page: Page) => Promise<void>;
}

const heading = (page: Page, name: string | RegExp) => expect(page.getByRole("heading", { name })).toBeVisible();
const button = (page: Page, name: string) => expect(page.getByRole("button", { name })).toBeVisible();
const field = (page: Page, label: string) => expect(page.getByLabel(label, { exact: true })).toBeVisible();

/** A package checkout: its title, the count field, the order summary and its button. */
const checkout = (path: string, title: string): Screen => ({
  path,
  shows: async (page) => {
    await heading(page, title);
    await field(page, "Number of transfers");
    await heading(page, "Order Summary");
    await expect(page.getByTestId("order-total")).toHaveText(/^\$[\d,]+\.\d\d$/);
    await button(page, "Proceed to Payment");
    // Anonymous: the receipt's e-mail is asked on the first screen.
    await field(page, "Email for your receipt");
  },
});

/** The dashboard on one view: the signed-in buyer's name, the sidebar with that view current, its heading. */
const dashboardView = (view: DashboardView, label: string, title: string): Screen => ({
  path: dashboardPath(view),
  as: "buyer",
  shows: async (page) => {
    await expect(page.getByText(`Signed in as ${DEMO_BUYER.firstName} ${DEMO_BUYER.lastName}`)).toBeAttached();
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    await expect(nav.getByRole("link", { name: label, exact: true })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: label, exact: true })).toHaveAttribute("href", dashboardPath(view));
    // The view's own heading (the sidebar's section titles are headings too).
    await expect(page.locator("h2:not(nav h2)").filter({ hasText: new RegExp(`^${title}$`) })).toBeVisible();
  },
});

/** The admin panel on one tab: the tab current in the tab row, and what the tab shows first. */
const adminTab = (tab: AdminTab, label: string, first: (page: Page) => Promise<void>): Screen => ({
  path: adminPath(tab),
  as: "admin",
  shows: async (page) => {
    await heading(page, "Admin Panel");
    const tabs = page.getByRole("navigation", { name: "Admin sections" });
    await expect(tabs.getByRole("link", { name: label, exact: true })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("region", { name: label, exact: true })).toBeVisible();
    await first(page);
  },
});

const SCREENS: Screen[] = [
  checkout("/checkout", "Customize Your Package"),
  checkout("/checkout-high-volume", "High-Volume Package Checkout"),
  checkout("/checkout-premium", "Premium Volume Package"),
  checkout("/checkout-enterprise", "Enterprise Volume Package"),
  checkout("/checkout-ultimate", "Ultimate Volume Package"),
  {
    path: "/checkout",
    as: "buyer",
    shows: async (page) => {
      await button(page, "Proceed to Payment");
      // The server knows who is signed in: no e-mail is asked, and no script had to say so.
      await expect(page.getByLabel("Email for your receipt")).toHaveCount(0);
    },
  },
  {
    path: "/survey",
    shows: async (page) => {
      await heading(page, "Final Expense Lead Survey");
      await expect(page.getByText("Step 1 of 3")).toBeVisible();
      await heading(page, "Agency information");
      for (const label of ["First name", "Agency name", "Phone", "Email", "Username", "Password"])
        await field(page, label);
      await button(page, "Next");
    },
  },
  {
    path: "/ringcloud",
    shows: async (page) => {
      await heading(page, "Get Started with Live Transfers");
      await expect(page.getByText("Step 1 of 3")).toBeVisible();
      for (const label of ["Agency name", "First name", "Last name"]) await field(page, label);
    },
  },
  {
    path: "/affnetwork",
    shows: async (page) => {
      await heading(page, "Partner Application");
      for (const label of ["Business name", "Business address", "Contact email", "Daily call cap"]) {
        await field(page, label);
      }
      await button(page, "Submit Application");
    },
  },
  {
    path: "/ringcloud-checkout?amount=370&calls=10&tier=ringcloud&packageType=live_transfers&pricePerUnit=37",
    shows: async (page) => {
      await heading(page, "Live Transfer Package");
      await expect(page.getByText("$370.00")).toBeVisible();
      await button(page, "Complete Purchase");
    },
  },
  { path: "/thank-you", shows: (page) => heading(page, "Thank You - Your order is being processed") },
  { path: "/onboarding-success", shows: (page) => heading(page, "Welcome aboard!") },
  { path: "/delivery-setup", shows: (page) => heading(page, "Link expired") },
  { path: "/partner-invitation", shows: (page) => heading(page, "Invitation expired") },
  {
    path: "/do-not-call",
    shows: async (page) => {
      await heading(page, "Stop calls to your number");
      await field(page, "Phone number");
    },
  },
  {
    // The landing view, Buy Aged Leads, at /dashboard itself (decision 0074).
    ...dashboardView("aged-leads", "Buy Aged Leads", "Buy Aged Leads"),
    shows: async (page) => {
      await dashboardView("aged-leads", "Buy Aged Leads", "Buy Aged Leads").shows(page);
      await field(page, "Filter by location");
      await button(page, "Purchase Selected Leads");
    },
  },
  dashboardView("call-transfers", "Buy Call Transfers", "Buy Call Transfers"),
  dashboardView("appointments", "Buy Appointments", "Buy Appointments"),
  dashboardView("call-backs", "Buy Call Backs", "Buy Call Backs"),
  dashboardView("my-leads", "My Leads", "My Leads"),
  dashboardView("my-call-backs", "My Call-Backs", "My Call-Backs"),
  dashboardView("my-orders", "My Orders", "My Orders"),
  dashboardView("lead-tracker", "Lead Tracker", "Lead Tracker"),
  dashboardView("do-not-call-list", "My Do Not Call List", "My Do Not Call list"),
  dashboardView("integrations", "Integrations", "Integrations"),
  dashboardView("return-lead", "Return a Lead", "Return a Lead"),
  dashboardView("support", "Support", "Support"),
  adminTab("aged-leads", "Aged Leads", async (page) => {
    await heading(page, "Bulk upload (CSV)");
    await heading(page, "Latest aged leads");
    // The single-lead form is in the server's HTML too, below the fold: React's streaming renderer moves a
    // Suspense boundary that late in a long island out of line, revealed by its own inline script (decision
    // 0032), so with every script switched off it is present but hidden.
    await expect(page.getByRole("heading", { name: "Add a single aged lead", includeHidden: true })).toHaveCount(1);
  }),
  // The call-back form (with its window and consent fields) is long enough that React's streaming renderer
  // moves its Suspense boundary out of line, like the single-lead form's (decision 0032): present in the
  // server's HTML, hidden while every script is off.
  adminTab("callbacks", "Callbacks", (page) =>
    expect(page.getByRole("heading", { name: "Upload a callback opportunity", includeHidden: true })).toHaveCount(1),
  ),
  adminTab("users", "Users", (page) => expect(page.getByRole("status")).toHaveText("Loading users...")),
  adminTab("aff-network", "Partner Applications", (page) => expect(page.getByRole("status").first()).toBeVisible()),
  adminTab("fulfilment", "Fulfilment", (page) => heading(page, "Returns")),
  adminTab("do-not-call", "Do Not Call", (page) => heading(page, "Do Not Call lists")),
  adminTab("dnc-requests", "Do Not Call Requests", (page) =>
    expect(page.getByRole("status").filter({ hasText: "Loading requests..." })).toBeVisible(),
  ),
  {
    path: "/admin-orders",
    as: "admin",
    shows: async (page) => {
      await heading(page, "Transfer Orders");
      await expect(page.getByText("Total orders")).toBeVisible();
    },
  },
  {
    path: "/partner",
    as: "partner",
    shows: async (page) => {
      await heading(page, "Partner Portal");
      await heading(page, "API keys");
      await heading(page, "Payout statement");
    },
  },
  {
    // The pending transfer order lives in this browser's storage, so the server's HTML holds the page and its
    // loading state; the order shows once the island has read it.
    path: "/transfer-checkout",
    as: "buyer",
    shows: async (page) => {
      await expect(page.getByRole("link", { name: "Back" })).toHaveAttribute("href", "/dashboard/call-transfers");
      await expect(page.getByRole("status")).toHaveText("Loading your order...");
    },
  },
];

test.describe("island pages without JavaScript", () => {
  for (const screen of SCREENS) {
    test(`${screen.path}${screen.as ? ` (${screen.as})` : ""} shows its first screen from the server`, async ({
      newPage,
    }) => {
      const page = await newPage({ as: screen.as, javaScriptEnabled: false });
      const response = await page.goto(screen.path);
      expect(response?.status()).toBe(200);
      await screen.shows(page);
      // Rendered on the server, never left to the browser.
      await expect(page.locator("astro-island")).not.toHaveCount(0);
      await expect(page.locator("astro-island[client='only']")).toHaveCount(0);
      for (const island of await page.locator("astro-island").all()) await expect(island).not.toBeEmpty();
    });
  }

  test("covers every island page of the budget list", () => {
    const islandPages = ROUTES.filter((route) => route.island).map((route) => route.path.split("?")[0]);
    const covered = new Set(SCREENS.map((screen) => screen.path.split("?")[0]));
    const serverForms = ["/login", "/forgot-password", "/reset-password", "/survey-success", "/get-started"];
    expect(islandPages.filter((path) => !covered.has(path) && !serverForms.includes(path ?? ""))).toEqual([]);
  });
});
