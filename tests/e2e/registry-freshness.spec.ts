/**
 * A stale Do Not Call registry copy in the browser (docs/decisions/0085): an admin sees the banner on an
 * admin page, a buyer sees on the marketplace why the covered leads can't be bought, and a purchase of one
 * is refused with the reason. The stale copy is a state's (one no other spec buys in), made and removed
 * here: a stale national copy would stop every other spec's sales in the shared state.
 */
import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { REGISTRY_STALE_LEAD_MESSAGE } from "../../src/features/do-not-call/list-freshness";
import { suppressionLists } from "../../worker/db/schema";
import { createLead } from "../worker/factories/leads";
import { createUser, e2eDb } from "./database";
import { axeOf, expect, signIn, test } from "./fixtures";
import { toast } from "./pay";

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];
const STATE = "WY";
const DAY = 86_400_000;

async function expectAccessible(page: Page) {
  const results = await axeOf(page).withTags(AXE_TAGS).analyze();
  const serious = results.violations.filter((v) => v.impact === "critical" || v.impact === "serious");
  expect(serious.map((v) => `${v.id} ${v.nodes.map((node) => node.target.join(" ")).join(" | ")}`)).toEqual([]);
}

test.describe("a stale state copy of the Do Not Call registry", () => {
  const refreshedOn = new Date(Date.now() - 40 * DAY).toISOString().slice(0, 10);
  let listId = 0;

  test.beforeAll(async () => {
    const [list] = await e2eDb()
      .insert(suppressionLists)
      .values({ kind: "state_dnc", name: `${STATE} list (stale, e2e)`, state: STATE, refreshedOn })
      .returning({ id: suppressionLists.id });
    listId = list?.id ?? 0;
  });
  test.afterAll(async () => {
    await e2eDb().delete(suppressionLists).where(eq(suppressionLists.id, listId));
  });

  test("an admin sees the banner on every admin page, saying sales are stopped", async ({ adminPage: page }) => {
    for (const path of ["/admin", "/admin/users"]) {
      await page.goto(path);
      const banner = page.getByRole("region", { name: "Do Not Call registry" });
      await expect(banner).toContainText(`The ${STATE} Do Not Call list copy was refreshed on ${refreshedOn}`);
      await expect(banner).toContainText(
        `sales stopped, with call-back deliveries and live transfers, for numbers in ${STATE}`,
      );
      await expect(banner.getByRole("link", { name: "Upload a fresh copy" })).toHaveAttribute(
        "href",
        "/admin/do-not-call",
      );
    }
    await expectAccessible(page);
  });

  test("a buyer sees why the state's leads can't be bought, and buying one is refused with the reason", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const lead = await createLead(e2eDb(), { state: STATE, name: "Wyatt Stale" });
    const user = await createUser();
    await signIn(page, user.username, user.password, "/dashboard");
    await expect(page.getByTestId("registry-stop")).toHaveText(
      `Leads in ${STATE} can't be bought right now: our copy of that state's Do Not Call list is more than 31 days old. Sales resume once a fresh copy is loaded.`,
    );
    await expectAccessible(page);

    await page.getByLabel("Filter by location").fill(STATE);
    // The filter reloads the list and clears the selection: select only once the list shows the state alone.
    const rows = page.locator("tbody tr");
    await expect(rows.filter({ hasNotText: STATE })).toHaveCount(0);
    const pick = rows.filter({ hasText: "Wyatt" }).first().getByRole("checkbox");
    await pick.click();
    await expect(pick).toBeChecked();
    await page.getByRole("button", { name: "Purchase Selected Leads" }).click();
    await expect(toast(page, "can't be bought right now")).toContainText(REGISTRY_STALE_LEAD_MESSAGE);
    expect(lead.state).toBe(STATE);
  });
});
