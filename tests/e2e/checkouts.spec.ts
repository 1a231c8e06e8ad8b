import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { orders } from "../../worker/db/schema";
import { e2eDb } from "./database";
import { expect, test } from "./fixtures";
import { briefToast, payWith, toast } from "./pay";

const CHECKOUTS = [
  {
    path: "/checkout",
    title: "Customize Your Package",
    back: "/special-pricing",
    count: 25,
    total: "$975.00",
    max: 1000,
  },
  {
    path: "/checkout-high-volume",
    title: "High-Volume Package Checkout",
    back: "/pricing",
    count: 50,
    total: "$1600.00",
    max: null,
  },
  {
    path: "/checkout-premium",
    title: "Premium Volume Package",
    back: "/premium-pricing",
    count: 50,
    total: "$1850.00",
    max: 2000,
  },
  {
    path: "/checkout-enterprise",
    title: "Enterprise Volume Package",
    back: "/enterprise-pricing",
    count: 100,
    total: "$3500.00",
    max: 5000,
  },
  {
    path: "/checkout-ultimate",
    title: "Ultimate Volume Package",
    back: "/ultimate-pricing",
    count: 200,
    total: "$6400.00",
    max: 10000,
  },
] as const;

async function proceedToPayment(page: Page, email: string) {
  await page.getByLabel("Email for your receipt").fill(email);
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page.getByLabel("Card number")).toBeVisible();
}

const HINT = 'Configure your package and click "Proceed to Payment" to continue.';

for (const checkout of CHECKOUTS) {
  test.describe(checkout.path, () => {
    test("shows its package, default count, live total and the pre-payment hint", async ({ page }) => {
      await page.goto(checkout.path);
      await expect(page.getByRole("heading", { name: checkout.title })).toBeVisible();
      await expect(page.getByRole("link", { name: "Back" })).toHaveAttribute("href", checkout.back);
      await expect(page.locator("header a[href='/']")).toHaveCount(1);
      await expect(page.getByLabel("Number of transfers")).toHaveValue(String(checkout.count));
      await expect(page.getByTestId("order-total")).toHaveText(checkout.total);
      await expect(page.getByText(HINT)).toBeVisible();
      if (checkout.max) {
        await expect(page.getByText(`Minimum: 1 transfer, Maximum: ${checkout.max} transfers`)).toBeVisible();
        await expect(page.getByLabel("Number of transfers")).toHaveAttribute("max", String(checkout.max));
      }
    });

    test("pays with 4242 4242 4242 4242 and lands on /onboarding-success with a paid order", async ({ page }) => {
      await page.goto(checkout.path);
      const email = `checkout-${Date.now()}@example.com`;
      await proceedToPayment(page, email);
      await payWith(page, "4242 4242 4242 4242", checkout.total);
      await briefToast(page, "Payment Successful");
      await expect(page).toHaveURL(
        /\/onboarding-success\?order=[\w-]+&payment_intent=pi_sim_\w+&payment_intent_client_secret=.+&redirect_status=succeeded/,
      );
      await expect(page.locator("[data-order-status=paid]")).toBeVisible();
      await expect(page.getByText("Payment received")).toBeVisible();
      const [order] = await e2eDb()
        .select({ status: orders.status, email: orders.email })
        .from(orders)
        .where(eq(orders.email, email));
      expect(order).toEqual({ status: "paid", email });
    });

    test("shows 'Payment Failed' when 4000 0000 0000 0002 is declined", async ({ page }) => {
      await page.goto(checkout.path);
      await proceedToPayment(page, "declined@example.com");
      await payWith(page, "4000 0000 0000 0002", checkout.total);
      await expect(toast(page, "Payment Failed")).toContainText("Your card was declined.");
      await expect(page).toHaveURL((u) => u.pathname === checkout.path);
    });
  });
}

test.describe("checkout rules", () => {
  test("recomputes the total live and refuses counts outside the range", async ({ page }) => {
    await page.goto("/checkout-premium");
    const count = page.getByLabel("Number of transfers");
    const total = page.getByTestId("order-total");
    const proceed = page.getByRole("button", { name: "Proceed to Payment" });
    await count.fill("3");
    await expect(total).toHaveText("$111.00");
    await count.fill("2001");
    await expect(page.getByText("Quantity must be at most 2000")).toBeVisible();
    await page.getByLabel("Email for your receipt").fill("x@example.com");
    await expect(proceed).toBeDisabled();
    await count.fill("");
    await expect(total).toHaveText("$0.00");
    await expect(proceed).toBeDisabled();
  });

  test("high volume: tier label follows the count, non-numeric falls back to 50, below 50 is refused", async ({
    page,
  }) => {
    await page.goto("/checkout-high-volume");
    const count = page.getByLabel("Number of transfers");
    const total = page.getByTestId("order-total");
    await count.fill("150");
    await expect(page.getByText("Your tier:")).toContainText("150-199 transfers: $29 each");
    await expect(total).toHaveText("$4350.00");
    await count.fill("");
    await expect(total).toHaveText("$1600.00");
    await count.fill("49");
    await expect(page.getByText("Quantity must be at least 50")).toBeVisible();
    await expect(page.getByRole("button", { name: "Proceed to Payment" })).toBeDisabled();
  });

  test("starts from projectedTransfers and removes the stored hints after a second", async ({ page }) => {
    await page.goto("/");
    await page.evaluate(() => {
      localStorage.setItem("projectedTransfers", "120");
      localStorage.setItem(
        "highVolumeData",
        JSON.stringify({ volume: 160, pricePerCall: 29, total: 4640, tier: "high-volume" }),
      );
    });
    await page.goto("/checkout-high-volume");
    await expect(page.getByLabel("Number of transfers")).toHaveValue("160");
    await expect
      .poll(
        () => page.evaluate(() => [localStorage.getItem("projectedTransfers"), localStorage.getItem("highVolumeData")]),
        { timeout: 3000 },
      )
      .toEqual([null, null]);

    await page.evaluate(() => localStorage.setItem("projectedTransfers", "77"));
    await page.goto("/checkout-enterprise");
    await expect(page.getByLabel("Number of transfers")).toHaveValue("77");
  });

  test("changing the count after preparing a payment asks to prepare it again", async ({ page }) => {
    await page.goto("/checkout");
    await proceedToPayment(page, "change@example.com");
    await page.getByLabel("Number of transfers").fill("30");
    await expect(page.getByText(HINT)).toBeVisible();
    await expect(page.getByRole("button", { name: "Proceed to Payment" })).toBeEnabled();
  });
});

test.describe("payment stages", () => {
  test("focus moves to the payment heading when the card form arrives", async ({ page }) => {
    await page.goto("/checkout-premium");
    await proceedToPayment(page, "focus@example.com");
    await expect(page.locator(":focus")).toHaveText("Payment");
  });

  test("a payment that cannot be prepared shows the server's reason", async ({ page }) => {
    await page.route("**/api/create-payment-intent", (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ message: "Card payments are not available right now. Please try again later." }),
      }),
    );
    await page.goto("/checkout");
    await page.getByLabel("Email for your receipt").fill("down@example.com");
    await page.getByRole("button", { name: "Proceed to Payment" }).click();
    await expect(
      page.getByRole("alert").filter({ hasText: "Card payments are not available right now. Please try again later." }),
    ).toBeVisible();
    await expect(page.getByLabel("Card number")).toHaveCount(0);
  });

  test("the high-volume checkout is offered on /pricing", async ({ page }) => {
    await page.goto("/pricing");
    await page.getByRole("link", { name: "Configure a high-volume package" }).click();
    await expect(page).toHaveURL(/\/checkout-high-volume$/);
    await expect(page.getByRole("heading", { name: "High-Volume Package Checkout" })).toBeVisible();
  });
});
