/**
 * Dead ends a buyer or partner hit. A refreshed survey resumes; a pending order can be
 * paid from My Orders; a paid transfer order leaves no payment card behind; the 403 page links its reader
 * home; the pages after payment fit the buyer; login says 'Login Successful' / 'Welcome back!'.
 */
import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { DEMO_PARTNER } from "../../scripts/demo-transfers.ts";
import { orders, surveyResponses, users } from "../../worker/db/schema";
import { createUser, e2eDb } from "./database";
import { expect, hydrated, signIn, test, url } from "./fixtures";
import { payWith, toast } from "./pay";

let counter = 0;
const unique = () => `${Date.now().toString(36)}${++counter}`;

async function signInFreshBuyer(page: Page, next = "/dashboard") {
  const user = await createUser();
  await signIn(page, user.username, user.password, next);
  return user;
}

const TRANSFER_ORDER = {
  totalTransfers: 2,
  callsPerDay: 1,
  transferHours: "9-5",
  transferPhone: "5551112222",
  workingStates: "tx",
  leadType: "Live Transfers",
  price: 70,
};

const ordersOf = (username: string) =>
  e2eDb()
    .select({ id: orders.id, status: orders.status })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(users.username, username));

test.describe("a saved survey is never a dead end", () => {
  test("refreshing /survey after step 2 resumes the saved survey where the buyer was, without 'Username is already taken'", async ({
    page,
  }) => {
    const tag = unique();
    await page.goto("/survey");
    await page.getByLabel("First name").fill("Dana");
    await page.getByLabel("Last name").fill("Writer");
    await page.getByLabel("Agency name").fill("Writer Insurance");
    await page.getByLabel("Insurance Agent").check();
    await page.getByLabel("Phone").fill("5557654321");
    await page.getByLabel("Email").fill(`dana${tag}@example.com`);
    await page.getByLabel("Username").fill(`dana${tag}`);
    await page.getByLabel("Password").fill("dana-pass-1");
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByLabel("Aged Leads").check();
    await page.getByLabel("Number of leads").fill("20");
    await page.getByLabel("60-90 days").check();
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page.getByText("Step 3 of 3")).toBeVisible();
    await expect(page.getByLabel("Card number")).toBeVisible();

    // A refresh on the payment step: the same step, the same order, a payment ready.
    await page.reload();
    await expect(page.getByText("Step 3 of 3")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Order summary" })).toBeVisible();
    await expect(page.getByText("Aged Leads (60-90 days)")).toBeVisible();
    await expect(page.getByLabel("Card number")).toBeVisible();

    // Back to step 1 and a refresh there: the saved account is shown, not asked again.
    await page.getByRole("button", { name: "Back" }).click();
    await page.getByRole("button", { name: "Back" }).click();
    await expect(page.getByText("Step 1 of 3")).toBeVisible();
    await page.reload();
    await expect(page.getByText("Step 1 of 3")).toBeVisible();
    await expect(page.getByTestId("saved-account")).toContainText(`dana${tag}`);
    await expect(page.getByLabel("Agency name")).toHaveValue("Writer Insurance");
    await page.getByLabel("Agency name").fill("Writer Insurance Group");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(toast(page, "Information Saved")).toBeVisible();
    await expect(page.getByText("Username is already taken")).toHaveCount(0);
    await expect(page.getByText("Step 3 of 3")).toBeVisible();
    const saved = await e2eDb()
      .select({ id: users.id, agencyName: users.agencyName })
      .from(users)
      .where(eq(users.username, `dana${tag}`));
    expect(saved.map(({ agencyName }) => ({ agencyName }))).toEqual([{ agencyName: "Writer Insurance Group" }]);
    expect(await e2eDb().$count(surveyResponses, eq(surveyResponses.userId, saved[0]?.id ?? ""))).toBe(1);
  });

  test("My Orders offers 'Pay now' for the buyer's own pending order and pays that same order", async ({ page }) => {
    const user = await signInFreshBuyer(page);
    const placed = await page.request.post("/api/call-transfer-order", {
      data: TRANSFER_ORDER,
      headers: { Origin: new URL(url("/")).origin },
    });
    expect(placed.status()).toBe(200);
    const { orderId } = (await placed.json()) as { orderId: string };

    await page.goto("/dashboard?view=my-orders");
    await hydrated(page);
    await page.getByRole("button", { name: "Pay now" }).click();
    await payWith(page, "4242 4242 4242 4242", "$70.00");
    await expect(page).toHaveURL(new RegExp(`/thank-you\\?order=${orderId}`));
    await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
    expect(await ordersOf(user.username)).toEqual([{ id: orderId, status: "paid" }]);
  });
});

test.describe("a paid transfer order", () => {
  test("never shows its payment card again: Buy Call Transfers and /transfer-checkout start afresh", async ({
    page,
  }) => {
    await signInFreshBuyer(page, "/dashboard/call-transfers");
    await page.getByRole("button", { name: "Start an Order" }).click();
    await page.getByLabel("Total transfers").fill("2");
    await page.getByLabel("Calls per day").fill("1");
    await page.getByLabel("Transfer hours").fill("Mon-Fri 9-5");
    await page.getByLabel("Transfer phone").fill("5552223333");
    await page.getByLabel("Working states").fill("ga");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page.getByLabel("Card number")).toBeVisible();
    const kept = await page.evaluate(() => localStorage.getItem("pendingTransferOrder"));
    expect(kept).not.toBeNull();
    await payWith(page, "4242 4242 4242 4242", "$70.00");
    await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();

    await page.goto("/dashboard?view=call-transfers");
    await expect(page.getByRole("button", { name: "Start an Order" })).toBeVisible();
    await expect(page.getByLabel("Card number")).toHaveCount(0);
    await page.getByRole("button", { name: "Start an Order" }).click();
    await expect(page.getByLabel("Total transfers")).toHaveValue("");
    await page.goto("/transfer-checkout");
    await expect(page.getByRole("heading", { name: "No Order Found" })).toBeVisible();

    // A copy left behind (another tab wrote it back): the server says the order is paid, so it goes.
    await page.evaluate((value) => localStorage.setItem("pendingTransferOrder", value ?? ""), kept);
    await page.reload();
    await expect(page.getByRole("heading", { name: "No Order Found" })).toBeVisible();
    await expect(page.getByLabel("Card number")).toHaveCount(0);
    await expect.poll(() => page.evaluate(() => localStorage.getItem("pendingTransferOrder"))).toBeNull();
  });
});

test.describe("the 403 page fits who reads it", () => {
  test("a partner on /dashboard or /admin is told whom the page is for and linked to /partner", async ({ newPage }) => {
    const page = await newPage({ as: "partner" });
    for (const [path, audience] of [
      ["/dashboard", "buyers and administrators"],
      ["/admin", "administrators"],
    ] as const) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(403);
      await expect(page.locator("main")).toContainText(`This page is for ${audience}.`);
      await expect(page.getByRole("link", { name: "Go to your dashboard" })).toHaveCount(0);
    }
    await page.getByRole("link", { name: "Go to the partner portal" }).click();
    await expect(page).toHaveURL(/\/partner$/);
    await expect(page.getByRole("heading", { level: 1 })).not.toContainText("403");
  });

  test("a buyer on /partner is linked to /dashboard", async ({ buyerPage: page }) => {
    const response = await page.goto("/partner");
    expect(response?.status()).toBe(403);
    await expect(page.locator("main")).toContainText("This page is for partner call centers.");
    await page.getByRole("link", { name: "Go to your dashboard" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("navigation", { name: "Dashboard" })).toBeVisible();
  });
});

test.describe("the pages after payment fit the buyer", () => {
  test("/onboarding-success tells an anonymous package buyer the setup link was e-mailed, and to which address", async ({
    page,
  }) => {
    const email = `setup-${unique()}@example.com`;
    await page.goto("/checkout");
    await page.getByLabel("Email for your receipt").fill(email);
    await page.getByRole("button", { name: "Proceed to Payment" }).click();
    await payWith(page, "4242 4242 4242 4242");
    await expect(page).toHaveURL(/\/onboarding-success\?/);
    await expect(page.locator("[data-order-status=paid]")).toContainText(
      `We e-mailed the link to set up delivery to ${email}.`,
    );
    await expect(page.getByRole("link", { name: "Login to Your Account" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Return to Home" })).toBeVisible();
  });

  test("a signed-in buyer on /thank-you gets 'Go to your dashboard' and no promise of a set-up call", async ({
    page,
  }) => {
    await signInFreshBuyer(page);
    const placed = await page.request.post("/api/call-transfer-order", {
      data: TRANSFER_ORDER,
      headers: { Origin: new URL(url("/")).origin },
    });
    const { clientSecret, orderId } = (await placed.json()) as { clientSecret: string; orderId: string };
    const paid = await page.request.post("/api/simulated-payments/confirm", {
      data: { clientSecret, cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" },
      headers: { Origin: new URL(url("/")).origin },
    });
    expect(paid.status()).toBe(200);
    await page.goto(`/thank-you?order=${orderId}`);
    await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Go to your dashboard" })).toHaveAttribute("href", "/dashboard");
    await expect(page.getByRole("link", { name: "Login to Your Account" })).toHaveCount(0);
    await expect(page.locator("main")).not.toContainText("will call you");
  });
});

test.describe("login", () => {
  test("says 'Login Successful' / 'Welcome back!' on the page it lands on, once", async ({ page }) => {
    await signInFreshBuyer(page, "/dashboard");
    const notice = page.getByRole("status").filter({ hasText: "Login Successful" });
    await expect(notice).toContainText("Welcome back!");
    await page.reload();
    await expect(page.getByRole("navigation", { name: "Dashboard" })).toBeVisible();
    await expect(page.getByText("Login Successful")).toHaveCount(0);
  });

  test("a partner sees it on /partner", async ({ page }) => {
    await signIn(page, DEMO_PARTNER.username, DEMO_PARTNER.password, "/partner");
    await expect(page.getByRole("status").filter({ hasText: "Login Successful" })).toContainText("Welcome back!");
  });
});
