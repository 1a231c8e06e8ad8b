/**
 * Buy Call Backs and Buy Appointments (docs/decisions/0061): the seed's unassigned ones are listed masked;
 * a buyer pays for an appointment with the simulated card and downloads its calendar invite (.ics) from the
 * confirmation; it is then in My Call-Backs. axe finds no serious problem on either view at 1280 and 390 px.
 */
import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { createCallback } from "../worker/factories/callbacks";
import { createUser, e2eDb } from "./database";
import { axeOf, expect, hydrated, signIn, test } from "./fixtures";
import { payWith } from "./pay";

test.use({ bypassCSP: true });

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];
const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
];

/** Serious and critical axe violations, and sideways scrolling, as readable lines. */
async function problems(page: Page, where: string): Promise<string[]> {
  await page.waitForLoadState("networkidle");
  const results = await axeOf(page).withTags(AXE_TAGS).analyze();
  const found = results.violations
    .filter((violation) => violation.impact === "critical" || violation.impact === "serious")
    .map(
      (violation) => `${where}: ${violation.id} ${violation.nodes.map((node) => node.target.join(" ")).join(" | ")}`,
    );
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 0) found.push(`${where}: the page scrolls sideways by ${overflow}px`);
  return found;
}

/** An unassigned appointment of the test's own, tomorrow (the seed's stock stays for the demo). */
async function stockAppointment(lastName: string): Promise<{ phone: string; start: number }> {
  const phone = `701555${String(Date.now() % 10_000).padStart(4, "0")}`;
  const start = Date.now() + 26 * 3_600_000;
  await createCallback(e2eDb(), {
    kind: "appointment",
    name: `Eliza ${lastName}`,
    email: "eliza@example.com",
    phone,
    state: "ND",
    windowStart: new Date(start),
    windowEnd: new Date(start + 30 * 60_000),
    priceCents: 1500,
    optInAt: null,
    optInUrl: null,
  });
  return { phone, start };
}

test.describe("Buy Call Backs and Buy Appointments", () => {
  test("lists the seed's stock masked, in both time zones, and axe finds no serious problem at 1280 and 390 px", async ({
    newPage,
  }) => {
    test.setTimeout(90_000);
    const found: string[] = [];
    for (const viewport of VIEWPORTS) {
      const page = await newPage({ as: "buyer", viewport });
      for (const [view, title, noun] of [
        ["appointments", "Buy Appointments", "appointments"],
        ["call-backs", "Buy Call Backs", "call-backs"],
      ] as const) {
        await page.goto(`/dashboard?view=${view}`);
        await hydrated(page);
        await expect(page.getByRole("heading", { name: title, level: 2 })).toBeVisible();
        const list = page.getByRole("list", { name: `Available ${noun}` });
        await expect(list.getByRole("listitem").first()).toBeVisible();
        // Masked: an area code and stars, the first name and the last initial.
        await expect(list.getByText(/^\(\d{3}\) \*\*\*-\*\*\*\*$/).first()).toBeVisible();
        await expect(list.getByRole("heading", { level: 3 }).first()).toHaveText(/^\S+ [A-Z]\.$/);
        await expect(list.getByText("Your time").first()).toBeVisible();
        await expect(list.getByText("Their time").first()).toBeVisible();
        found.push(...(await problems(page, `${title} at ${viewport.width} px`)));
      }
    }
    expect(found).toEqual([]);
  });

  test("buys an appointment by card and downloads its calendar invite", async ({ page }) => {
    test.setTimeout(90_000);
    const user = await createUser();
    const lastName = `Zq${Date.now().toString(36)}`;
    const { phone, start } = await stockAppointment(lastName);
    await signIn(page, user.username, user.password, "/dashboard/appointments");
    await hydrated(page);
    const masked = `Eliza ${lastName[0]}.`;
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: masked }) });
    await expect(card).toContainText("(701) ***-****");
    await card.getByRole("button", { name: new RegExp(`^Buy appointment ${masked}`) }).click();
    const pay = page.getByRole("dialog", { name: "Pay for your appointment" });
    await expect(pay).toBeVisible();
    await payWith(page, "4242424242424242", "$15.00");

    const done = page.getByRole("dialog", { name: "Purchase complete" });
    await expect(done).toBeVisible();
    const downloading = page.waitForEvent("download");
    await done.getByRole("link", { name: "Download calendar invite (.ics)" }).click();
    const download = await downloading;
    const text = readFileSync((await download.path()) ?? "", "utf8").replace(/\r\n /g, "");
    const stamp = new Date(start)
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}/, "");
    expect(text).toContain("BEGIN:VEVENT");
    expect(text).toContain(`DTSTART:${stamp}`);
    expect(text).toContain(phone);

    // Sold: gone from the list, in My Call-Backs with its full contact and the invite's link.
    await page.goto("/dashboard?view=my-call-backs");
    const mine = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: `Eliza ${lastName}` }) });
    await expect(mine).toContainText(phone);
    await expect(mine.getByRole("link", { name: "Download calendar invite (.ics)" })).toBeVisible();
    await page.goto("/dashboard?view=appointments");
    await expect(page.getByRole("heading", { name: masked })).toHaveCount(0);
  });
});
