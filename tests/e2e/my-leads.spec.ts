import { sqlLiteral } from "../../scripts/lib/sql.ts";
import { createUser, query } from "./database";
import { expect, test } from "./fixtures";

test.describe("My Leads", () => {
  test("pages the buyer's purchased leads 50 at a time from the server", async ({ page }) => {
    test.setTimeout(90_000);
    const user = await createUser();
    const [owner] = query<{ id: string }>(`SELECT id FROM users WHERE username = ${sqlLiteral(user.username)}`);
    const tag = user.username;
    // 120 leads sold to this buyer, one purchase a second (lead 120 is the newest).
    query(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 120)
       INSERT INTO aged_leads (id, name, email, phone, state, area_code, form_fill_time, dedupe_key, sold_to_user_id, sold_order_id, sold_at)
       SELECT ${sqlLiteral(tag)} || '-' || i, 'Owned Lead ' || i, 'owned' || i || '@example.com', '909' || printf('%07d', i),
              'QM', '909', 1700000000000, ${sqlLiteral(tag)} || '|' || i, ${sqlLiteral(owner?.id ?? "")}, 'e2e', 1800000000000 + i * 1000
       FROM n`,
    );
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
