/**
 * The Lead Tracker's journey: the demo partner's dialer delivers transfers over the partner API (as
 * scripts/simulate-calls.ts does, with fixed durations so the outcome is known) → the buyer sees them in
 * the Lead Tracker → returns one → the admin approves it in the Fulfilment tab → the buyer's order has
 * the transfer back and the return reads approved. Then axe and a 390-px pass over the three views.
 */
import type { Page } from "@playwright/test";
import { desc, eq } from "drizzle-orm";
import { NOT_CHARGED_LABEL, TRANSFER_BUFFER_SECONDS } from "../../src/features/transfers/transfers";
import { agedLeads, orderDelivery, systemPauses, transfers } from "../../worker/db/schema";
import { createCredit } from "../worker/factories/balance";
import { createLeads } from "../worker/factories/leads";
import { createUser, e2eDb } from "./database";
import { axeOf, expect, hydrated, signIn, test, url } from "./fixtures";
import { partnerPost } from "./partners";
import { payWith, toast } from "./pay";

const ping = (prospect: { firstName: string; lastName: string; phone: string }) =>
  partnerPost("/transfers", {
    prospect: { ...prospect, state: "TX", age: 70 },
    consent: { optInAt: new Date(Date.now() - 60_000).toISOString(), optInUrl: "https://example.com/quote" },
  });

/** One call of the demo partner's dialer: ping, connect, complete after `durationSeconds`. */
async function deliver(prospect: { firstName: string; lastName: string; phone: string }, durationSeconds: number) {
  const routed = await ping(prospect);
  const id = String(routed.transferId);
  await partnerPost(`/transfers/${id}/events`, { type: "connected" });
  await partnerPost(`/transfers/${id}/events`, {
    type: "completed",
    durationSeconds,
    recordingUrl: `https://recordings.example.com/${id}.mp3`,
  });
  return id;
}

/** The order a transfer was routed to. */
const orderOf = async (transferId: string) =>
  (await e2eDb().select({ orderId: transfers.orderId }).from(transfers).where(eq(transfers.id, transferId)))[0]
    ?.orderId;

/** An order's pause and transfer number as routing reads them. */
const deliveryOf = async (orderId: string) =>
  (
    await e2eDb()
      .select({
        paused: orderDelivery.paused,
        pauseKind: orderDelivery.pauseKind,
        transferPhone: orderDelivery.transferPhone,
      })
      .from(orderDelivery)
      .where(eq(orderDelivery.orderId, orderId))
  )[0];

const progressOf = async (page: Page, orderId: string) => {
  const text = (await page.getByTestId(`tracker-order-${orderId}`).getByTestId("order-progress").textContent()) ?? "";
  const match = /^(\d+) of (\d+) delivered, (\d+) not charged$/.exec(text);
  if (!match) throw new Error(`unexpected progress text: ${text}`);
  return { delivered: Number(match[1]), total: Number(match[2]), notCharged: Number(match[3]) };
};

const seriousViolations = async (page: Page) => {
  await page.waitForLoadState("networkidle");
  const results = await axeOf(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
};

test.describe("lead tracker and returns", () => {
  test("delivered → tracked → returned → approved → the order has the transfer back", async ({ newPage }) => {
    test.setTimeout(180_000);
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
    const orderId = (await orderOf(ids[1] ?? "")) ?? "";
    await deliver({ firstName: "Shortcall", lastName, phone: phone(7) }, TRANSFER_BUFFER_SECONDS - 30);

    const buyer = await newPage({ as: "buyer" });
    await buyer.goto("/dashboard?view=lead-tracker");
    await buyer.getByRole("heading", { name: "Lead Tracker" }).waitFor();
    const table = buyer.getByRole("region", { name: "Delivered transfers" });
    const row = (firstName: string) => table.locator("tr").filter({ hasText: `${firstName} ${lastName}` });
    await row("Billablea").waitFor();
    await expect(row("Billablea")).toContainText("Billable");
    await expect(row("Billablea")).toContainText(`${Math.floor((TRANSFER_BUFFER_SECONDS + 60) / 60)}:00`);
    await expect(row("Shortcall")).toContainText(NOT_CHARGED_LABEL);
    expect(
      await row("Billablea")
        .getByRole("link", { name: /Listen/ })
        .getAttribute("href"),
    ).toMatch(/^https:\/\/recordings\.example\.com\//);
    // The CSV export takes the same filters.
    await buyer.getByLabel("Charge").selectOption("false");
    await row("Shortcall").waitFor();
    await expect(row("Billablea")).toHaveCount(0);
    await expect(buyer.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
      "href",
      "/api/tracker/transfers.csv?billable=false",
    );
    await buyer.getByLabel("Charge").selectOption("");
    const before = await progressOf(buyer, orderId);

    // Pause and resume the order's deliveries: the button says the new state and is busy meanwhile.
    const card = buyer.getByTestId(`tracker-order-${orderId}`);
    await card.getByRole("button", { name: "Pause deliveries" }).click();
    await card.getByText("Deliveries are paused.").waitFor();
    await card.getByText("Paused", { exact: true }).waitFor();
    expect((await deliveryOf(orderId))?.paused).toBe(true);
    await card.getByRole("button", { name: "Resume deliveries" }).click();
    await card.getByText("Deliveries resumed.").waitFor();
    expect((await deliveryOf(orderId))?.paused).toBe(false);

    // Return one billable transfer.
    await buyer.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Return a Lead" }).click();
    await buyer.getByRole("heading", { name: "Return a Lead" }).waitFor();
    await expect(buyer.getByTestId("returns-remaining")).toHaveText(/You can return \d+ more this period/);
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
    const admin = await newPage({ as: "admin" });
    await admin.goto("/admin?tab=fulfilment");
    const queued = admin.getByRole("listitem").filter({ hasText: `Billableb ${lastName}` });
    await queued.getByRole("button", { name: /^Approve/ }).click();
    await expect(queued).toContainText("Approved", { timeout: 15_000 });
    await expect(queued.getByRole("button", { name: /^Approve/ })).toHaveCount(0);

    // The buyer's order has the transfer back, and the return reads approved.
    await buyer.goto(url("/dashboard?view=lead-tracker"));
    await expect(row("Billableb")).toContainText("Returned", { timeout: 15_000 });
    const after = await progressOf(buyer, orderId);
    expect(after).toEqual({ ...before, delivered: before.delivered - 1 });
    await buyer.goto(url("/dashboard?view=return-lead"));
    await expect(mine).toContainText("Approved", { timeout: 15_000 });
  });

  test("a pause the system set resumes only after the buyer confirms or changes the transfer number", async ({
    newPage,
  }) => {
    test.setTimeout(120_000);
    const lastName = `Unanswered${Date.now().toString(36).replace(/\d/g, "")}`;
    const digits = String(Date.now() % 1_000_000).padStart(6, "0");
    // Three callers in a row go unanswered: the system pauses the order they were routed to.
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) {
      const routed = await ping({ firstName: `Nobody${"abc"[n]}`, lastName, phone: `469${digits}${n}` });
      ids.push(String(routed.transferId));
      await partnerPost(`/transfers/${ids[n]}/events`, { type: "no-answer" });
    }
    const orderId = (await orderOf(ids[0] ?? "")) ?? "";
    expect(await Promise.all(ids.map(orderOf))).toEqual([orderId, orderId, orderId]);
    const delivery = () => deliveryOf(orderId);
    const before = await delivery();
    expect(before).toMatchObject({ paused: true, pauseKind: "no_answer" });

    try {
      const buyer = await newPage({ as: "buyer" });
      await buyer.goto("/dashboard?view=lead-tracker");
      const card = buyer.getByTestId(`tracker-order-${orderId}`);
      await card.getByText("Paused", { exact: true }).waitFor();
      await card.getByRole("button", { name: "Resume deliveries" }).click();
      // Resuming asks for the number first, the current one filled in.
      const field = card.getByLabel("Transfer number");
      await expect(field).toHaveValue(before?.transferPhone ?? "");
      await expect(card).toContainText("Confirm the number transfers ring, or change it, to resume.");
      expect(await seriousViolations(buyer)).toEqual([]);
      await field.fill("555-01");
      await card.getByRole("button", { name: "Confirm and resume" }).click();
      await expect(card.getByRole("alert")).toHaveText("Enter the 10-digit US number transfers should ring");
      expect((await delivery())?.paused).toBe(true);

      await field.fill("(312) 555-0199");
      await card.getByRole("button", { name: "Confirm and resume" }).click();
      await card.getByText("Deliveries resumed.").waitFor();
      await expect(card.getByRole("button", { name: "Pause deliveries" })).toBeVisible();
      expect(await delivery()).toMatchObject({ paused: false, pauseKind: null, transferPhone: "3125550199" });
      const [lift] = await e2eDb()
        .select({ liftedHow: systemPauses.liftedHow })
        .from(systemPauses)
        .where(eq(systemPauses.orderId, orderId))
        .orderBy(desc(systemPauses.pausedAt))
        .limit(1);
      expect(lift?.liftedHow).toBe("number_changed");
      // The next caller rings the new number.
      const next = await ping({ firstName: "Nextcaller", lastName, phone: `469${digits}9` });
      expect(next.phoneNumber).toBe("3125550199");
      await partnerPost(`/transfers/${String(next.transferId)}/events`, { type: "failed" });
    } finally {
      // Later tests expect the seeded number and a running order.
      await e2eDb()
        .update(orderDelivery)
        .set({
          transferPhone: before?.transferPhone ?? "",
          paused: false,
          pauseKind: null,
          pausedReason: null,
          pausedAt: null,
        })
        .where(eq(orderDelivery.orderId, orderId));
    }
  });

  test("the aged-lead checkout applies the balance, and a balance that covers the order skips the card", async ({
    newPage,
  }) => {
    test.setTimeout(180_000);
    const user = await createUser();
    // A credit as an approved aged-lead return leaves it: one cent short of any lead's price, then a large one.
    const credit = (cents: number) => createCredit(e2eDb(), user.id, cents);
    await credit(100);
    // Two leads of a state of its own, listed as long ago: the aged-lead journeys of the other stream buy the
    // newest leads, never these, and this test buys only these (docs/decisions/0076).
    const state = `LT${Date.now().toString(36).toUpperCase()}`;
    await createLeads(e2eDb(), 2, { state, createdAt: new Date(Date.UTC(2020, 0, 1)) });
    const page = await newPage();
    await signIn(page, user.username, user.password, "/dashboard");
    const rows = page.locator("tbody tr");
    const ownLeads = async (count: number) => {
      await hydrated(page);
      await page.getByLabel("Filter by location").fill(state);
      await expect(rows).toHaveCount(count);
      for (const row of await rows.all()) await expect(row).toContainText(state);
    };
    await ownLeads(2);
    const price = (await rows.first().locator("td:last-child").textContent()) ?? "";
    await rows.first().getByRole("checkbox").click();
    await page.getByRole("button", { name: "Purchase Selected Leads" }).click();
    const dialog = page.getByRole("dialog");
    const applied = dialog.getByTestId("balance-applied");
    await applied.waitFor();
    await expect(applied).toContainText("Balance applied−$1.00");
    const card = `$${(Number(price.slice(1)) - 1).toFixed(2)}`;
    await expect(applied).toContainText(`To pay by card${card}`);
    await payWith(page, "4242 4242 4242 4242", card);
    await expect(toast(page, "Successfully purchased 1 leads")).toBeVisible();

    await credit(100_000);
    await page.reload();
    await ownLeads(1);
    await rows.first().getByRole("checkbox").click();
    await page.getByRole("button", { name: "Purchase Selected Leads" }).click();
    const owned = () => e2eDb().$count(agedLeads, eq(agedLeads.soldToUserId, user.id));
    await expect.poll(owned, { timeout: 15_000 }).toBe(2);
    await page.getByText("0 selected").waitFor();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByLabel("Card number")).toHaveCount(0);
  });

  test("the tracker, the returns form and the Fulfilment tab pass axe and fit a 390-px phone", async ({ newPage }) => {
    test.setTimeout(180_000);
    const problems: string[] = [];
    const check = async (page: Page, name: string) => {
      for (const violation of await seriousViolations(page)) problems.push(`${name}: ${violation}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 0) problems.push(`${name}: scrolls sideways by ${overflow}px`);
    };
    const phone = { viewport: { width: 390, height: 844 }, bypassCSP: true };
    const buyer = await newPage({ ...phone, as: "buyer" });
    await buyer.goto("/dashboard?view=lead-tracker");
    // On a phone the transfers are cards (tracker-layout.spec.ts holds the layout).
    await buyer.getByRole("list", { name: "Delivered transfers" }).waitFor();
    await check(buyer, "lead-tracker");
    await buyer.goto(url("/dashboard?view=return-lead"));
    await buyer.getByRole("heading", { name: "Your returns" }).waitFor();
    await check(buyer, "return-lead");
    const admin = await newPage({ ...phone, as: "admin" });
    await admin.goto("/admin?tab=fulfilment");
    await admin.getByRole("heading", { name: "Returns" }).waitFor();
    await check(admin, "fulfilment");
    expect(problems).toEqual([]);
  });
});
