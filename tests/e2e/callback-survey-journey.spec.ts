/**
 * A new buyer's call-backs, end to end (docs/decisions/0058, 0060): a new buyer buys "Call-Backs" through
 * /survey with the simulated card; the demo partner posts a call-back over the partner API; it goes to
 * the new buyer's order (the demo buyer's seeded call-back order is full; the new order is the only one
 * with room), the delivery e-mail is in the outbox, and the call-back is in the buyer's My Call-Backs.
 * Call-backs already waiting fill the new order at payment (oldest paid first): the order is bought with
 * room for all of them and a few more, and the test counts what is left.
 */
import { sqlLiteral } from "../../scripts/lib/sql.ts";
import { query } from "./database";
import { expect, test } from "./fixtures";
import { postCallback } from "./partners";
import { payWith } from "./pay";

test("a new buyer buys Call-Backs through the survey and gets a partner's call-back", async ({ page }) => {
  test.setTimeout(90_000);
  const tag = Date.now().toString(36);
  const username = `cb${tag}`;
  const email = `cb${tag}@example.com`;
  const password = "callback-pass-1";
  // The call-backs waiting now, each of which may fill the new order when it is paid.
  const [waiting] = query<{ n: number }>(
    `SELECT count(*) AS n FROM callback_opportunities
     WHERE order_id IS NULL AND window_end > ${Date.now()} AND (reserved_until IS NULL OR reserved_until < ${Date.now()})`,
  );
  const quantity = (waiting?.n ?? 0) + 3;

  await page.goto("/survey");
  await page.getByLabel("First name").fill("Cara");
  await page.getByLabel("Last name").fill("Callback");
  await page.getByLabel("Agency name").fill("Callback Agency");
  await page.getByLabel("Insurance Agent").check();
  await page.getByLabel("Phone").fill("5557654321");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByLabel("Call-Backs").check();
  await page.getByLabel("Number of callbacks").fill(String(quantity));
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page.getByLabel("Card number")).toBeVisible();
  await payWith(page, "4242 4242 4242 4242");
  await expect(page).toHaveURL(/\/login\?payment_intent=/);

  const order = () =>
    query<{ id: string; status: string; quantity: number; user_id: string; placed: number }>(
      `SELECT o.id, o.status, o.quantity, o.user_id,
              (SELECT count(*) FROM callback_opportunities c WHERE c.order_id = o.id AND c.returned_at IS NULL) AS placed
       FROM orders o JOIN users u ON u.id = o.user_id WHERE u.username = ${sqlLiteral(username)}`,
    )[0];
  await expect.poll(() => order()?.status).toBe("paid");
  const paid = order();
  expect(paid?.quantity).toBe(quantity);
  // Room is left after the waiting call-backs filled what they could.
  expect(paid?.placed ?? quantity).toBeLessThan(quantity);

  const person = {
    firstName: `Survey${tag}`,
    lastName: "Prospect",
    phone: `469${String(2_000_000 + (Date.now() % 7_000_000)).padStart(7, "0")}`,
    state: "TX",
    email: `survey${tag}@example.com`,
  };
  const callbackId = await postCallback(person);
  const [callback] = query<{ order_id: string | null; buyer_user_id: string | null }>(
    `SELECT order_id, buyer_user_id FROM callback_opportunities WHERE id = ${sqlLiteral(callbackId)}`,
  );
  expect(callback).toEqual({ order_id: paid?.id, buyer_user_id: paid?.user_id });

  await expect
    .poll(() =>
      query<{ subject: string }>(
        `SELECT subject FROM outbox WHERE "to" = ${sqlLiteral(email)} AND subject LIKE ${sqlLiteral(`%${person.firstName}%`)}`,
      ).map((mail) => mail.subject),
    )
    .toEqual([expect.stringContaining(`New call-back: call ${person.firstName}`)]);

  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/dashboard?view=my-call-backs");
  await expect(page.getByRole("listitem").filter({ hasText: `${person.firstName} ${person.lastName}` })).toBeVisible();
});
