/**
 * The Fulfilment tab's call-back part (docs/decisions/0063): a waiting call-back whose window starts soon
 * is marked "Expires soon", and the admin places it by hand in the open call-back order they pick.
 */
import { sqlLiteral } from "../../scripts/lib/sql.ts";
import { createUser, query } from "./database";
import { expect, hydrated, test } from "./fixtures";

test("an admin sees a call-back about to expire unsold and assigns it to a chosen order", async ({ adminPage }) => {
  const buyer = await createUser();
  const [owner] = query<{ id: string }>(`SELECT id FROM users WHERE username = ${sqlLiteral(buyer.username)}`);
  const orderId = crypto.randomUUID();
  query(
    `INSERT INTO orders (id, kind, quantity, unit_price_cents, total_cents, user_id, details, payment_intent_id, status, paid_at)
     VALUES (${sqlLiteral(orderId)}, 'survey', 2, 1500, 3000, ${sqlLiteral(owner?.id ?? "")},
             '{"leadType":"Call-Backs","totalCallbacks":2}', ${sqlLiteral(`pi_e2e_${orderId}`)}, 'paid', ${Date.now()})`,
  );
  const name = `Waiting ${Date.now()}`;
  const phone = `312${String(Date.now() % 10_000_000).padStart(7, "0")}`;
  const start = Date.now() + 60 * 60_000;
  query(
    `INSERT INTO callback_opportunities (id, name, email, phone, state, price_cents, kind, time_zone, window_start,
       window_end, phone_key, source)
     VALUES (${sqlLiteral(crypto.randomUUID())}, ${sqlLiteral(name)}, 'w@example.com', ${sqlLiteral(phone)}, 'TX',
             1500, 'callback', 'America/Chicago', ${start}, ${start + 2 * 60 * 60_000}, ${phone}, 'admin')`,
  );

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
