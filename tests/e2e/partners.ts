/** Partner-application steps shared by the browser tests. */
import type { Page } from "@playwright/test";

export async function fillApplication(page: Page, businessName: string, contactEmail = "pam@example.com") {
  const values: [string, string][] = [
    ["Business name", businessName],
    ["Business address", "12 Partner Way"],
    ["City", "Tulsa"],
    ["State", "OK"],
    ["ZIP code", "74101"],
    ["EIN", "987654321"],
    ["Main contact", "Pam Partner"],
    ["Contact phone", "5556667777"],
    ["Contact email", contactEmail],
    ["Number of agents", "25"],
    ["Office hours", "8-6"],
    ["Pay per transfer", "$18"],
    ["DID number", "5558889999"],
    ["Daily call cap", "60"],
    ["Reference 1 company", "Ref One"],
  ];
  for (const [label, value] of values) await page.getByLabel(label, { exact: true }).fill(value);
}
