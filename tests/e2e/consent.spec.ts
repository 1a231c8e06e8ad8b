/**
 * Consent evidence journeys (product rule 39): the buyer sees a purchased lead's consent in My Leads and opens its consent
 * record; a delivered transfer's record keeps the certificate masked until the call connects; the
 * marketplace filters for leads with a certificate. axe stays clean with the record open.
 */
import type { Page } from "@playwright/test";
import { DEMO_PARTNER_KEY } from "../../scripts/demo-transfers.ts";
import { CERTIFICATE_FILTER_LABEL, CERTIFICATE_STATUS_LABELS } from "../../src/features/consent/consent";
import { NOT_CONFIGURED_MESSAGES } from "../../worker/features/consent/consent-certificates";
import { createLead } from "../worker/factories/leads";
import { createUser, e2eDb } from "./database";
import { axeOf, expect, signIn, test, url } from "./fixtures";

const CERT_URL = `https://cert.trustedform.com/${"5c4b3a2f1e".repeat(4)}`;
// Not the template's sample token: that is a placeholder, refused and never a certificate (docs/decisions/0054).
const LEAD_ID = "9C2B7E14-3A5D-4F60-8B1C-2D3E4F5A6B7C";
const OPT_IN_AT = Date.UTC(2026, 2, 4, 14, 55);

const seriousViolations = async (page: Page) => {
  const results = await axeOf(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
};

/** A lead sold to `userId`, with full consent evidence unless `bare`. */
async function soldLead(userId: string, name: string, bare = false) {
  const id = crypto.randomUUID();
  const phone = `909${String(Date.now() % 10_000_000).padStart(7, "0")}`;
  const evidence = bare
    ? {}
    : {
        optInAt: new Date(OPT_IN_AT),
        optInUrl: "https://quotes.example.com/final-expense",
        consentText: "tcpa-consent-v3: I agree to be called.",
        ipAddress: "203.0.113.7",
        trustedFormUrl: CERT_URL,
        jornayaLeadId: LEAD_ID,
        certified: true,
      };
  await createLead(e2eDb(), {
    id,
    name,
    email: "owner@example.com",
    phone,
    state: "TX",
    formFillTime: null,
    dedupeKey: id,
    soldToUserId: userId,
    soldOrderId: "e2e-consent-order",
    soldAt: new Date(),
    ...evidence,
  });
  return { id, phone };
}

test.describe("the buyer's consent view", () => {
  test.use({ bypassCSP: true });

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test(`My Leads shows each lead's consent and opens its record (${viewport.width} px), axe clean`, async ({
      newPage,
    }) => {
      const user = await createUser();
      await soldLead(user.id, "Carla Consent");
      await soldLead(user.id, "Brad Bare", true);
      const page = await newPage({ viewport });
      await signIn(page, user.username, user.password, "/dashboard/my-leads");

      const row = page.getByRole("row").filter({ hasText: "Carla Consent" });
      await expect(row.getByText("Opted in Mar 4, 2026, 2:55:00 PM UTC")).toBeVisible();
      await expect(row.getByRole("link", { name: "Opt-in page of Carla Consent" })).toHaveAttribute(
        "href",
        "https://quotes.example.com/final-expense",
      );
      await expect(row.getByRole("link", { name: "TrustedForm certificate of Carla Consent" })).toHaveAttribute(
        "href",
        CERT_URL,
      );
      await expect(
        page.getByRole("row").filter({ hasText: "Brad Bare" }).getByText("No consent evidence"),
      ).toBeVisible();
      // The consent column scrolls inside the table's box: the page itself never scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
        0,
      );

      await row.getByRole("button", { name: "Consent record of Carla Consent" }).click();
      const dialog = page.getByRole("dialog", { name: "Consent record: Carla Consent" });
      const record = dialog.getByTestId("consent-record");
      await expect(record).toBeVisible();
      await expect(record.getByText("tcpa-consent-v3: I agree to be called.")).toBeVisible();
      await expect(record.getByText("203.0.113.7")).toBeVisible();
      await expect(record.getByRole("link", { name: CERT_URL })).toHaveAttribute("href", CERT_URL);
      await expect(record.getByText(LEAD_ID)).toBeVisible();
      await expect(record.getByText(NOT_CONFIGURED_MESSAGES.trustedform)).toBeVisible();
      // No claim provider in this build: on file, not verified (docs/decisions/0054).
      await expect(record.getByText(CERTIFICATE_STATUS_LABELS.unverified)).toBeVisible();
      await expect(record.getByTestId("no-suppression-check")).toHaveText("No suppression check recorded.");
      expect(await seriousViolations(page)).toEqual([]);
      // The record's box fits the phone: nothing wider than the viewport.
      const box = await dialog.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= viewport.width).toBe(true);

      await dialog.getByRole("button", { name: "Close" }).click();
      await expect(dialog).toBeHidden();
      await expect(row.getByRole("button", { name: "Consent record of Carla Consent" })).toBeFocused();
    });
  }

  test("a transfer's record keeps the certificate masked until the call connects", async ({ newPage }) => {
    const lastName = `Consent${Date.now().toString(36).replace(/\d/g, "")}`;
    const call = async (path: string, body: unknown) => {
      const response = await fetch(url(`/api/v1${path}`), {
        method: "POST",
        headers: { Authorization: `Bearer ${DEMO_PARTNER_KEY}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status, await response.clone().text()).toBeLessThan(300);
      return (await response.json()) as { transferId: string };
    };
    const { transferId } = await call("/transfers", {
      prospect: {
        firstName: "Tess",
        lastName,
        phone: `214${String(Date.now() % 10_000_000).padStart(7, "0")}`,
        state: "TX",
      },
      consent: {
        optInAt: new Date(OPT_IN_AT).toISOString(),
        optInUrl: "https://quotes.example.com/final-expense",
        trustedFormUrl: CERT_URL,
        ipAddress: "203.0.113.9",
      },
    });
    const page = await newPage({ as: "buyer" });
    await page.goto("/dashboard?view=lead-tracker");
    const row = page
      .getByRole("row")
      .filter({ hasText: "Tess" })
      .filter({ hasText: `${lastName[0]}.` });
    await expect(row.getByText(CERTIFICATE_STATUS_LABELS.unverified)).toBeVisible();
    await row.getByRole("button", { name: /^Consent record of Tess/ }).click();
    const record = page.getByTestId("consent-record");
    await expect(record.getByText("Shown once the call connects").first()).toBeVisible();
    await expect(record.getByText("203.0.113.9")).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");

    // Connected and completed within the buffer (not billable), so the demo order keeps its slot.
    await call(`/transfers/${transferId}/events`, { type: "connected" });
    await call(`/transfers/${transferId}/events`, { type: "completed", durationSeconds: 30 });
    await page.reload();
    const connected = page.getByRole("row").filter({ hasText: `Tess ${lastName}` });
    await expect(connected.getByRole("link", { name: `TrustedForm certificate of Tess ${lastName}` })).toHaveAttribute(
      "href",
      CERT_URL,
    );
    await connected.getByRole("button", { name: `Consent record of Tess ${lastName}` }).click();
    await expect(page.getByTestId("consent-record").getByText("203.0.113.9")).toBeVisible();
  });

  test("the marketplace lists only leads with a certificate on file when asked, saying it is not verified", async ({
    buyerPage: page,
  }) => {
    await page.goto("/dashboard?view=aged-leads");
    const certificates = page.getByRole("region", { name: "Available aged leads" }).locator("tbody tr td:nth-child(8)");
    await expect(certificates.first()).toBeVisible();
    const { unverified, none } = CERTIFICATE_STATUS_LABELS;
    expect(new Set(await certificates.allTextContents())).toEqual(new Set([unverified, none]));
    await page.getByLabel(CERTIFICATE_FILTER_LABEL).check();
    await expect(page.getByText("cert.trustedform.com")).toHaveCount(0);
    await expect.poll(async () => new Set(await certificates.allTextContents())).toEqual(new Set([unverified]));
  });
});
