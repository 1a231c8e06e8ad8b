import { describe, expect, it } from "vitest";
import { PRICING_PAGES } from "../../src/domain/pricing";
import { setupBrowser } from "./browser";

const { newPage, url } = setupBrowser();

describe("landing page", () => {
  it("ships no script and links 'Get Started Today' to the survey", async () => {
    const page = await newPage();
    await page.goto(url("/"));
    expect(await page.locator("script").count()).toBe(0);
    await page.getByRole("link", { name: "Get Started Today" }).click();
    await page.waitForURL("**/survey");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Final Expense Lead Survey");
  });

  it("has a sticky header whose four links go where the spec says", async () => {
    const page = await newPage();
    await page.goto(url("/"));
    const nav = page.getByRole("navigation", { name: "Main" });

    await nav.getByRole("link", { name: "Questions?" }).click();
    await page.waitForURL("**/#schedule-call");
    await expect.poll(() => page.getByRole("heading", { name: "Schedule a Call" }).isVisible()).toBe(true);
    const header = page.locator("header").first();
    expect(await header.evaluate((el) => getComputedStyle(el).position)).toBe("sticky");
    expect((await header.boundingBox())?.y).toBe(0);

    await nav.getByRole("link", { name: "Contact" }).click();
    await page.waitForURL("**/#contact");
    await expect.poll(() => page.getByRole("link", { name: "Book a Call Now" }).isVisible()).toBe(true);

    await nav.getByRole("link", { name: "Pricing" }).click();
    await page.waitForURL("**/pricing");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toContain("Pay per transfer");

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login" }).click();
    await page.waitForURL("**/login");
  });

  it("shows lead types, services, stats, testimonial, contact, and phone and e-mail where no booking widget is set", async () => {
    const page = await newPage();
    await page.goto(url("/"));
    for (const text of [
      "Live Transfers",
      "Call-Backs",
      "Aged Leads",
      "Quote Engine",
      "Lead Management",
      "Lead Tracker",
    ]) {
      expect(await page.getByRole("heading", { name: text, exact: true }).count()).toBe(1);
    }
    for (const stat of ["4000+", "500+", "95%"]) expect(await page.getByText(stat, { exact: true }).count()).toBe(1);
    expect(await page.locator("blockquote").textContent()).toContain("120-second buffer");
    // The test build sets no PUBLIC_BOOKING_URL: no empty booking box, the phone and e-mail instead.
    expect(await page.locator("#schedule-call iframe").count()).toBe(0);
    const schedule = page.locator("#schedule-call");
    expect(await schedule.getByRole("link", { name: "Call (555) 010-0142" }).getAttribute("href")).toBe(
      "tel:+15550100142",
    );
    expect(await schedule.getByRole("link", { name: "E-mail info@example.com" }).getAttribute("href")).toBe(
      "mailto:info@example.com",
    );
    expect(await page.locator("#contact").textContent()).toContain("info@example.com");
    // The hero is an illustration, not a photo: no photo credit.
    expect(await page.locator("footer").textContent()).not.toContain("Photo by");
    expect(await page.locator("img").first().getAttribute("alt")).toBeTruthy();
  });

  it("fits a phone screen without sideways scrolling", async () => {
    const page = await newPage({ viewport: { width: 375, height: 740 } });
    await page.goto(url("/"));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login" }).isVisible()).toBe(
      true,
    );
  });
});

describe("pricing pages", () => {
  it("the overview links all five pricing pages", async () => {
    const page = await newPage();
    await page.goto(url("/pricing"));
    for (const pricing of PRICING_PAGES) {
      expect(await page.locator(`main a[href="/${pricing.slug}"]`).count()).toBe(1);
    }
  });

  it.each(PRICING_PAGES.map((p) => [p.slug, p] as const))(
    "%s shows its rate and starts its checkout",
    async (slug, pricing) => {
      const page = await newPage();
      await page.goto(url(`/${slug}`));
      const main = page.locator("main");
      expect(await main.textContent()).toContain(`$${pricing.rateDollars}`);
      expect(await main.textContent()).toContain(pricing.audience);
      expect(await main.textContent()).toContain("120-Second Buffer Policy");
      expect(await main.getByText("Click to customize your package and complete setup").count()).toBe(1);
      // Confetti is the only script, and it draws on a canvas after load.
      expect(await page.locator("script").count()).toBe(1);
      await expect.poll(() => page.locator("canvas").count(), { timeout: 3000 }).toBeGreaterThan(0);
      await page.getByRole("link", { name: "Let's get started!" }).click();
      await page.waitForURL(`**${pricing.checkout}`);
    },
  );

  it("the special offer congratulates and shows the cut from $40 to $38", async () => {
    const page = await newPage();
    await page.goto(url("/special-pricing"));
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Congratulations!");
    expect(await page.locator("s").textContent()).toBe("$40");
  });

  it("labels enterprise 'Great Rate' and ultimate 'Best Rate Available'", async () => {
    const page = await newPage();
    await page.goto(url("/enterprise-pricing"));
    expect(await page.getByText("Great Rate", { exact: true }).count()).toBe(1);
    await page.goto(url("/ultimate-pricing"));
    expect(await page.getByText("Best Rate Available", { exact: true }).count()).toBe(1);
    expect(await page.getByText("White-label options").count()).toBe(1);
  });
});

describe("other routes", () => {
  it("/get-started sends the visitor on to /survey", async () => {
    const page = await newPage();
    await page.goto(url("/get-started"));
    await page.waitForURL("**/survey");
  });

  it("unknown paths answer 404 with the not-found page", async () => {
    const page = await newPage();
    const response = await page.goto(url("/no-such-page"));
    expect(response?.status()).toBe(404);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("404 Page Not Found");
    expect(await page.locator("main").textContent()).toContain("add the page to the router");
  });
});
