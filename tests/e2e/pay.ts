import type { Page } from "@playwright/test";

/** Fills the simulated card form and submits it ('Complete Payment - $…'). */
export async function payWith(page: Page, cardNumber: string, total?: string) {
  await page.getByLabel("Card number").fill(cardNumber);
  await page.getByLabel("Expiration (MM / YY)").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: total ? `Complete Payment - ${total}` : /^Complete Payment - \$/ }).click();
}

/** The toast (or server-rendered notice) that says `text`: `await expect(toast(page, "Saved")).toBeVisible()`. */
export const toast = (page: Page, text: string | RegExp) =>
  page.locator("[data-variant]").filter({ hasText: text }).first();

/**
 * Waits for a toast that shows only for a moment (the 800 ms before a payment's redirect): the page itself
 * looks on every animation frame, where `expect(…).toBeVisible()` backs off to one look a second and can miss it.
 */
export async function briefToast(page: Page, text: string) {
  await page.waitForFunction(
    (wanted) => [...document.querySelectorAll("[data-variant]")].some((el) => el.textContent?.includes(wanted)),
    text,
    { polling: "raf" },
  );
}
