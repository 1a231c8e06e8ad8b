import { PRICING_PAGES } from "../../src/features/orders/pricing";
import { expect, test } from "./fixtures";

test.describe("landing page", () => {
  test("ships no script and links 'Get Started Today' to the survey", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator("script")).toHaveCount(0);
    await page.getByRole("link", { name: "Get Started Today" }).click();
    await expect(page).toHaveURL(/\/survey$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Final Expense Lead Survey");
  });

  test("has a sticky header whose four links go where the spec says", async ({ page }) => {
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });

    await nav.getByRole("link", { name: "Questions?" }).click();
    await expect(page).toHaveURL(/\/#schedule-call$/);
    await expect(page.getByRole("heading", { name: "Schedule a Call" })).toBeVisible();
    const header = page.locator("header").first();
    await expect(header).toHaveCSS("position", "sticky");
    expect((await header.boundingBox())?.y).toBe(0);

    await nav.getByRole("link", { name: "Contact" }).click();
    await expect(page).toHaveURL(/\/#contact$/);
    await expect(page.getByRole("link", { name: "Book a Call Now" })).toBeVisible();

    await nav.getByRole("link", { name: "Pricing" }).click();
    await expect(page).toHaveURL(/\/pricing$/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Pay per transfer");

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login" }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("shows lead types, services, stats, testimonial, contact, and phone and e-mail where no booking widget is set", async ({
    page,
  }) => {
    await page.goto("/");
    for (const text of [
      "Live Transfers",
      "Call-Backs",
      "Aged Leads",
      "Quote Engine",
      "Lead Management",
      "Lead Tracker",
    ]) {
      await expect(page.getByRole("heading", { name: text, exact: true })).toHaveCount(1);
    }
    for (const stat of ["4000+", "500+", "95%"]) await expect(page.getByText(stat, { exact: true })).toHaveCount(1);
    await expect(page.locator("blockquote")).toContainText("120-second buffer");
    // The test build sets no PUBLIC_BOOKING_URL: no empty booking box, the phone and e-mail instead.
    await expect(page.locator("#schedule-call iframe")).toHaveCount(0);
    const schedule = page.locator("#schedule-call");
    await expect(schedule.getByRole("link", { name: "Call (555) 010-0142" })).toHaveAttribute(
      "href",
      "tel:+15550100142",
    );
    await expect(schedule.getByRole("link", { name: "E-mail info@example.com" })).toHaveAttribute(
      "href",
      "mailto:info@example.com",
    );
    await expect(page.locator("#contact")).toContainText("info@example.com");
    // The hero is an illustration, not a photo: no photo credit.
    await expect(page.locator("footer")).not.toContainText("Photo by");
    await expect(page.locator("img").first()).toHaveAttribute("alt", /./);
  });

  test("fits a phone screen without sideways scrolling", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto("/");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login" })).toBeVisible();
  });
});

test.describe("pricing pages", () => {
  test("the overview links all five pricing pages", async ({ page }) => {
    await page.goto("/pricing");
    for (const pricing of PRICING_PAGES) {
      await expect(page.locator(`main a[href="/${pricing.slug}"]`)).toHaveCount(1);
    }
  });

  for (const pricing of PRICING_PAGES) {
    test(`${pricing.slug} shows its rate and starts its checkout`, async ({ page }) => {
      await page.goto(`/${pricing.slug}`);
      const main = page.locator("main");
      await expect(main).toContainText(`$${pricing.rateDollars}`);
      await expect(main).toContainText(pricing.audience);
      await expect(main).toContainText("120-Second Buffer Policy");
      await expect(main.getByText("Click to customize your package and complete setup")).toHaveCount(1);
      // Confetti is the only script, and it draws on a canvas after load.
      await expect(page.locator("script")).toHaveCount(1);
      await expect(page.locator("canvas").first()).toBeAttached({ timeout: 3000 });
      await page.getByRole("link", { name: "Let's get started!" }).click();
      await expect(page).toHaveURL((u) => u.pathname === pricing.checkout);
    });
  }

  test("the special offer congratulates and shows the cut from $40 to $38", async ({ page }) => {
    await page.goto("/special-pricing");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Congratulations!");
    await expect(page.locator("s")).toHaveText("$40");
  });

  test("labels enterprise 'Great Rate' and ultimate 'Best Rate Available'", async ({ page }) => {
    await page.goto("/enterprise-pricing");
    await expect(page.getByText("Great Rate", { exact: true })).toHaveCount(1);
    await page.goto("/ultimate-pricing");
    await expect(page.getByText("Best Rate Available", { exact: true })).toHaveCount(1);
    await expect(page.getByText("White-label options")).toHaveCount(1);
  });
});

test.describe("other routes", () => {
  test("/get-started sends the visitor on to /survey", async ({ page }) => {
    await page.goto("/get-started");
    await expect(page).toHaveURL(/\/survey$/);
  });

  test("unknown paths answer 404 with the not-found page", async ({ page }) => {
    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("404 Page Not Found");
    await expect(page.locator("main")).toContainText("add the page to the router");
  });
});
