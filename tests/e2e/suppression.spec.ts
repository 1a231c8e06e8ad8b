/**
 * Do Not Call lists (product rule 40) in the browser: an admin uploads a Do Not Call list and follows its progress to the
 * report; bad files get a clear message and change nothing; a stale list is flagged; /do-not-call
 * suppresses a number at once (with and without JavaScript); a buyer uploads a private list; a number
 * suppressed after purchase is flagged in My Leads, and a billed transfer's in the Lead Tracker, where the
 * buyer sees the revocation (docs/decisions/0082).
 */
import type { Page } from "@playwright/test";
import { and, asc, count, eq } from "drizzle-orm";
import { partners, suppressionLists, suppressionNumbers, suppressionRevocations } from "../../worker/db/schema";
import { createLead } from "../worker/factories/leads";
import { createAgedLeadOrder, createOrder } from "../worker/factories/orders";
import { createTransfer } from "../worker/factories/transfers";
import { createUser, e2eDb } from "./database";
import { expect, signIn, test } from "./fixtures";

const file = (name: string, text: string) => ({ name, mimeType: "text/plain", buffer: Buffer.from(text) });

let area = 600;
/**
 * `count` fresh 10-digit numbers, one a line, sorted as the registry's files are: each call takes an area
 * code of its own (6xx), the run's time picking the exchange, so lists of different tests never overlap.
 */
function numbers(count: number): number[] {
  area += 1;
  const base = area * 10_000_000 + (Date.now() % 50) * 100_000;
  return Array.from({ length: count }, (_, i) => base + i * 2);
}

async function openTab(page: Page) {
  await page.goto("/admin?tab=do-not-call");
  await expect(page.getByRole("heading", { name: "Do Not Call lists" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Do Not Call lists" })).toBeVisible();
}

/** How many lists and numbers the shop holds (one look at the database). */
const stored = async () => ({
  lists: await e2eDb().$count(suppressionLists),
  numbers: await e2eDb().$count(suppressionNumbers),
});

async function fillNewList(page: Page, name: string, refreshedOn?: string, kind = "litigator") {
  await page.getByLabel("List", { exact: true }).selectOption("new");
  await page.getByLabel("List name").fill(name);
  await page.getByLabel("Kind").selectOption(kind);
  await page.getByLabel("The file holds").selectOption("full");
  if (refreshedOn) await page.getByLabel("Refreshed on").fill(refreshedOn);
}

test.describe("admin: Do Not Call lists", () => {
  test("uploads a registry file through the Queue with a progress bar, then reports it and lists it", async ({
    adminPage: page,
  }) => {
    test.setTimeout(120_000);
    await openTab(page);
    const sent = numbers(45_000);
    const name = `Registry e2e ${Date.now()}`;
    await fillNewList(page, name);
    await page.getByLabel("File", { exact: true }).setInputFiles(file("305.txt", `${sent.join("\n")}\n`));
    const progress = page.waitForSelector('[role="progressbar"]', { state: "attached" });
    await page.getByRole("button", { name: "Upload list" }).click();
    await progress;
    await expect(page.getByTestId("suppression-progress")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Upload complete: 305.txt" })).toBeVisible({ timeout: 90_000 });
    await expect(page.getByTestId("suppression-new-on-the-list")).toHaveText("45,000");
    await expect(page.getByTestId("suppression-numbers-in-the-file")).toHaveText("45,000");
    const row = page.getByRole("row", { name: new RegExp(name) });
    await expect(row).toContainText("45,000");
    await expect(row).toContainText("Fresh until");
    const held = await e2eDb()
      .select({ n: count() })
      .from(suppressionNumbers)
      .innerJoin(suppressionLists, eq(suppressionLists.id, suppressionNumbers.listId))
      .where(eq(suppressionLists.name, name));
    expect(held[0]?.n).toBe(45_000);
  });

  const badFiles: [what: string, name: string, text: string, message: RegExp][] = [
    ["a lead file (wrong format)", "leads.csv", "Name,Phone,State\nAnn,3055550100,FL\n", /looks like a lead file/],
    ["an empty file", "empty.txt", "", /The file is empty/],
    ["huge lines", "huge.txt", `${"9".repeat(5000)}\n`.repeat(60), /None of the first 50 lines is a phone number/],
    [
      "formulas",
      "formulas.csv",
      '=HYPERLINK("http://evil.example")\n'.repeat(60),
      /None of the first 50 lines is a phone number/,
    ],
    ["a ZIP archive", "registry.zip", "PK\u0003\u0004rest-of-zip", /ZIP archive/],
  ];
  for (const [what, name, text, message] of badFiles) {
    test(`refuses ${what} with a clear message, changing nothing`, async ({ adminPage: page }) => {
      await openTab(page);
      const before = await stored();
      await fillNewList(page, `Bad ${name}`);
      await page.getByLabel("File", { exact: true }).setInputFiles(file(name, text));
      await page.getByRole("button", { name: "Upload list" }).click();
      const alert = page.getByRole("alert").filter({ hasText: "was not loaded" });
      await expect(alert).toBeVisible();
      await expect(alert).toContainText(message);
      await expect(alert).toContainText("Nothing was changed");
      expect(await stored()).toEqual(before);
      await page.getByRole("button", { name: "Choose another file" }).click();
      await expect(page.getByRole("button", { name: "Upload list" })).toBeVisible();
    });
  }

  test("shows the rejected lines of a mostly good file and loads nothing until asked", async ({ adminPage: page }) => {
    await openTab(page);
    const before = await stored();
    const good = numbers(3);
    await fillNewList(page, `Mixed ${Date.now()}`);
    const text = `${good[0]}\n=SUM(A1:A9)\n${good[1]}\n+44 20 7946 0958\n${good[2]}\n`;
    await page.getByLabel("File", { exact: true }).setInputFiles(file("mixed.txt", text));
    await page.getByRole("button", { name: "Upload list" }).click();
    await expect(page.getByRole("heading", { name: "2 lines of mixed.txt cannot be loaded" })).toBeVisible();
    const rejected = page.getByRole("region", { name: "Rejected lines" });
    await expect(rejected).toContainText("spreadsheet formula");
    await expect(rejected).toContainText("Not a US number");
    await page.getByRole("button", { name: "Cancel" }).click();
    expect(await stored()).toEqual(before);
  });

  test("flags a list refreshed more than 31 days ago", async ({ adminPage: page }) => {
    test.setTimeout(90_000);
    await openTab(page);
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 10);
    const name = `Old copy ${Date.now()}`;
    // A litigator list: a stale national copy would stop every sale of the shared state (docs/decisions/0085).
    await fillNewList(page, name, old, "litigator");
    await page.getByLabel("File", { exact: true }).setInputFiles(file("old.txt", `${numbers(2).join("\n")}\n`));
    await page.getByRole("button", { name: "Upload list" }).click();
    await expect(page.getByRole("heading", { name: "Upload complete: old.txt" })).toBeVisible({ timeout: 60_000 });
    const row = page.getByRole("row", { name: new RegExp(name) });
    await expect(row.getByTestId("stale-list")).toContainText(`Refreshed on ${old}: more than 31 days ago`);
    await expect(page.getByRole("alert").filter({ hasText: "older than 31 days" })).toBeVisible();
  });
});

test.describe("/do-not-call", () => {
  test("suppresses the number at once and confirms it; the footer links to it", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("navigation", { name: "Footer" }).getByRole("link", { name: "Do Not Call request" }).click();
    await expect(page).toHaveURL(/\/do-not-call$/);
    await page.getByRole("button", { name: "Stop calling this number" }).click();
    await expect(page.getByText("Enter the 10-digit US phone number that should not be called")).toBeVisible();
    const [number] = numbers(1);
    const digits = String(number);
    await page.getByLabel("Phone number").fill(`(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`);
    await page.getByLabel("Reason (optional)").fill("Please stop");
    await page.getByRole("button", { name: "Stop calling this number" }).click();
    await expect(page.getByTestId("do-not-call-confirmation")).toContainText("is on our Do Not Call list");
    const held = await e2eDb()
      .select({ kind: suppressionLists.kind })
      .from(suppressionNumbers)
      .innerJoin(suppressionLists, eq(suppressionLists.id, suppressionNumbers.listId))
      .where(eq(suppressionNumbers.number, number ?? 0));
    expect(held).toEqual([{ kind: "internal_dnc" }]);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the page posts the form itself and renders the answer", async ({ page }) => {
      await page.goto("/do-not-call");
      await page.getByLabel("Phone number").fill("123");
      await page.getByRole("button", { name: "Stop calling this number" }).click();
      await expect(page.getByText("Enter the 10-digit US phone number that should not be called")).toBeVisible();
      const [number] = numbers(1);
      await page.getByLabel("Phone number").fill(String(number));
      await page.getByRole("button", { name: "Stop calling this number" }).click();
      await expect(page.getByTestId("do-not-call-confirmation")).toContainText("is on our Do Not Call list");
      expect(await e2eDb().$count(suppressionNumbers, eq(suppressionNumbers.number, number ?? 0))).toBe(1);
    });
  });
});

test.describe("buyer: My Do Not Call list and flags after purchase", () => {
  test("uploads a private list; a lead suppressed after purchase is flagged in My Leads; My Orders tells leads not charged", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const db = e2eDb();
    const user = await createUser();
    const [bought] = numbers(1);
    await createLead(db, {
      id: `${user.username}-1`,
      name: "Flagged Lead",
      email: "f@example.com",
      phone: String(bought),
      state: "QM",
      formFillTime: new Date(1700000000000),
      dedupeKey: `${user.username}|1`,
      soldToUserId: user.id,
      soldOrderId: "e2e",
      soldAt: new Date(Date.now() - 86_400_000),
    });
    await page.goto("/login?next=%2Fdashboard%3Fview%3Ddo-not-call-list");
    await page.getByLabel("Username").fill(user.username);
    await page.getByLabel("Password", { exact: true }).fill(user.password);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByRole("heading", { name: "My Do Not Call list" })).toBeVisible();
    await expect(page.getByText("You have no list yet")).toBeVisible();
    await page.getByLabel("List name").fill("My customers");
    await page.getByLabel("File", { exact: true }).setInputFiles(file("customers.csv", `${numbers(5).join("\n")}\n`));
    await page.getByRole("button", { name: "Upload list" }).click();
    await expect(page.getByRole("heading", { name: "Upload complete: customers.csv" })).toBeVisible({
      timeout: 60_000,
    });
    await expect(page.getByTestId("my-dnc-summary")).toContainText("My customers");
    await expect(page.getByTestId("my-dnc-summary")).toContainText("5");

    const request = await page.request.post("/api/do-not-call", { data: { phone: String(bought) } });
    expect(request.status()).toBe(200);
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "My Leads" }).click();
    const flag = page.getByRole("row", { name: /Flagged Lead/ }).getByTestId("dnc-flag");
    await expect(flag).toHaveText(`Added to Do Not Call on ${new Date().toISOString().slice(0, 10)}`);

    // A paid order that left out two leads of the private list says so in My Orders (never before payment).
    await createAgedLeadOrder(db, {
      id: `${user.username}-order`,
      userId: user.id,
      details: { notChargedLeadIds: ["a", "b"], notChargedCents: 1000 },
      paymentIntentId: `pi_e2e_${user.username}`,
    });
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "My Orders" }).click();
    await expect(page.getByTestId("order-not-charged")).toHaveText(
      "2 leads were on your Do Not Call list and were not charged.",
    );
  });

  test("a buyer sees a revocation flag: a billed transfer whose number reached Do Not Call, in the Lead Tracker", async ({
    page,
  }) => {
    const db = e2eDb();
    const user = await createUser();
    const [partner] = await db.select({ id: partners.id }).from(partners).orderBy(asc(partners.createdAt)).limit(1);
    const orderId = `${user.username}-transfers`;
    const transferId = `${user.username}-call`;
    const [number] = numbers(1);
    const routedAt = Date.now() - 86_400_000;
    await createOrder(db, {
      id: orderId,
      userId: user.id,
      quantity: 5,
      unitPriceCents: 5000,
      details: {},
      paymentIntentId: `pi_e2e_${orderId}`,
      paidAt: new Date(routedAt),
    });
    // Completed, billable, five minutes, from Texas (the factory's call), on the number the test lists.
    await createTransfer(db, {
      id: transferId,
      partnerId: partner?.id ?? "",
      orderId,
      buyerUserId: user.id,
      firstName: "Revoked",
      lastName: "Caller",
      phone: String(number),
      routedAt: new Date(routedAt),
    });

    const request = await page.request.post("/api/do-not-call", { data: { phone: String(number) } });
    expect(request.status()).toBe(200);
    // Written with the listing: the buyer's webhook and digest are told from this row.
    expect(
      await db
        .select({ itemType: suppressionRevocations.itemType })
        .from(suppressionRevocations)
        .where(and(eq(suppressionRevocations.itemId, transferId), eq(suppressionRevocations.userId, user.id))),
    ).toEqual([{ itemType: "transfer" }]);

    await signIn(page, user.username, user.password, "/dashboard/lead-tracker");
    await expect(page.getByRole("heading", { name: "Lead Tracker" })).toBeVisible();
    const row = page
      .getByRole("region", { name: "Delivered transfers" })
      .locator("tr")
      .filter({ hasText: "Revoked Caller" });
    await expect(row.getByTestId("dnc-flag")).toHaveText(
      `Added to Do Not Call on ${new Date().toISOString().slice(0, 10)}`,
    );
  });
});
