/**
 * docs/decisions/0055 in the browser: a number asked for on /do-not-call shows in the admin's Do Not Call
 * Requests tab; the admin searches it and removes it with a reason, which is logged and shown; axe finds no
 * serious problem on the tab, its search result and its removal form, at 1280 and 390 px.
 */
import type { Page } from "@playwright/test";
import { and, count, eq } from "drizzle-orm";
import { doNotCallRemovals, suppressionLists, suppressionNumbers } from "../../worker/db/schema";
import { e2eDb } from "./database";
import { axeOf, expect, hydrated, test } from "./fixtures";

test.use({ bypassCSP: true });

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];
const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
] as const;

let counter = 0;
/** A fresh 10-digit number (area code 78x: no other spec uses it). */
const freshNumber = () => `78${String((Date.now() % 10_000_000) * 10 + (++counter % 10)).padStart(8, "0")}`;
const formatted = (digits: string) => `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;

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

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("an admin sees a request, searches its number and removes it with a reason", async ({ page, adminPage }) => {
      test.setTimeout(120_000);
      const found: string[] = [];
      const phone = freshNumber();
      await page.goto("/do-not-call");
      // A number typed before the island hydrates is lost when it does (and the form is sent empty).
      await hydrated(page);
      await page.getByLabel("Phone number").fill(formatted(phone));
      await page.getByRole("button", { name: "Stop calling this number" }).click();
      await expect(page.getByTestId("do-not-call-confirmation")).toContainText("is on our Do Not Call list");

      await adminPage.setViewportSize(viewport);
      await adminPage.goto("/admin/dnc-requests");
      await hydrated(adminPage);
      const table = adminPage.getByRole("region", { name: "Do Not Call requests", exact: true });
      // Newest first: the request just made heads the list.
      await expect(table.getByRole("row").nth(1)).toContainText(formatted(phone));
      found.push(...(await problems(adminPage, "list")));

      await adminPage.getByLabel("Phone number").fill(phone);
      await adminPage.getByRole("button", { name: "Search" }).click();
      await expect(adminPage.getByText("1 request", { exact: true })).toBeVisible();
      await expect(table.getByRole("row")).toHaveCount(2);
      await expect(table).toContainText("On the list");

      await table.getByRole("button", { name: `Remove ${formatted(phone)}` }).click();
      const form = adminPage.getByRole("form", { name: `Remove ${formatted(phone)} from the Do Not Call list` });
      await expect(form).toBeVisible();
      await form.getByRole("button", { name: "Remove number" }).click();
      await expect(form.getByRole("alert")).toContainText("Say why the number comes off the list");
      found.push(...(await problems(adminPage, "removal form")));

      await form.getByLabel("Reason for removal").fill("Asked by someone who does not own the number");
      await form.getByRole("button", { name: "Remove number" }).click();
      await expect(
        adminPage.getByRole("status").filter({ hasText: "is off our Do Not Call request list" }).first(),
      ).toBeVisible();
      await expect(table).toContainText("Asked by someone who does not own the number");
      await expect(table.getByRole("button", { name: `Remove ${formatted(phone)}` })).toHaveCount(0);
      found.push(...(await problems(adminPage, "after removal")));

      const db = e2eDb();
      const listed = await db
        .select({ n: count() })
        .from(suppressionNumbers)
        .innerJoin(suppressionLists, eq(suppressionLists.id, suppressionNumbers.listId))
        .where(and(eq(suppressionLists.kind, "internal_dnc"), eq(suppressionNumbers.number, Number(phone))));
      expect(listed).toEqual([{ n: 0 }]);
      const logged = await db
        .select({ reason: doNotCallRemovals.reason })
        .from(doNotCallRemovals)
        .where(eq(doNotCallRemovals.number, Number(phone)));
      expect(logged).toEqual([{ reason: "Asked by someone who does not own the number" }]);
      expect(found).toEqual([]);
    });
  });
}
