/**
 * The call-back journey (docs/decisions/0058, 0060, 0062): the demo partner posts a call-back over the
 * partner API → it goes to the demo buyer's paid call-back order (the seed's, given one more place, the oldest with room) → the
 * delivery e-mail is in the local outbox → the buyer sees it in My Call-Backs and marks "No answer",
 * which stays after a reload; the Return action says when it opens. Then axe on My Call-Backs at 1280
 * and 390 px. And a buyer returns a call-back not reached, from the keyboard, once its window has ended.
 */
import type { Page } from "@playwright/test";
import { DEMO_BUYER } from "../../scripts/demo-data.ts";
import { sqlLiteral } from "../../scripts/lib/sql.ts";
import { CALLBACK_RETURN_MESSAGES } from "../../src/features/returns/callback-returns";
import { createUser, query } from "./database";
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
  const [buyer] = query<{ id: string }>(`SELECT id FROM users WHERE username = ${sqlLiteral(DEMO_BUYER.username)}`);
  // The seed's call-back order of the demo buyer is full (its places are delivered): one more place, so it
  // is the oldest paid order with room when the partner's call-back arrives.
  query(
    `UPDATE orders SET quantity = quantity + 1 WHERE user_id = ${sqlLiteral(buyer?.id ?? "")} AND status = 'paid'
      AND json_extract(details, '$.leadType') = 'Call-Backs'`,
  );
  const callbackId = await postCallback(person);
  const [row] = query<{ buyer_user_id: string | null }>(
    `SELECT buyer_user_id FROM callback_opportunities WHERE id = ${sqlLiteral(callbackId)}`,
  );
  expect(row?.buyer_user_id).toBe(buyer?.id);

  await expect
    .poll(() =>
      query<{ subject: string }>(
        `SELECT subject FROM outbox WHERE "to" = ${sqlLiteral(DEMO_BUYER.email)} AND subject LIKE ${sqlLiteral(`%${person.firstName}%`)}`,
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
      () =>
        query<{ outcome: string | null }>(
          `SELECT outcome FROM callback_opportunities WHERE id = ${sqlLiteral(callbackId)}`,
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
  const [row] = query<{ id: string }>(`SELECT id FROM users WHERE username = ${sqlLiteral(user.username)}`);
  const now = Date.now();
  // Five call-backs bought without an order (the marketplace's way), windows ended an hour ago: 20 % is one return.
  const ids = [1, 2, 3, 4, 5].map((n) => {
    const id = crypto.randomUUID();
    const phone = `469${String(3_000_000 + ((now + n) % 6_000_000)).padStart(7, "0")}`;
    query(
      `INSERT INTO callback_opportunities (id, name, email, phone, phone_key, state, time_zone, window_start,
        window_end, price_cents, source, buyer_user_id, delivered_at, created_at)
       VALUES (${sqlLiteral(id)}, ${sqlLiteral(`Ended${n} Prospect`)}, '', ${sqlLiteral(phone)}, ${phone}, 'TX',
        'America/Chicago', ${now - 3 * 3_600_000}, ${now - 3_600_000}, 1500, 'admin', ${sqlLiteral(row?.id ?? "")},
        ${now - 4 * 3_600_000}, ${now - 4 * 3_600_000})`,
    );
    return id;
  });
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
    query<{ status: string }>(`SELECT status FROM returns WHERE callback_id = ${sqlLiteral(ids[0] ?? "")}`),
  ).toEqual([{ status: "pending" }]);
});
