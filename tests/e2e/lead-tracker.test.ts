/**
 * Issue 16's journey: the demo partner's dialer delivers transfers over the partner API (as
 * scripts/simulate-calls.ts does, with fixed durations so the outcome is known) → the buyer sees them in
 * the Lead Tracker → returns one → the admin approves it in the Fulfilment tab → the buyer's order has
 * the transfer back and the return reads approved. Then axe and a 390-px pass over the three views.
 */
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_ADMIN, DEMO_BUYER } from "../../scripts/demo-data.ts";
import { DEMO_PARTNER_KEY } from "../../scripts/demo-transfers.ts";
import { sqlLiteral } from "../../scripts/lib/sql.ts";
import { NOT_CHARGED_LABEL, TRANSFER_BUFFER_SECONDS } from "../../src/domain/transfers";
import { setupBrowser } from "./browser";
import { createUser, query } from "./database";
import { signIn } from "./partners";
import { payWith, toastText } from "./pay";

const { newPage, url } = setupBrowser();

/** One call of the demo partner's dialer: ping, connect, complete after `durationSeconds`. */
async function deliver(prospect: { firstName: string; lastName: string; phone: string }, durationSeconds: number) {
  const call = async (path: string, body: unknown) => {
    const response = await fetch(url(`/api/v1${path}`), {
      method: "POST",
      headers: { Authorization: `Bearer ${DEMO_PARTNER_KEY}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`${path} → ${response.status} ${String(json.message)}`);
    return json;
  };
  const routed = await call("/transfers", {
    prospect: { ...prospect, state: "TX", age: 70 },
    consent: { optInAt: new Date(Date.now() - 60_000).toISOString(), optInUrl: "https://example.com/quote" },
  });
  const id = String(routed.transferId);
  await call(`/transfers/${id}/events`, { type: "connected" });
  await call(`/transfers/${id}/events`, {
    type: "completed",
    durationSeconds,
    recordingUrl: `https://recordings.example.com/${id}.mp3`,
  });
  return id;
}

const progressOf = async (page: Page, orderId: string) => {
  const text = (await page.getByTestId(`tracker-order-${orderId}`).getByTestId("order-progress").textContent()) ?? "";
  const match = /^(\d+) of (\d+) delivered, (\d+) not charged$/.exec(text);
  if (!match) throw new Error(`unexpected progress text: ${text}`);
  return { delivered: Number(match[1]), total: Number(match[2]), notCharged: Number(match[3]) };
};

const seriousViolations = async (page: Page) => {
  await page.waitForLoadState("networkidle");
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
};

describe("lead tracker and returns", () => {
  it("delivered → tracked → returned → approved → the order has the transfer back", async () => {
    const tag = Date.now().toString(36).replace(/\d/g, "");
    const lastName = `Tracker${tag}`;
    const phone = (n: number) => `214${String(Date.now() % 10_000_000).padStart(7, "0")}`.slice(0, 9) + n;
    // Five billable calls (the 20 % cap then allows one return) and one within the buffer.
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) {
      ids[n] = await deliver(
        { firstName: `Billable${"abcde"[n]}`, lastName, phone: phone(n) },
        TRANSFER_BUFFER_SECONDS + 60,
      );
    }
    const [delivered] = query<{ order_id: string }>(`SELECT order_id FROM transfers WHERE id = '${ids[1]}'`);
    const orderId = delivered?.order_id ?? "";
    await deliver({ firstName: "Shortcall", lastName, phone: phone(7) }, TRANSFER_BUFFER_SECONDS - 30);

    const buyer = await newPage();
    await signIn(buyer, url, DEMO_BUYER.username, DEMO_BUYER.password, "/dashboard?view=lead-tracker");
    await buyer.getByRole("heading", { name: "Lead Tracker" }).waitFor();
    const table = buyer.getByRole("region", { name: "Delivered transfers" });
    const row = (firstName: string) => table.locator("tr").filter({ hasText: `${firstName} ${lastName}` });
    await row("Billablea").waitFor();
    expect(await row("Billablea").textContent()).toContain("Billable");
    expect(await row("Billablea").textContent()).toContain(`${Math.floor((TRANSFER_BUFFER_SECONDS + 60) / 60)}:00`);
    expect(await row("Shortcall").textContent()).toContain(NOT_CHARGED_LABEL);
    expect(
      await row("Billablea")
        .getByRole("link", { name: /Listen/ })
        .getAttribute("href"),
    ).toMatch(/^https:\/\/recordings\.example\.com\//);
    // The CSV export takes the same filters.
    await buyer.getByLabel("Charge").selectOption("false");
    await row("Shortcall").waitFor();
    await expect.poll(() => row("Billablea").count()).toBe(0);
    expect(await buyer.getByRole("link", { name: "Export CSV" }).getAttribute("href")).toBe(
      "/api/tracker/transfers.csv?billable=false",
    );
    await buyer.getByLabel("Charge").selectOption("");
    const before = await progressOf(buyer, orderId);

    // Pause and resume the order's deliveries: the button says the new state and is busy meanwhile.
    const card = buyer.getByTestId(`tracker-order-${orderId}`);
    await card.getByRole("button", { name: "Pause deliveries" }).click();
    await card.getByText("Deliveries are paused.").waitFor();
    await card.getByText("Paused", { exact: true }).waitFor();
    const [paused] = query<{ paused: number }>(`SELECT paused FROM order_delivery WHERE order_id = '${orderId}'`);
    expect(paused?.paused).toBe(1);
    await card.getByRole("button", { name: "Resume deliveries" }).click();
    await card.getByText("Deliveries resumed.").waitFor();
    const [resumed] = query<{ paused: number }>(`SELECT paused FROM order_delivery WHERE order_id = '${orderId}'`);
    expect(resumed?.paused).toBe(0);

    // Return one billable transfer.
    await buyer.getByRole("button", { name: "Return a Lead" }).click();
    await buyer.getByRole("heading", { name: "Return a Lead" }).waitFor();
    expect(await buyer.getByTestId("returns-remaining").textContent()).toMatch(/You can return \d+ more this period/);
    const item = buyer.getByLabel("What do you want to return?");
    const value = await item.locator("option", { hasText: `Billableb ${lastName}` }).getAttribute("value");
    await item.selectOption(value ?? "");
    // "Other" needs a text: the form says so and keeps what was chosen.
    await buyer.getByLabel("Other", { exact: true }).check();
    await buyer.getByRole("button", { name: "Send return" }).click();
    await buyer.getByText("Please describe the reason.").waitFor();
    expect(await item.inputValue()).toBe(value);
    await buyer.getByLabel("Wrong state", { exact: true }).check();
    await buyer.getByRole("button", { name: "Send return" }).click();
    const mine = buyer.getByRole("listitem").filter({ hasText: `Billableb ${lastName}` });
    await mine.getByText("Pending review").waitFor();

    // The admin approves it in the Fulfilment tab; the row changes in place.
    const admin = await newPage();
    await signIn(admin, url, DEMO_ADMIN.username, DEMO_ADMIN.password, "/admin?tab=fulfilment");
    const queued = admin.getByRole("listitem").filter({ hasText: `Billableb ${lastName}` });
    await queued.getByRole("button", { name: /^Approve/ }).click();
    await expect.poll(() => queued.textContent(), { timeout: 15_000 }).toContain("Approved");
    expect(await queued.getByRole("button", { name: /^Approve/ }).count()).toBe(0);

    // The buyer's order has the transfer back, and the return reads approved.
    await buyer.goto(url("/dashboard?view=lead-tracker"));
    await expect.poll(() => row("Billableb").textContent(), { timeout: 15_000 }).toContain("Returned");
    const after = await progressOf(buyer, orderId);
    expect(after).toEqual({ ...before, delivered: before.delivered - 1 });
    await buyer.goto(url("/dashboard?view=return-lead"));
    await expect.poll(() => mine.textContent(), { timeout: 15_000 }).toContain("Approved");
  }, 180_000);

  it("the aged-lead checkout applies the balance, and a balance that covers the order skips the card", async () => {
    const user = await createUser();
    const [owner] = query<{ id: string }>(`SELECT id FROM users WHERE username = ${sqlLiteral(user.username)}`);
    // A credit as an approved aged-lead return leaves it: one cent short of any lead's price, then a large one.
    const credit = (cents: number) =>
      query(
        `INSERT INTO balance_ledger (id, user_id, amount_cents, reason) VALUES (${sqlLiteral(crypto.randomUUID())}, ${sqlLiteral(owner?.id ?? "")}, ${cents}, 'return_credit')`,
      );
    credit(100);
    const page = await newPage();
    await signIn(page, url, user.username, user.password, "/dashboard");
    const rows = page.locator("tbody tr");
    await rows.first().waitFor();
    const price = (await rows.first().locator("td:last-child").textContent()) ?? "";
    await rows.first().getByRole("checkbox").click();
    await page.getByRole("button", { name: "Purchase Selected Leads" }).click();
    const dialog = page.getByRole("dialog");
    const applied = dialog.getByTestId("balance-applied");
    await applied.waitFor();
    expect(await applied.textContent()).toContain("Balance applied−$1.00");
    const card = `$${(Number(price.slice(1)) - 1).toFixed(2)}`;
    expect(await applied.textContent()).toContain(`To pay by card${card}`);
    await payWith(page, "4242 4242 4242 4242", card);
    await expect.poll(() => toastText(page)).toContain("Successfully purchased 1 leads");

    credit(100_000);
    await page.reload();
    await rows.first().waitFor();
    await rows.first().getByRole("checkbox").click();
    await page.getByRole("button", { name: "Purchase Selected Leads" }).click();
    const owned = () =>
      query<{ n: number }>(
        `SELECT count(*) AS n FROM aged_leads WHERE sold_to_user_id = ${sqlLiteral(owner?.id ?? "")}`,
      )[0]?.n;
    await expect.poll(owned, { timeout: 15_000 }).toBe(2);
    await page.getByText("0 selected").waitFor();
    expect(await page.getByRole("dialog").count()).toBe(0);
    expect(await page.getByLabel("Card number").count()).toBe(0);
  }, 180_000);

  it("the tracker, the returns form and the Fulfilment tab pass axe and fit a 390-px phone", async () => {
    const problems: string[] = [];
    const check = async (page: Page, name: string) => {
      for (const violation of await seriousViolations(page)) problems.push(`${name}: ${violation}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 0) problems.push(`${name}: scrolls sideways by ${overflow}px`);
    };
    const phone = { viewport: { width: 390, height: 844 }, bypassCSP: true };
    const buyer = await newPage(phone);
    await signIn(buyer, url, DEMO_BUYER.username, DEMO_BUYER.password, "/dashboard?view=lead-tracker");
    await buyer.getByRole("region", { name: "Delivered transfers" }).waitFor();
    await check(buyer, "lead-tracker");
    // Keyboard alone: the tracker's table scrolls sideways from the keyboard, its headers stay in view.
    await buyer.getByRole("region", { name: "Delivered transfers" }).focus();
    await buyer.keyboard.press("ArrowRight");
    expect(await buyer.getByRole("columnheader", { name: "Time" }).isVisible()).toBe(true);
    await buyer.goto(url("/dashboard?view=return-lead"));
    await buyer.getByRole("heading", { name: "Your returns" }).waitFor();
    await check(buyer, "return-lead");
    const admin = await newPage(phone);
    await signIn(admin, url, DEMO_ADMIN.username, DEMO_ADMIN.password, "/admin?tab=fulfilment");
    await admin.getByRole("heading", { name: "Returns" }).waitFor();
    await check(admin, "fulfilment");
    expect(problems).toEqual([]);
  }, 180_000);
});
