import type { Page } from "playwright-core";

/** Fills the simulated card form and submits it ('Complete Payment - $…'). */
export async function payWith(page: Page, cardNumber: string, total?: string) {
  await page.getByLabel("Card number").fill(cardNumber);
  await page.getByLabel("Expiration (MM / YY)").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: total ? `Complete Payment - ${total}` : /^Complete Payment - \$/ }).click();
}

/** The text of the toast on screen, or "" (never waits, so polling it fails fast). */
export const toastText = async (page: Page) => (await page.locator("[data-variant]").allTextContents()).join(" ");
