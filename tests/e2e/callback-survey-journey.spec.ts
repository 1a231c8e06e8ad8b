/**
 * A new buyer's call-backs, end to end (docs/decisions/0058, 0060): a new buyer buys "Call-Backs" through
 * /survey with the simulated card; the demo partner posts a call-back over the partner API; it goes to
 * the new buyer's order (the demo buyer's seeded call-back order is full; the new order is the only one
 * with room), the delivery e-mail is in the outbox, and the call-back is in the buyer's My Call-Backs.
 * Call-backs already waiting fill the new order at payment (oldest paid first): the order is bought with
 * room for all of them and a few more, and the test counts what is left.
 */
import { and, eq, gt, isNull, like, lt, or } from "drizzle-orm";
import { callbackOpportunities, orders, outbox, users } from "../../worker/db/schema";
import { e2eDb } from "./database";
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
  const db = e2eDb();
  const now = new Date();
  const waiting = await db.$count(
    callbackOpportunities,
    and(
      isNull(callbackOpportunities.orderId),
      gt(callbackOpportunities.windowEnd, now),
      or(isNull(callbackOpportunities.reservedUntil), lt(callbackOpportunities.reservedUntil, now)),
    ),
  );
  const quantity = waiting + 3;

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

  const order = async () => {
    const [row] = await db
      .select({ id: orders.id, status: orders.status, quantity: orders.quantity, userId: orders.userId })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .where(eq(users.username, username));
    if (!row) return undefined;
    const placed = await db.$count(
      callbackOpportunities,
      and(eq(callbackOpportunities.orderId, row.id), isNull(callbackOpportunities.returnedAt)),
    );
    return { ...row, placed };
  };
  await expect.poll(async () => (await order())?.status).toBe("paid");
  const paid = await order();
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
  const [callback] = await db
    .select({ orderId: callbackOpportunities.orderId, buyerUserId: callbackOpportunities.buyerUserId })
    .from(callbackOpportunities)
    .where(eq(callbackOpportunities.id, callbackId));
  expect(callback).toEqual({ orderId: paid?.id, buyerUserId: paid?.userId });

  await expect
    .poll(async () =>
      (
        await db
          .select({ subject: outbox.subject })
          .from(outbox)
          .where(and(eq(outbox.to, email), like(outbox.subject, `%${person.firstName}%`)))
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
