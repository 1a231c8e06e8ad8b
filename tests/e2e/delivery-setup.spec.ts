/**
 * The e-mailed delivery-setup page: it never signs anyone in by itself. An order
 * bought without an account gets a new one that follows the password rule, or goes to the buyer's
 * existing account once its password is given.
 */
import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { orderDelivery, orders } from "../../worker/db/schema";
import { createUser, e2eDb, linkPrintedFor } from "./database";
import { expect, test, url } from "./fixtures";

/** A pricing-page order for 10 live transfers, paid without an account: answers the setup link's path. */
async function paidOrderFor(page: Page, email: string): Promise<string> {
  const origin = { Origin: new URL(url("/")).origin };
  const started = await page.request.post("/api/create-payment-intent", {
    data: { amount: 390, callCount: 10, email },
    headers: origin,
  });
  const { clientSecret } = (await started.json()) as { clientSecret: string };
  await page.request.post("/api/simulated-payments/confirm", {
    data: { clientSecret, cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" },
    headers: origin,
  });
  await expect.poll(() => linkPrintedFor(email, "/delivery-setup")).toBeTruthy();
  const link = new URL(linkPrintedFor(email, "/delivery-setup") ?? "/");
  return link.pathname + link.search;
}

async function fillSettings(page: Page) {
  await page.getByLabel("Transfer phone number").fill("(555) 303-4040");
  await page.getByLabel("States").fill("TX, FL");
  await page.getByLabel("Transfers from").fill("09:00");
  await page.getByLabel("Transfers until").fill("17:00");
  await page.getByLabel("Transfers per day").fill("5");
}

test.describe("the delivery-setup page", () => {
  test("a new account for the order: a common password is refused under the field, a good one saves", async ({
    page,
  }) => {
    const tag = Date.now().toString(36);
    const email = `setup_new_${tag}@example.com`;
    await page.goto(await paidOrderFor(page, email));
    await expect(page.getByText("Create an account for this order, or sign in to the one you have")).toBeVisible();
    await fillSettings(page);
    // The order's own weekdays: the days checked are the days saved.
    const days = page.getByRole("group", { name: "Days" });
    await days.getByLabel("Sat").check();
    await days.getByLabel("Sun").check();
    await page.getByLabel("Username").fill(`setup_new_${tag}`);
    await page.getByLabel("Password", { exact: true }).fill("password1");
    await page.getByRole("button", { name: "Save and start deliveries" }).click();
    await expect(page.getByText("This password is too common. Please choose another.").first()).toBeVisible();

    await page.getByLabel("Password", { exact: true }).fill("a-rare-pass-91");
    await page.getByRole("button", { name: "Save and start deliveries" }).click();
    await expect(page.getByRole("heading", { name: "Deliveries are set up" })).toBeVisible();
    await expect(page.getByText(`You are signed in as setup_new_${tag}.`)).toBeVisible();
    const [saved] = await e2eDb()
      .select({ days: orderDelivery.days })
      .from(orderDelivery)
      .innerJoin(orders, eq(orders.id, orderDelivery.orderId))
      .where(eq(orders.email, email));
    expect(saved?.days ?? null).toEqual([0, 6]);
  });

  test("an existing account takes the order only with its password", async ({ page }) => {
    const owner = await createUser({ password: "e2e-owner-pass-7" });
    await page.goto(await paidOrderFor(page, `setup_existing_${Date.now().toString(36)}@example.com`));
    await fillSettings(page);
    await page.getByLabel("I already have an account").check();
    await page.getByLabel("Username").fill(owner.username);
    await page.getByLabel("Password", { exact: true }).fill("not-the-password");
    await page.getByRole("button", { name: "Save and start deliveries" }).click();
    await expect(page.getByText("Invalid credentials").first()).toBeVisible();

    await page.getByLabel("Password", { exact: true }).fill("e2e-owner-pass-7");
    await page.getByRole("button", { name: "Save and start deliveries" }).click();
    await expect(page.getByText(`You are signed in as ${owner.username}.`)).toBeVisible();
    await page.getByRole("link", { name: "Go to My Orders" }).click();
    await expect(page).toHaveURL((u) => u.pathname === "/dashboard");
  });
});
