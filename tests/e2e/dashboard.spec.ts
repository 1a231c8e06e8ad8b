import type { Page } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { orders, users } from "../../worker/db/schema";
import { createUser, e2eDb } from "./database";
import { expect, signIn, test, url } from "./fixtures";
import { payWith, toast } from "./pay";

async function signInFreshBuyer(page: Page, next = "/dashboard") {
  const user = await createUser();
  await signIn(page, user.username, user.password, next);
  return user;
}

const rows = (page: Page) => page.locator("tbody tr");
/** Every listed lead (at least one) mentions `text`. */
const allRowsMention = async (page: Page, text: string) => {
  const texts = await rows(page).allTextContents();
  return texts.length > 0 && texts.every((row) => row.includes(text));
};

test.describe("dashboard", () => {
  test("has the spec's sidebar (and the Lead Tracker), the call-back marketplace views and support contact", async ({
    buyerPage: page,
  }) => {
    await page.goto("/dashboard");
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    await expect(nav).toBeVisible();
    for (const item of [
      "Buy Aged Leads",
      "Buy Call Transfers",
      "Buy Appointments",
      "Buy Call Backs",
      "My Leads",
      "My Orders",
      "Lead Tracker",
      "Return a Lead",
      "Support",
    ]) {
      await expect(nav.getByRole("link", { name: item, exact: true })).toHaveCount(1);
    }
    await expect(nav.getByRole("link", { name: "Logout" })).toHaveAttribute("href", "/api/logout");
    // The call-back marketplace is real now (decision 0061): its heading, not a coming-soon line.
    for (const item of ["Buy Appointments", "Buy Call Backs"]) {
      await nav.getByRole("link", { name: item, exact: true }).click();
      await expect(page.getByRole("heading", { name: item, level: 2 })).toBeVisible();
      await expect(page.getByText(`${item} is coming soon.`)).toHaveCount(0);
    }
    // Return a Lead is real now: the form, not a coming-soon line.
    await nav.getByRole("link", { name: "Return a Lead", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Return a Lead" })).toBeVisible();
    await expect(page.getByText("Return a Lead is coming soon.")).toHaveCount(0);
    await nav.getByRole("link", { name: "Support", exact: true }).click();
    await expect(page.getByText("support@example.com")).toBeVisible();
  });

  test("collapses the sidebar behind a menu button on a phone", async ({ newPage }) => {
    const page = await newPage({ as: "buyer", viewport: { width: 375, height: 800 } });
    await page.goto("/dashboard");
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    await expect(nav).toBeHidden();
    await page.getByRole("button", { name: "Menu" }).click();
    await nav.getByRole("link", { name: "My Orders" }).click();
    await expect(page.getByRole("heading", { name: "My Orders" })).toBeVisible();
    await expect(nav).toBeHidden();
  });
});

test.describe("Buy Aged Leads", () => {
  test("pages 50 masked leads at a time and resets the selection on page and filter changes", async ({
    buyerPage: page,
  }) => {
    await page.goto("/dashboard");
    await expect(rows(page)).toHaveCount(50);
    await expect(rows(page).first()).toContainText(/\(\d{3}\) \*\*\*-\*\*\*\*/);
    const pager = page.getByRole("navigation", { name: "Lead pages" });
    expect(await pager.getByRole("button", { name: /^\d+$/ }).count()).toBeLessThanOrEqual(5);

    await page.getByRole("checkbox", { name: "Select all leads on this page" }).click();
    await expect(page.getByText("50 selected")).toBeVisible();
    await pager.getByRole("button", { name: "2", exact: true }).click();
    await expect(page.getByText("0 selected")).toBeVisible();

    await rows(page).first().getByRole("checkbox").click();
    await expect(page.getByText("1 selected")).toBeVisible();
    await page.getByLabel("Filter by location").fill("tx");
    await expect(page.getByText("0 selected")).toBeVisible();
    await expect.poll(() => allRowsMention(page, "TX")).toBe(true);
    // A new filter starts on its first page (other tests may have added TX leads beyond one page).
    if ((await pager.count()) > 0) {
      await expect(pager.getByRole("button", { name: "1", exact: true })).toHaveAttribute("aria-current", "page");
    }
    await page.getByLabel("Filter by location").fill("");
    await expect(rows(page)).toHaveCount(50);
  });

  test("sums the selected prices, refuses an empty purchase, and sells the leads after payment", async ({ page }) => {
    await signInFreshBuyer(page);
    await page.getByRole("button", { name: "Purchase Selected Leads" }).click();
    await expect(toast(page, "No Leads Selected")).toContainText("Please select at least one lead to purchase.");

    await page.getByLabel("Filter by location").fill("GA");
    await expect.poll(() => allRowsMention(page, "GA")).toBe(true);
    const prices = await rows(page).locator("td:last-child").allTextContents();
    await rows(page).nth(0).getByRole("checkbox").click();
    await rows(page).nth(1).getByRole("checkbox").click();
    const expected = (Number(prices[0]?.slice(1)) + Number(prices[1]?.slice(1))).toFixed(2);
    await expect(page.getByTestId("selection-total")).toHaveText(`$${expected}`);

    await page.getByRole("button", { name: "Purchase Selected Leads" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByLabel("Card number")).toBeVisible();
    await payWith(page, "4242 4242 4242 4242");
    await expect(toast(page, "Bulk Purchase Successful")).toContainText("Successfully purchased 2 leads");
    await expect(page.getByText("0 selected")).toBeVisible();

    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "My Leads" }).click();
    await expect(page.getByRole("heading", { name: "My Leads" })).toBeVisible();
    await expect(rows(page)).toHaveCount(2);
    await expect(rows(page).first()).toContainText(/\d{10}/);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    expect((await download).suggestedFilename()).toBe("my-leads.csv");

    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "My Orders" }).click();
    await expect(page.getByText("Paid", { exact: true })).toBeVisible();
  });
});

test.describe("Buy Aged Leads: a lead taken meanwhile", () => {
  test("names the taken lead as the list showed it (never its id) and takes it out of the selection", async ({
    page,
    newPage,
  }) => {
    test.setTimeout(90_000);
    await signInFreshBuyer(page);
    await page.getByLabel("Filter by location").fill("TX");
    await expect.poll(() => allRowsMention(page, "TX")).toBe(true);
    const listed = (await (await page.request.get("/api/aged-leads?page=1&location=TX")).json()) as {
      items: { id: string; name: string }[];
    };
    const [taken, kept] = listed.items;
    if (!taken || !kept) throw new Error("the seed has at least two TX leads");
    // The list shows the same first page as the API answered, in the same order.
    await expect(rows(page).first()).toContainText(taken.name);
    await rows(page).nth(0).getByRole("checkbox").click();
    await rows(page).nth(1).getByRole("checkbox").click();
    await expect(page.getByText("2 selected")).toBeVisible();

    const rival = await newPage();
    await signInFreshBuyer(rival);
    const reserved = await rival.request.post("/api/bulk-purchase-leads", {
      data: { leadIds: [taken.id] },
      headers: { Origin: new URL(url("/")).origin },
    });
    expect(reserved.status()).toBe(200);

    await page.getByRole("button", { name: "Purchase Selected Leads" }).click();
    const refusal = toast(page, "Another buyer just bought or reserved these leads");
    await expect(refusal).toContainText(taken.name);
    await expect(refusal).not.toContainText(taken.id);
    await expect(page.getByText("1 selected")).toBeVisible();
  });
});

test.describe("Buy Call Transfers and /transfer-checkout", () => {
  test("info → form with the spec's messages → payment; 'Back to Form' clears it; /transfer-checkout resumes it", async ({
    page,
  }) => {
    const user = await signInFreshBuyer(page, "/dashboard/call-transfers");
    await page.getByRole("button", { name: "Start an Order" }).click();
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    for (const message of [
      "Must be at least 1 transfer",
      "Must be at least 1 call per day",
      "Please specify transfer hours",
      "Phone number must be at least 10 digits",
      "Please specify working states",
    ]) {
      await expect(page.getByText(message)).toBeVisible();
    }
    await page.getByLabel("Total transfers").fill("4");
    await page.getByLabel("Calls per day").fill("2");
    await page.getByLabel("Transfer hours").fill("Mon-Fri 9-5");
    await page.getByLabel("Transfer phone").fill("5552223333");
    await page.getByLabel("Working states").fill("ga, fl");
    await expect(page.getByText("$140.00")).toBeVisible();
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page.getByLabel("Card number")).toBeVisible();

    await page.getByRole("button", { name: "Back to Form" }).click();
    await expect(page.getByLabel("Total transfers")).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("pendingTransferOrder"))).toBeNull();

    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await page.getByRole("link", { name: "Pay on a separate page" }).click();
    await expect(page).toHaveURL(/\/transfer-checkout$/);
    const main = page.locator("main");
    await expect(main.getByText("Total transfers")).toBeVisible();
    await expect(main).toContainText("GA, FL");
    await payWith(page, "4242 4242 4242 4242");
    await expect(page).toHaveURL(/\/thank-you\?order=/);
    await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();

    const [order] = await e2eDb()
      .select({ kind: orders.kind, status: orders.status, totalCents: orders.totalCents })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .where(and(eq(users.username, user.username), eq(orders.status, "paid")));
    expect(order).toEqual({ kind: "transfer", status: "paid", totalCents: 14_000 });
  });

  test("/transfer-checkout without a pending order sends the buyer back to the dashboard", async ({ page }) => {
    await signInFreshBuyer(page, "/transfer-checkout");
    await expect(page.getByRole("heading", { name: "No Order Found" })).toBeVisible();
    await expect(page.getByText("Please start your order from the dashboard.")).toBeVisible();
    await page.getByRole("link", { name: "Back to Dashboard" }).click();
    await expect(page).toHaveURL(/\/dashboard\/call-transfers$/);
  });
});
