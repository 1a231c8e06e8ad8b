/**
 * Consent evidence (product rule 39) in the admin area: the single-lead form's consent fields (checked by the lead
 * schema), and a CSV upload that sells only leads with a certificate, whose report counts both kinds.
 */
import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { CERTIFICATE_STATUS_LABELS } from "../../src/features/consent/consent";
import { CONSENT_MESSAGES } from "../../src/features/consent/schemas/consent";
import { agedLeads } from "../../worker/db/schema";
import { e2eDb } from "./database";
import { expect, test } from "./fixtures";
import { toast } from "./pay";

let seq = 0;
const phone = () => `5${String(Date.now()).slice(-6)}${String(++seq).padStart(3, "0")}`;
const CERT_URL = `https://cert.trustedform.com/${"7e6d5c4b3a".repeat(4)}`;
const csvFile = (name: string, text: string) => ({ name, mimeType: "text/csv", buffer: Buffer.from(text) });

async function agedLeadsTab(page: Page) {
  await page.goto("/admin?tab=aged-leads");
  await expect(page.getByRole("heading", { name: "Admin Panel" })).toBeVisible();
  // The single-lead form's code loads as it nears the screen (a lazy view): scroll to it as a user would.
  await page.getByRole("button", { name: "Upload Lead" }).scrollIntoViewIfNeeded();
}

test.describe("consent evidence in the admin area", () => {
  test("the single-lead form takes the consent fields, with the lead schema's messages", async ({
    adminPage: page,
  }) => {
    await agedLeadsTab(page);
    const tel = phone();
    await page.getByLabel("Name", { exact: true }).fill("Consent Single");
    await page.getByLabel("Phone", { exact: true }).fill(tel);
    await page.getByLabel("State", { exact: true }).fill("KS");
    await page.getByLabel("TrustedForm certificate URL (optional)").fill("https://cert.trustedform.com/short");
    await page.getByLabel("Jornaya LeadiD (optional)").fill("not-a-token");
    await page.getByRole("button", { name: "Upload Lead" }).click();
    await expect(page.getByText(CONSENT_MESSAGES.trustedFormUrl)).toBeVisible();
    await expect(page.getByText(CONSENT_MESSAGES.jornayaLeadId)).toBeVisible();

    await page.getByLabel("TrustedForm certificate URL (optional)").fill(CERT_URL);
    await page.getByLabel("Jornaya LeadiD (optional)").fill("");
    await page.getByLabel("Opt-in page URL (optional)").fill("https://quotes.example.com/ks");
    await page.getByLabel("IP address (optional)").fill("203.0.113.50");
    await page.getByLabel("Opt-in time (optional)").fill("2026-03-04T09:55");
    await page.getByRole("button", { name: "Upload Lead" }).click();
    await expect(toast(page, "Aged lead uploaded successfully")).toBeVisible();
    await expect(
      page.getByRole("row").filter({ hasText: tel }).getByRole("cell", { name: CERTIFICATE_STATUS_LABELS.unverified }),
    ).toBeVisible();
    const [row] = await e2eDb()
      .select({
        trustedFormUrl: agedLeads.trustedFormUrl,
        ipAddress: agedLeads.ipAddress,
        optInUrl: agedLeads.optInUrl,
        certified: agedLeads.certified,
      })
      .from(agedLeads)
      .where(eq(agedLeads.phone, tel));
    expect(row).toEqual({
      trustedFormUrl: CERT_URL,
      ipAddress: "203.0.113.50",
      optInUrl: "https://quotes.example.com/ks",
      certified: true,
    });
  });

  test("an upload that sells only certified leads reports both kinds and keeps the rest off sale", async ({
    adminPage: page,
  }) => {
    await agedLeadsTab(page);
    const [certified, bare] = [phone(), phone()];
    await page.getByLabel(/Sell only leads with a consent certificate/).check();
    await page
      .locator("#bulk-csv")
      .setInputFiles(
        csvFile(
          "consent.csv",
          [
            "Name,Phone,State,Form fill time,Email,TrustedForm certificate URL,Opt-in page URL",
            `Cert Lead,${certified},KS,2026-08-01 10:00:00,,${CERT_URL},https://quotes.example.com/ks`,
            `Bare Lead,${bare},KS,2026-08-01 10:00:00,,,`,
          ].join("\n"),
        ),
      );
    await expect(page.getByText("Upload Complete!")).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId("report-with-certificate")).toHaveText("1");
    await expect(page.getByTestId("report-without-certificate")).toHaveText("1");
    await expect(page.getByTestId("report-withheld")).toContainText("the 1 without one are stored but not for sale");
    await expect(
      page
        .getByRole("row")
        .filter({ hasText: bare })
        .getByRole("cell", { name: /not for sale/i }),
    ).toBeVisible();
  });
});
