import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_BUYER } from "../../scripts/demo-data.ts";
import { setupBrowser } from "./browser";
import { createUser, query } from "./database";
import { payWith, toastText } from "./pay";

const { newPage, url } = setupBrowser();

async function signIn(page: Page, username: string, password: string, next = "/dashboard") {
  await page.goto(url(`/login?next=${encodeURIComponent(next)}`));
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL((u) => u.pathname === new URL(next, "http://x").pathname);
}

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

describe("dashboard", () => {
  it("has the spec's sidebar, coming-soon views and support contact", async () => {
    const page = await newPage();
    await signIn(page, DEMO_BUYER.username, DEMO_BUYER.password);
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    await nav.waitFor();
    for (const item of [
      "Buy Aged Leads",
      "Buy Call Transfers",
      "Buy Appointments",
      "Buy Call Backs",
      "My Leads",
      "My Orders",
      "Return a Lead",
      "Support",
    ]) {
      expect(await nav.getByRole("button", { name: item, exact: true }).count()).toBe(1);
    }
    expect(await nav.getByRole("link", { name: "Logout" }).getAttribute("href")).toBe("/api/logout");
    for (const item of ["Buy Appointments", "Buy Call Backs", "Return a Lead"]) {
      await nav.getByRole("button", { name: item, exact: true }).click();
      await page.getByText(`${item} is coming soon.`).waitFor();
    }
    await nav.getByRole("button", { name: "Support", exact: true }).click();
    await page.getByText("support@example.com").waitFor();
  });

  it("collapses the sidebar behind a menu button on a phone", async () => {
    const page = await newPage({ viewport: { width: 375, height: 800 } });
    await signIn(page, DEMO_BUYER.username, DEMO_BUYER.password);
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    expect(await nav.isVisible()).toBe(false);
    await page.getByRole("button", { name: "Menu" }).click();
    await nav.getByRole("button", { name: "My Orders" }).click();
    await page.getByRole("heading", { name: "My Orders" }).waitFor();
    expect(await nav.isVisible()).toBe(false);
  });
});

describe("Buy Aged Leads", () => {
  it("pages 50 masked leads at a time and resets the selection on page and filter changes", async () => {
    const page = await newPage();
    await signIn(page, DEMO_BUYER.username, DEMO_BUYER.password);
    await rows(page).first().waitFor();
    expect(await rows(page).count()).toBe(50);
    expect(await rows(page).first().textContent()).toMatch(/\(\d{3}\) \*\*\*-\*\*\*\*/);
    const pager = page.getByRole("navigation", { name: "Lead pages" });
    expect(await pager.getByRole("button", { name: /^\d+$/ }).count()).toBeLessThanOrEqual(5);

    await page.getByRole("checkbox", { name: "Select all leads on this page" }).click();
    await page.getByText("50 selected").waitFor();
    await pager.getByRole("button", { name: "2", exact: true }).click();
    await page.getByText("0 selected").waitFor();

    await rows(page).first().getByRole("checkbox").click();
    await page.getByText("1 selected").waitFor();
    await page.getByLabel("Filter by location").fill("tx");
    await page.getByText("0 selected").waitFor();
    await expect.poll(() => allRowsMention(page, "TX")).toBe(true);
    expect(await pager.count()).toBe(0);
    await page.getByLabel("Filter by location").fill("");
    await expect.poll(() => rows(page).count()).toBe(50);
  });

  it("sums the selected prices, refuses an empty purchase, and sells the leads after payment", async () => {
    const page = await newPage();
    await signInFreshBuyer(page);
    await page.getByRole("button", { name: "Purchase Selected Leads" }).click();
    await expect.poll(() => toastText(page)).toContain("No Leads Selected");
    expect(await toastText(page)).toContain("Please select at least one lead to purchase.");

    await page.getByLabel("Filter by location").fill("GA");
    await expect.poll(() => allRowsMention(page, "GA")).toBe(true);
    const prices = await rows(page).locator("td:last-child").allTextContents();
    await rows(page).nth(0).getByRole("checkbox").click();
    await rows(page).nth(1).getByRole("checkbox").click();
    const expected = (Number(prices[0]?.slice(1)) + Number(prices[1]?.slice(1))).toFixed(2);
    expect(await page.getByTestId("selection-total").textContent()).toBe(`$${expected}`);

    await page.getByRole("button", { name: "Purchase Selected Leads" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Card number").waitFor();
    await payWith(page, "4242 4242 4242 4242");
    await expect.poll(() => toastText(page)).toContain("Bulk Purchase Successful");
    expect(await toastText(page)).toContain("Successfully purchased 2 leads");
    await page.getByText("0 selected").waitFor();

    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("button", { name: "My Leads" }).click();
    await page.getByRole("heading", { name: "My Leads" }).waitFor();
    await expect.poll(() => rows(page).count()).toBe(2);
    expect(await rows(page).first().textContent()).toMatch(/\d{10}/);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    expect((await download).suggestedFilename()).toBe("my-leads.csv");

    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("button", { name: "My Orders" }).click();
    await page.getByText("Paid", { exact: true }).waitFor();
  });
});

describe("Buy Aged Leads: a lead taken meanwhile", () => {
  it("names the taken lead as the list showed it (never its id) and takes it out of the selection", {
    timeout: 90_000,
  }, async () => {
    const page = await newPage();
    await signInFreshBuyer(page);
    await page.getByLabel("Filter by location").fill("TX");
    await expect.poll(() => allRowsMention(page, "TX")).toBe(true);
    const listed = (await (await page.request.get(url("/api/aged-leads?page=1&location=TX"))).json()) as {
      items: { id: string; name: string }[];
    };
    const [taken, kept] = listed.items;
    if (!taken || !kept) throw new Error("the seed has at least two TX leads");
    // The list shows the same first page as the API answered, in the same order.
    await expect.poll(() => rows(page).first().textContent()).toContain(taken.name);
    await rows(page).nth(0).getByRole("checkbox").click();
    await rows(page).nth(1).getByRole("checkbox").click();
    await page.getByText("2 selected").waitFor();

    const rival = await newPage();
    await signInFreshBuyer(rival);
    const reserved = await rival.request.post(url("/api/bulk-purchase-leads"), {
      data: { leadIds: [taken.id] },
      headers: { Origin: new URL(url("/")).origin },
    });
    expect(reserved.status()).toBe(200);

    await page.getByRole("button", { name: "Purchase Selected Leads" }).click();
    await expect.poll(() => toastText(page)).toContain("Another buyer just bought or reserved these leads");
    expect(await toastText(page)).toContain(taken.name);
    expect(await toastText(page)).not.toContain(taken.id);
    await page.getByText("1 selected").waitFor();
  });
});

describe("Buy Call Transfers and /transfer-checkout", () => {
  it("info → form with the spec's messages → payment; 'Back to Form' clears it; /transfer-checkout resumes it", async () => {
    const page = await newPage();
    const user = await signInFreshBuyer(page, "/dashboard?view=call-transfers");
    await page.getByRole("button", { name: "Start an Order" }).click();
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    for (const message of [
      "Must be at least 1 transfer",
      "Must be at least 1 call per day",
      "Please specify transfer hours",
      "Phone number must be at least 10 digits",
      "Please specify working states",
    ]) {
      await page.getByText(message).waitFor();
    }
    await page.getByLabel("Total transfers").fill("4");
    await page.getByLabel("Calls per day").fill("2");
    await page.getByLabel("Transfer hours").fill("Mon-Fri 9-5");
    await page.getByLabel("Transfer phone").fill("5552223333");
    await page.getByLabel("Working states").fill("ga, fl");
    await page.getByText("$140.00").waitFor();
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await page.getByLabel("Card number").waitFor();

    await page.getByRole("button", { name: "Back to Form" }).click();
    await page.getByLabel("Total transfers").waitFor();
    expect(await page.evaluate(() => localStorage.getItem("pendingTransferOrder"))).toBeNull();

    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await page.getByRole("link", { name: "Pay on a separate page" }).click();
    await page.waitForURL("**/transfer-checkout");
    const main = page.locator("main");
    await main.getByText("Total transfers").waitFor();
    expect(await main.textContent()).toContain("GA, FL");
    await payWith(page, "4242 4242 4242 4242");
    await page.waitForURL(/\/thank-you\?order=/);
    await page.getByRole("heading", { name: "Payment Successful" }).waitFor();

    const [order] = query<{ kind: string; status: string; total_cents: number }>(
      `SELECT o.kind, o.status, o.total_cents FROM orders o JOIN users u ON u.id = o.user_id WHERE u.username = '${user.username}' AND o.status = 'paid'`,
    );
    expect(order).toEqual({ kind: "transfer", status: "paid", total_cents: 14_000 });
  });

  it("/transfer-checkout without a pending order sends the buyer back to the dashboard", async () => {
    const page = await newPage();
    await signInFreshBuyer(page, "/transfer-checkout");
    await page.getByRole("heading", { name: "No Order Found" }).waitFor();
    expect(await page.getByText("Please start your order from the dashboard.").isVisible()).toBe(true);
    await page.getByRole("link", { name: "Back to Dashboard" }).click();
    await page.waitForURL("**/dashboard?view=call-transfers");
  });
});
