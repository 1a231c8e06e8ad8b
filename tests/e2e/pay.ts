import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/** Fills the simulated card form and submits it ('Complete Payment - $…'); toasts from then on are recorded. */
export async function payWith(page: Page, cardNumber: string, total?: string) {
  await page.getByLabel("Card number").fill(cardNumber);
  await page.getByLabel("Expiration (MM / YY)").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await recordToasts(page);
  await page.getByRole("button", { name: total ? `Complete Payment - ${total}` : /^Complete Payment - \$/ }).click();
}

/** The toast (or server-rendered notice) that says `text`: `await expect(toast(page, "Saved")).toBeVisible()`. */
export const toast = (page: Page, text: string | RegExp) =>
  page.locator("[data-variant]").filter({ hasText: text }).first();

/** The text of every toast a page showed since `recordToasts`, as the page reported it. */
const recorded = new WeakMap<Page, string[]>();

/**
 * Records the text of every toast the page shows from now on (until it navigates), reported by the page
 * itself as the toast's element is added or changed (a MutationObserver: no polling that a busy machine's
 * slow frames could miss). Call it before the action whose toast shows only for a moment.
 */
export async function recordToasts(page: Page) {
  let texts = recorded.get(page);
  if (!texts) {
    const list: string[] = [];
    texts = list;
    recorded.set(page, list);
    await page.exposeFunction("__e2eToastShown", (text: string) => list.push(text));
  }
  await page.evaluate(() => {
    const report = (window as unknown as { __e2eToastShown: (text: string) => void }).__e2eToastShown;
    const look = () => {
      for (const element of document.querySelectorAll("[data-variant]")) report(element.textContent ?? "");
    };
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
    look();
  });
}

/**
 * Waits for a toast that shows only for a moment (the 800 ms before a payment's redirect): among those
 * recorded since `recordToasts` (payWith calls it), else as the page looks on every animation frame, where
 * `expect(…).toBeVisible()` backs off to one look a second and can miss it.
 */
export async function briefToast(page: Page, text: string) {
  const texts = recorded.get(page);
  if (texts) {
    await expect.poll(() => texts.some((shown) => shown.includes(text)), { message: `a toast "${text}"` }).toBe(true);
    return;
  }
  await page.waitForFunction(
    (wanted) => [...document.querySelectorAll("[data-variant]")].some((el) => el.textContent?.includes(wanted)),
    text,
    { polling: "raf" },
  );
}
