import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { setupBrowser } from "./browser";
import { query } from "./database";
import { payWith, toastText } from "./pay";

const { newPage, url } = setupBrowser();

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
  await page.getByLabel("Card number").waitFor();
}

describe.each(CHECKOUTS)("$path", (checkout) => {
  it("shows its package, default count, live total and the pre-payment hint", async () => {
    const page = await newPage();
    await page.goto(url(checkout.path));
    await page.getByRole("heading", { name: checkout.title }).waitFor();
    expect(await page.getByRole("link", { name: "Back" }).getAttribute("href")).toBe(checkout.back);
    expect(await page.locator("header a[href='/']").count()).toBe(1);
    expect(await page.getByLabel("Number of transfers").inputValue()).toBe(String(checkout.count));
    expect(await page.getByTestId("order-total").textContent()).toBe(checkout.total);
    expect(await page.getByText('Configure your package and click "Proceed to Payment" to continue.').isVisible()).toBe(
      true,
    );
    if (checkout.max) {
      expect(await page.getByText(`Minimum: 1 transfer, Maximum: ${checkout.max} transfers`).isVisible()).toBe(true);
      expect(await page.getByLabel("Number of transfers").getAttribute("max")).toBe(String(checkout.max));
    }
  });

  it("pays with 4242 4242 4242 4242 and lands on /onboarding-success with a paid order", async () => {
    const page = await newPage();
    await page.goto(url(checkout.path));
    const email = `checkout-${Date.now()}@example.com`;
    await proceedToPayment(page, email);
    await payWith(page, "4242 4242 4242 4242", checkout.total);
    await expect.poll(() => toastText(page)).toContain("Payment Successful");
    await page.waitForURL(
      /\/onboarding-success\?order=[\w-]+&payment_intent=pi_sim_\w+&payment_intent_client_secret=.+&redirect_status=succeeded/,
    );
    await page.locator("[data-order-status=paid]").waitFor();
    expect(await page.getByText("Payment received").isVisible()).toBe(true);
    const [order] = query<{ status: string; email: string }>(
      `SELECT status, email FROM orders WHERE email = '${email}'`,
    );
    expect(order).toEqual({ status: "paid", email });
  });

  it("shows 'Payment Failed' when 4000 0000 0000 0002 is declined", async () => {
    const page = await newPage();
    await page.goto(url(checkout.path));
    await proceedToPayment(page, "declined@example.com");
    await payWith(page, "4000 0000 0000 0002", checkout.total);
    await expect.poll(() => toastText(page)).toContain("Payment Failed");
    expect(await toastText(page)).toContain("Your card was declined.");
    expect(page.url()).toContain(checkout.path);
  });
});

describe("checkout rules", () => {
  it("recomputes the total live and refuses counts outside the range", async () => {
    const page = await newPage();
    await page.goto(url("/checkout-premium"));
    const count = page.getByLabel("Number of transfers");
    await count.fill("3");
    expect(await page.getByTestId("order-total").textContent()).toBe("$111.00");
    await count.fill("2001");
    await page.getByText("Quantity must be at most 2000").waitFor();
    await page.getByLabel("Email for your receipt").fill("x@example.com");
    expect(await page.getByRole("button", { name: "Proceed to Payment" }).isDisabled()).toBe(true);
    await count.fill("");
    expect(await page.getByTestId("order-total").textContent()).toBe("$0.00");
    expect(await page.getByRole("button", { name: "Proceed to Payment" }).isDisabled()).toBe(true);
  });

  it("high volume: tier label follows the count, non-numeric falls back to 50, below 50 is refused", async () => {
    const page = await newPage();
    await page.goto(url("/checkout-high-volume"));
    const count = page.getByLabel("Number of transfers");
    await count.fill("150");
    expect(await page.getByText("Your tier:").textContent()).toContain("150-199 transfers: $29 each");
    expect(await page.getByTestId("order-total").textContent()).toBe("$4350.00");
    await count.fill("");
    expect(await page.getByTestId("order-total").textContent()).toBe("$1600.00");
    await count.fill("49");
    await page.getByText("Quantity must be at least 50").waitFor();
    expect(await page.getByRole("button", { name: "Proceed to Payment" }).isDisabled()).toBe(true);
  });

  it("starts from projectedTransfers and removes the stored hints after a second", async () => {
    const page = await newPage();
    await page.goto(url("/"));
    await page.evaluate(() => {
      localStorage.setItem("projectedTransfers", "120");
      localStorage.setItem(
        "highVolumeData",
        JSON.stringify({ volume: 160, pricePerCall: 29, total: 4640, tier: "high-volume" }),
      );
    });
    await page.goto(url("/checkout-high-volume"));
    await expect.poll(() => page.getByLabel("Number of transfers").inputValue()).toBe("160");
    await expect
      .poll(
        () => page.evaluate(() => [localStorage.getItem("projectedTransfers"), localStorage.getItem("highVolumeData")]),
        {
          timeout: 3000,
        },
      )
      .toEqual([null, null]);

    await page.evaluate(() => localStorage.setItem("projectedTransfers", "77"));
    await page.goto(url("/checkout-enterprise"));
    await expect.poll(() => page.getByLabel("Number of transfers").inputValue()).toBe("77");
  });

  it("changing the count after preparing a payment asks to prepare it again", async () => {
    const page = await newPage();
    await page.goto(url("/checkout"));
    await proceedToPayment(page, "change@example.com");
    await page.getByLabel("Number of transfers").fill("30");
    await page.getByText('Configure your package and click "Proceed to Payment" to continue.').waitFor();
    expect(await page.getByRole("button", { name: "Proceed to Payment" }).isEnabled()).toBe(true);
  });
});

describe("payment stages", () => {
  it("focus moves to the payment heading when the card form arrives", async () => {
    const page = await newPage();
    await page.goto(url("/checkout-premium"));
    await proceedToPayment(page, "focus@example.com");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent), { timeout: 10_000 })
      .toBe("Payment");
  });

  it("a payment that cannot be prepared shows the server's reason", async () => {
    const page = await newPage();
    await page.route("**/api/create-payment-intent", (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ message: "Card payments are not available right now. Please try again later." }),
      }),
    );
    await page.goto(url("/checkout"));
    await page.getByLabel("Email for your receipt").fill("down@example.com");
    await page.getByRole("button", { name: "Proceed to Payment" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "Card payments are not available right now. Please try again later." })
      .waitFor();
    expect(await page.getByLabel("Card number").count()).toBe(0);
  });

  it("the high-volume checkout is offered on /pricing", async () => {
    const page = await newPage();
    await page.goto(url("/pricing"));
    await page.getByRole("link", { name: "Configure a high-volume package" }).click();
    await page.waitForURL("**/checkout-high-volume");
    await page.getByRole("heading", { name: "High-Volume Package Checkout" }).waitFor();
  });
});
