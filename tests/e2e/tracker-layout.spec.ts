/**
 * The Lead Tracker fits a 1280-px screen with typical rows (a long name, a return denied
 * with the admin's note, a Return link, consent evidence), a small badge per row included, without
 * sideways scrolling; on a 390-px phone its transfers are cards; its orders say what "today" and the daily
 * cap count. The page's rows are the demo buyer's seeded deliveries, made typical in the answer the page
 * receives (the layout is under test, not the data).
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const LONG_FIRST = "Maximiliana-Josephine";
const LONG_LAST = "Vandenberghe-Okonkwo";
const DENIED_NOTE = "The caller stayed on the line for over four minutes and asked about a quote, so it is billable.";

/** Serves the tracker's real page of transfers with one long name, one returnable and one denied row. */
async function typicalRows(page: Page) {
  await page.route(/\/api\/tracker\/transfers\?/, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { items: Record<string, unknown>[] };
    const [first, second, third] = body.items;
    if (!first || !second || !third) throw new Error("the demo buyer needs three delivered transfers");
    Object.assign(first, { firstName: LONG_FIRST, lastName: LONG_LAST, returnable: true, returnStatus: null });
    Object.assign(second, { returnable: false, returnStatus: "denied", returnNote: DENIED_NOTE });
    Object.assign(third, { returnable: true, returnStatus: null, returnNote: null });
    await route.fulfill({ response, json: body });
  });
}

/** Puts a "Do Not Call"-sized badge beside every prospect's name, as a per-row flag will. */
const addBadges = (page: Page) =>
  page.evaluate(() => {
    for (const name of document.querySelectorAll<HTMLElement>('[data-testid="prospect-name"]')) {
      const badge = document.createElement("span");
      badge.className = "rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold whitespace-nowrap";
      badge.textContent = "Do Not Call";
      name.appendChild(badge);
    }
  });

const sidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test.describe("the Lead Tracker's layout", () => {
  test("at 1280 px typical rows fit, the Return action and a badge per row included, without scrolling sideways", async ({
    buyerPage: page,
  }) => {
    await typicalRows(page);
    await page.goto("/dashboard?view=lead-tracker");
    const table = page.getByRole("region", { name: "Delivered transfers" });
    const longRow = table.locator("tr").filter({ hasText: `${LONG_FIRST} ${LONG_LAST}` });
    await expect(longRow).toBeVisible();
    await expect(table.locator("tr").filter({ hasText: DENIED_NOTE })).toContainText("Return denied");
    await expect(page.getByRole("list", { name: "Delivered transfers" })).toBeHidden();

    const overflow = () => table.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(await overflow()).toBeLessThanOrEqual(0);
    expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
    const returnLink = longRow.getByRole("link", { name: `Return the transfer of ${LONG_FIRST} ${LONG_LAST}` });
    const box = await returnLink.boundingBox();
    const region = await table.boundingBox();
    expect(box && region && box.x + box.width <= region.x + region.width).toBe(true);
    expect(box && box.x + box.width <= 1280).toBe(true);
    // The consent cell and the recording stay in the row too.
    await expect(longRow.getByRole("button", { name: /^Consent record/ })).toBeInViewport();

    await addBadges(page);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await expect(returnLink).toBeInViewport();
  });

  test("on a 390-px phone the transfers are cards, with the Return action and nothing scrolling sideways", async ({
    newPage,
  }) => {
    const page = await newPage({ as: "buyer", viewport: { width: 390, height: 844 } });
    await typicalRows(page);
    await page.goto("/dashboard?view=lead-tracker");
    const cards = page.getByRole("list", { name: "Delivered transfers" }).getByTestId("transfer-card");
    const longCard = cards.filter({ hasText: `${LONG_FIRST} ${LONG_LAST}` });
    await expect(longCard).toBeVisible();
    await expect(page.getByRole("region", { name: "Delivered transfers" })).toBeHidden();
    expect(await cards.count()).toBeGreaterThanOrEqual(3);
    await expect(longCard.getByRole("link", { name: /^Return the transfer of/ })).toBeVisible();
    await expect(cards.filter({ hasText: DENIED_NOTE })).toContainText("Return denied");
    await expect(longCard).toContainText("Phone");
    await expect(longCard).toContainText("Duration");

    await addBadges(page);
    expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
    for (const card of await cards.all()) {
      const box = await card.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
      expect(await card.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    }
  });

  test('"Today" says what the daily cap counts', async ({ buyerPage: page }) => {
    await page.goto("/dashboard?view=lead-tracker");
    const orders = page.getByRole("region", { name: "Your live-transfer orders" });
    await expect(orders.getByText(/today of \d+ a day/).first()).toBeVisible();
    const rule = orders.getByTestId("daily-cap-rule");
    await expect(rule).toContainText('"Today" counts the calls put through to an order since midnight');
    await expect(rule).toContainText("in its delivery time zone, charged or not (calls under 2 minutes included)");
    await expect(rule).toContainText("Unanswered and failed calls are not counted.");
    await expect(rule).toContainText("An order that reaches its daily cap gets no more calls until the next day.");
  });
});
