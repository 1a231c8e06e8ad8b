/** Payment events in the browser: refunded orders and disputed orders on My Orders and /admin-orders. */
import { eq } from "drizzle-orm";
import { orders } from "../../worker/db/schema";
import { createUser, e2eDb } from "./database";
import { expect, signIn, test, url } from "./fixtures";

test.describe("refunded and disputed orders", () => {
  test("My Orders shows Refunded; /admin-orders shows it, filters by it and flags the dispute", async ({
    page,
    adminPage: admin,
  }) => {
    test.setTimeout(90_000);
    const buyer = await createUser();
    await signIn(page, buyer.username, buyer.password, "/dashboard");
    const created = await page.request.post("/api/call-transfer-order", {
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
    // As the provider's charge.refunded and charge.dispute.created events leave it (worker/features/orders/test/payment-events.worker.test.ts).
    await e2eDb()
      .update(orders)
      .set({
        status: "refunded",
        refundedAt: new Date(1),
        disputedAt: new Date(1767225600000),
        disputeReason: "fraudulent",
      })
      .where(eq(orders.id, orderId));

    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "My Orders" }).click();
    await expect(page.getByText("Refunded", { exact: true })).toBeVisible();

    await admin.goto("/admin-orders");
    const row = admin.locator("tr").filter({ hasText: orderId.slice(0, 8) });
    await expect(row).toContainText("Refunded");
    await expect(row.getByTestId("dispute-flag")).toContainText("Disputed (fraudulent)");
    // A refunded order can be neither completed nor cancelled.
    await expect(row.getByRole("button")).toHaveCount(0);

    await admin.getByRole("button", { name: "Refunded", exact: true }).click();
    await expect
      .poll(async () => (await admin.locator("tbody tr").allTextContents()).every((text) => text.includes("Refunded")))
      .toBe(true);
  });
});
