import { createLeads } from "../worker/factories/leads";
import { createUser, e2eDb } from "./database";
import { expect, test } from "./fixtures";

test.describe("My Leads", () => {
  test("pages the buyer's purchased leads 50 at a time from the server", async ({ page }) => {
    test.setTimeout(90_000);
    const user = await createUser();
    const tag = user.username;
    // 120 leads sold to this buyer, one purchase a second (lead 120 is the newest).
    await createLeads(e2eDb(), 120, (i) => ({
      id: `${tag}-${i + 1}`,
      name: `Owned Lead ${i + 1}`,
      email: `owned${i + 1}@example.com`,
      phone: `909${String(i + 1).padStart(7, "0")}`,
      state: "QM",
      formFillTime: new Date(1700000000000),
      dedupeKey: `${tag}|${i + 1}`,
      soldToUserId: user.id,
      soldOrderId: "e2e",
      soldAt: new Date(1800000000000 + (i + 1) * 1000),
    }));
    await page.goto("/login?next=%2Fdashboard");
    await page.getByLabel("Username").fill(user.username);
    await page.getByLabel("Password", { exact: true }).fill(user.password);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page).toHaveURL((u) => u.pathname === "/dashboard");
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "My Leads" }).click();
    await expect(page.getByText("120 leads · page 1 of 3")).toBeVisible();
    const rows = page.locator("tbody tr");
    await expect(rows).toHaveCount(50);
    await expect(rows.first().locator("td").first()).toHaveText("Owned Lead 120");

    const pager = page.getByRole("navigation", { name: "My Leads pages" });
    await pager.getByRole("button", { name: "3", exact: true }).click();
    await expect(page.getByText("120 leads · page 3 of 3")).toBeVisible();
    await expect(rows).toHaveCount(20);
    await expect(rows.last().locator("td").first()).toHaveText("Owned Lead 1");
    await expect(pager.getByRole("button", { name: "Next" })).toBeDisabled();
  });
});
