import { describe, expect, it } from "vitest";
import { sqlLiteral } from "../../scripts/lib/sql.ts";
import { setupBrowser } from "./browser";
import { createUser, query } from "./database";

const { newPage, url } = setupBrowser();

describe("My Leads", () => {
  it("pages the buyer's purchased leads 50 at a time from the server", async () => {
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
    const page = await newPage();
    await page.goto(url("/login?next=%2Fdashboard"));
    await page.getByLabel("Username").fill(user.username);
    await page.getByLabel("Password", { exact: true }).fill(user.password);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL((u) => u.pathname === "/dashboard");
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("button", { name: "My Leads" }).click();
    await page.getByText("120 leads · page 1 of 3").waitFor();
    const rows = page.locator("tbody tr");
    expect(await rows.count()).toBe(50);
    expect(await rows.first().locator("td").first().textContent()).toBe("Owned Lead 120");

    const pager = page.getByRole("navigation", { name: "My Leads pages" });
    await pager.getByRole("button", { name: "3", exact: true }).click();
    await page.getByText("120 leads · page 3 of 3").waitFor();
    await expect.poll(() => rows.count()).toBe(20);
    expect(await rows.last().locator("td").first().textContent()).toBe("Owned Lead 1");
    expect(await pager.getByRole("button", { name: "Next" }).isDisabled()).toBe(true);
  }, 90_000);
});
