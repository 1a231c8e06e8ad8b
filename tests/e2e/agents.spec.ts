/**
 * An order's agents (docs/decisions/0071) in the dashboard: under My Orders a buyer opens a live-transfer
 * order's Agents panel, adds an agent, sees it listed, switches it off and on, edits and removes it; bad
 * input shows the API's message; axe stays clean with the panel and its form open. The demo buyer's Texas
 * and Florida order shows its two seeded agents.
 */
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { DEMO_AGENTS } from "../../scripts/demo-transfers.ts";
import { AGENT_MESSAGES, AGENTS_EXPLAINED } from "../../src/features/transfers/agents";
import { orderAgents, orders } from "../../worker/db/schema";
import { createAwaitingOrder } from "../worker/factories/orders";
import { createUser, e2eDb } from "./database";
import { expect, signIn, test } from "./fixtures";

test.use({ bypassCSP: true });

async function axeProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
}

/**
 * A fresh buyer with one paid live-transfer order, still awaiting its delivery settings, so no other test's
 * calls are routed to it.
 */
async function buyerWithOrder() {
  const user = await createUser();
  const { id: orderId } = await createAwaitingOrder(e2eDb(), {
    userId: user.id,
    email: user.email,
    quantity: 10,
    unitPriceCents: 10_500,
    details: { leadType: "Live Transfers" },
  });
  return { user, orderId };
}

async function openAgents(page: Page) {
  await page.getByRole("button", { name: "Agents", exact: true }).click();
  const panel = page.getByTestId("agents-panel");
  await expect(panel.getByRole("heading", { name: "Agents" })).toBeVisible();
  return panel;
}

test("a buyer adds an agent, switches it off and on, edits and removes it; bad input says why", async ({ page }) => {
  test.setTimeout(120_000);
  const { user } = await buyerWithOrder();
  await signIn(page, user.username, user.password, "/dashboard/my-orders");
  const panel = await openAgents(page);
  await expect(panel).toContainText(AGENTS_EXPLAINED);
  await expect(panel).toContainText("No agents yet");

  await panel.getByRole("button", { name: "Add an agent" }).click();
  const form = panel.getByRole("form", { name: "Add an agent" });
  await form.getByLabel("Agent's name").fill("Dana Cole");
  await form.getByLabel("Transfer phone number").fill("+44 20 7946 0958");
  await form.getByLabel("Licensed states").fill("TX, Florida");
  await form.getByLabel("Takes calls from").fill("20:00");
  await form.getByLabel("Takes calls until").fill("02:00");
  await form.getByLabel("Time zone").selectOption({ label: "Central" });
  await form.getByRole("button", { name: "Add agent" }).click();
  await expect(form.getByText(AGENT_MESSAGES.transferPhone)).toBeVisible();
  expect(await axeProblems(page)).toEqual([]);

  await form.getByLabel("Transfer phone number").fill("(214) 555-0101");
  await form.getByLabel("Sat").check();
  await form.getByRole("button", { name: "Add agent" }).click();
  const agent = panel.getByRole("listitem").filter({ hasText: "Dana Cole" });
  await expect(agent).toContainText("(214) 555-0101 · TX, FL");
  await expect(agent).toContainText("Mon–Sat, 8:00 PM – 2:00 AM (past midnight) Central");
  await expect(agent).toContainText("No calls yet today");
  await expect(panel.getByText("Dana Cole was added.")).toBeVisible();
  expect(await axeProblems(page)).toEqual([]);

  // The switch is a labelled checkbox: keyboard toggles it, and the server's answer is what it shows.
  const taking = agent.getByRole("switch", { name: "Taking calls now" });
  await expect(taking).toBeChecked();
  await taking.focus();
  await page.keyboard.press("Space");
  await expect(panel.getByText("Dana Cole takes no calls for now.")).toBeVisible();
  await expect(taking).not.toBeChecked();
  await taking.click();
  await expect(panel.getByText("Dana Cole takes calls again.")).toBeVisible();
  await expect(taking).toBeChecked();

  await agent.getByRole("button", { name: "Edit", exact: true }).click();
  const edit = panel.getByRole("form", { name: "Edit Dana Cole" });
  await edit.getByLabel("Licensed states").fill("");
  await edit.getByRole("button", { name: "Save agent" }).click();
  await expect(edit.getByText(AGENT_MESSAGES.states)).toBeVisible();
  for (const day of ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]) await edit.getByLabel(day).uncheck();
  await edit.getByLabel("Licensed states").fill("GA");
  await edit.getByRole("button", { name: "Save agent" }).click();
  await expect(edit.getByText(AGENT_MESSAGES.days)).toBeVisible();
  await edit.getByLabel("Sun").check();
  await edit.getByLabel("Agent's name").fill("Dana Ruiz");
  await edit.getByRole("button", { name: "Save agent" }).click();
  const edited = panel.getByRole("listitem").filter({ hasText: "Dana Ruiz" });
  await expect(edited).toContainText("(214) 555-0101 · GA");
  await expect(edited).toContainText("Sun, 8:00 PM – 2:00 AM (past midnight) Central");

  await edited.getByRole("button", { name: "Remove", exact: true }).click();
  await expect(edited.getByRole("button", { name: "Keep agent" })).toBeFocused();
  expect(await axeProblems(page)).toEqual([]);
  await edited.getByRole("button", { name: "Remove agent" }).click();
  await expect(panel.getByText("Dana Ruiz was removed.")).toBeVisible();
  await expect(panel).toContainText("No agents yet");
  // Removed, not deleted: the row stays for the Lead Tracker.
  const rows = await e2eDb()
    .select({ removedAt: orderAgents.removedAt })
    .from(orderAgents)
    .innerJoin(orders, eq(orders.id, orderAgents.orderId))
    .where(and(eq(orderAgents.name, "Dana Ruiz"), eq(orders.email, user.email)));
  expect(rows).toHaveLength(1);
  expect(rows[0]?.removedAt).not.toBeNull();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the panel and its form fit the screen", async ({ page }) => {
    const { user } = await buyerWithOrder();
    await signIn(page, user.username, user.password, "/dashboard/my-orders");
    const panel = await openAgents(page);
    await panel.getByRole("button", { name: "Add an agent" }).click();
    await expect(panel.getByLabel("Agent's name")).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await axeProblems(page)).toEqual([]);
  });
});

test("the demo buyer's Texas and Florida order shows its two seeded agents", async ({ buyerPage }) => {
  await buyerPage.goto("/dashboard/my-orders");
  // Every live-transfer order's panel open (each button turns into "Hide agents").
  const closed = buyerPage.getByRole("button", { name: "Agents", exact: true });
  await expect(closed.first()).toBeVisible();
  for (let opened = await closed.count(); opened > 0; opened--) await closed.first().click();
  for (const agent of DEMO_AGENTS) {
    await expect(buyerPage.getByTestId("agents-panel").getByText(agent.name)).toBeVisible();
  }
});
