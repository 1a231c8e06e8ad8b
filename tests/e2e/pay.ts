import type { Page } from "playwright-core";

/** Fills the simulated card form and submits it ('Complete Payment - $…'). */
export async function payWith(page: Page, cardNumber: string, total?: string) {
  await page.getByLabel("Card number").fill(cardNumber);
  await page.getByLabel("Expiration (MM / YY)").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: total ? `Complete Payment - ${total}` : /^Complete Payment - \$/ }).click();
}

/** The visible toast (one at a time). */
export const toast = (page: Page) => page.locator("[data-variant]").first();
