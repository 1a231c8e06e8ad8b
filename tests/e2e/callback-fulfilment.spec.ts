/**
 * The Fulfilment tab's call-back part (docs/decisions/0063): a waiting call-back whose window starts soon
 * is marked "Expires soon", and the admin places it by hand in the open call-back order they pick.
 */
import { createCallback } from "../worker/factories/callbacks";
import { createCallbackOrder } from "../worker/factories/orders";
import { createUser, e2eDb } from "./database";
import { expect, hydrated, test } from "./fixtures";

test("an admin sees a call-back about to expire unsold and assigns it to a chosen order", async ({ adminPage }) => {
  const buyer = await createUser();
  const { id: orderId } = await createCallbackOrder(e2eDb(), {
    quantity: 2,
    userId: buyer.id,
    paymentIntentId: `pi_e2e_${crypto.randomUUID()}`,
  });
  const name = `Waiting ${Date.now()}`;
  const phone = `312${String(Date.now() % 10_000_000).padStart(7, "0")}`;
  const start = Date.now() + 60 * 60_000;
  await createCallback(e2eDb(), {
    name,
    email: "w@example.com",
    phone,
    priceCents: 1500,
    windowStart: new Date(start),
    windowEnd: new Date(start + 2 * 60 * 60_000),
    source: "admin",
  });

  const page = adminPage;
  await page.goto("/admin?tab=fulfilment");
  await hydrated(page);
  await expect(page.getByText("Expires soon marks a window that starts within 2 hours")).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("Expires soon");
  const orderRow = page.getByTestId(`callback-order-${orderId}`);
  await expect(orderRow).toContainText(buyer.username);
  await row.getByRole("combobox", { name: `Order for ${name}` }).selectOption(orderId);
  await row.getByRole("button", { name: `Assign ${name}` }).click();
  await expect(page.getByRole("row").filter({ hasText: name })).toHaveCount(0);
  // Bought 2, delivered 1, remaining 1.
  await expect(orderRow.getByRole("cell")).toHaveText([/./, buyer.username, "2", "1", "1"]);
});
