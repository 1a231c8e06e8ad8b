/** Issue 11 items 9 and 17 in the browser: refunded orders and disputes on My Orders and /admin-orders. */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_ADMIN } from "../../scripts/demo-data.ts";
import { sqlLiteral } from "../../scripts/lib/sql.ts";
import { setupBrowser } from "./browser";
import { createUser, query } from "./database";

const { newPage, url } = setupBrowser();

async function signIn(page: Page, username: string, password: string, next: string) {
  await page.goto(url(`/login?next=${encodeURIComponent(next)}`));
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL((u) => `${u.pathname}${u.search}` === next);
}

describe("refunded and disputed orders", () => {
  it("My Orders shows Refunded; /admin-orders shows it, filters by it and flags the dispute", async () => {
    const buyer = await createUser();
    const page = await newPage();
    await signIn(page, buyer.username, buyer.password, "/dashboard");
    const created = await page.request.post(url("/api/call-transfer-order"), {
      data: {
        totalTransfers: 2,
        callsPerDay: 1,
        transferHours: "9-5",
        transferPhone: "5554440000",
        workingStates: "TX",
        leadType: "Live Transfers",
        price: 70,
      },
      headers: { Origin: new URL(url("/")).origin },
    });
    expect(created.status()).toBe(200);
    const { orderId } = (await created.json()) as { orderId: string };
    // As the provider's charge.refunded and charge.dispute.created events leave it (tests/worker/payment-events.test.ts).
    query(
      `UPDATE orders SET status = 'refunded', refunded_at = 1, disputed_at = 1767225600000, dispute_reason = 'fraudulent'
       WHERE id = ${sqlLiteral(orderId)}`,
    );

    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("button", { name: "My Orders" }).click();
    await page.getByText("Refunded", { exact: true }).waitFor();

    const admin = await newPage();
    await signIn(admin, DEMO_ADMIN.username, DEMO_ADMIN.password, "/admin-orders");
    const row = admin.locator("tr").filter({ hasText: orderId.slice(0, 8) });
    await row.waitFor();
    expect(await row.textContent()).toContain("Refunded");
    expect(await row.getByTestId("dispute-flag").textContent()).toContain("Disputed (fraudulent)");
    // A refunded order can be neither completed nor cancelled.
    expect(await row.getByRole("button").count()).toBe(0);

    await admin.getByRole("button", { name: "Refunded", exact: true }).click();
    await expect
      .poll(async () => (await admin.locator("tbody tr").allTextContents()).every((text) => text.includes("Refunded")))
      .toBe(true);
    // Arranging the order goes through `wrangler d1 execute`, which takes seconds on a busy machine.
  }, 90_000);
});
