/**
 * The call-back journey (docs/decisions/0058, 0060, 0062): the demo partner posts a call-back over the
 * partner API → it goes to the demo buyer's paid call-back order (the seed's, given one more place, the oldest with room) → the
 * delivery e-mail is in the local outbox → the buyer sees it in My Call-Backs and marks "No answer",
 * which stays after a reload; the Return action says when it opens. Then axe on My Call-Backs at 1280
 * and 390 px. And a buyer returns a call-back not reached, from the keyboard, once its window has ended.
 */
import type { Page } from "@playwright/test";
import { and, eq, like } from "drizzle-orm";
import { DEMO_BUYER } from "../../scripts/demo-data.ts";
import { CALLBACK_RETURN_MESSAGES } from "../../src/features/returns/callback-returns";
import { callbackOpportunities, orders, outbox, returns } from "../../worker/db/schema";
import { createCallback } from "../worker/factories/callbacks";
import { createUser, e2eDb, userIdOf } from "./database";
import { axeOf, expect, signIn, test } from "./fixtures";
import { postCallback } from "./partners";

/** A fresh prospect, so the 30-day rule never keeps it from the demo buyer. */
function prospect() {
  const tag = Date.now() % 10_000_000;
  return {
    firstName: `Journey${tag}`,
    lastName: "Callback",
    phone: `469${String(2_000_000 + (tag % 7_000_000)).padStart(7, "0")}`,
    state: "TX",
    email: `journey${tag}@example.com`,
  };
}

async function axeProblems(page: Page, where: string): Promise<string[]> {
  const results = await axeOf(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((violation) => violation.impact === "critical" || violation.impact === "serious")
    .map(
      (violation) => `${where}: ${violation.id} ${violation.nodes.map((node) => node.target.join(" ")).join(" | ")}`,
    );
}

test("a partner's call-back reaches My Call-Backs and the outbox, and the buyer marks it no answer", async ({
  buyerPage: page,
}) => {
  const person = prospect();
  const db = e2eDb();
  const buyerId = await userIdOf(DEMO_BUYER.username);
  // The seed's call-back order of the demo buyer is full (its places are delivered): one more place, so it
  // is the oldest paid order with room when the partner's call-back arrives.
  const paid = await db
    .select({ id: orders.id, quantity: orders.quantity, details: orders.details })
    .from(orders)
    .where(and(eq(orders.userId, buyerId ?? ""), eq(orders.status, "paid")));
  for (const order of paid.filter((paidOrder) => paidOrder.details.leadType === "Call-Backs")) {
    await db
      .update(orders)
      .set({ quantity: order.quantity + 1 })
      .where(eq(orders.id, order.id));
  }
  const callbackId = await postCallback(person);
  const [row] = await db
    .select({ buyerUserId: callbackOpportunities.buyerUserId })
    .from(callbackOpportunities)
    .where(eq(callbackOpportunities.id, callbackId));
  expect(row?.buyerUserId).toBe(buyerId);

  await expect
    .poll(async () =>
      (
        await db
          .select({ subject: outbox.subject })
          .from(outbox)
          .where(and(eq(outbox.to, DEMO_BUYER.email), like(outbox.subject, `%${person.firstName}%`)))
      ).map((mail) => mail.subject),
    )
    .toEqual([expect.stringContaining(`New call-back: call ${person.firstName}`)]);

  await page.goto("/dashboard?view=my-call-backs");
  const card = page.getByRole("listitem").filter({ hasText: `${person.firstName} ${person.lastName}` });
  await expect(card).toBeVisible();
  const outcome = card.getByLabel("Outcome");
  await expect(outcome).toBeEnabled();
  // The window is tomorrow: not returnable yet, and the card says so.
  await expect(card.getByRole("button", { name: "Return", exact: true })).toBeDisabled();
  await outcome.focus();
  await outcome.selectOption({ label: "No answer" });
  await expect
    .poll(
      async () =>
        (
          await db
            .select({ outcome: callbackOpportunities.outcome })
            .from(callbackOpportunities)
            .where(eq(callbackOpportunities.id, callbackId))
        )[0]?.outcome,
    )
    .toBe("no_answer");
  await expect(card.getByText(CALLBACK_RETURN_MESSAGES.period)).toBeVisible();

  await page.reload();
  await expect(card.getByLabel("Outcome")).toHaveValue("no_answer");
  // The whole consent record, folded under the summary: what the partner sent, and what it did not.
  await card.getByText("Full consent record").click();
  await expect(card.getByText("https://example.com/quote", { exact: true })).toBeVisible();
  await expect(card.getByText("Not given").first()).toBeVisible();
  const problems = await axeProblems(page, "my-call-backs @1280px");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(card.getByLabel("Outcome")).toBeVisible();
  problems.push(...(await axeProblems(page, "my-call-backs @390px")));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(problems).toEqual([]);
});

test("a buyer returns an unreached call-back after its window, from the keyboard", async ({ newPage }) => {
  const user = await createUser();
  const db = e2eDb();
  const now = Date.now();
  // Five call-backs bought without an order (the marketplace's way), windows ended an hour ago: 20 % is one return.
  const ids: string[] = [];
  for (const n of [1, 2, 3, 4, 5]) {
    const callback = await createCallback(db, {
      name: `Ended${n} Prospect`,
      email: "",
      phone: `469${String(3_000_000 + ((now + n) % 6_000_000)).padStart(7, "0")}`,
      windowStart: new Date(now - 3 * 3_600_000),
      windowEnd: new Date(now - 3_600_000),
      priceCents: 1500,
      buyerUserId: user.id,
      deliveredAt: new Date(now - 4 * 3_600_000),
      createdAt: new Date(now - 4 * 3_600_000),
      optInAt: null,
      optInUrl: null,
    });
    ids.push(callback.id);
  }
  const page = await newPage({ viewport: { width: 390, height: 844 } });
  await signIn(page, user.username, user.password, "/dashboard/my-call-backs");
  const card = page.getByRole("listitem").filter({ hasText: "Ended1 Prospect" });
  await card.getByLabel("Outcome").selectOption({ label: "Wrong number" });
  const returnButton = card.getByRole("button", { name: "Return", exact: true });
  await expect(returnButton).toBeEnabled();
  await returnButton.focus();
  await page.keyboard.press("Enter");
  await expect(returnButton).toHaveAttribute("aria-expanded", "true");
  await card.getByLabel("Reason").selectOption({ label: "Disconnected or wrong number" });
  await card.getByRole("button", { name: "Send return" }).focus();
  await page.keyboard.press("Enter");
  await expect(card.getByText("Pending review")).toBeVisible();
  await expect(card.getByLabel("Outcome")).toBeDisabled();
  expect(
    await db
      .select({ status: returns.status })
      .from(returns)
      .where(eq(returns.callbackId, ids[0] ?? "")),
  ).toEqual([{ status: "pending" }]);
});
