/**
 * docs/decisions/0083-loading-the-whole-registry.md in the browser: an admin loads a small National Registry
 * (full lists and a change list, laid out as the FTC's files) from the Do Not Call tab, follows each area
 * code's progress to "applied", and the tab passes axe; an upload interrupted before all its files were
 * sent is resumed from the tab.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { suppressionLists } from "../../worker/db/schema";
import { e2eDb } from "./database";
import { axeOf, expect, test } from "./fixtures";

test.use({ bypassCSP: true });

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

/** A day `daysAgo` days before today (YYYY-MM-DD): the copies stay fresh whenever the suite runs. */
const dayBefore = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
const DOWNLOADED = dayBefore(2);
const RESUMED_DOWNLOAD = dayBefore(1);

/** A registry folder: full lists of area codes 671 and 672 (40,000 and 3 numbers) and 671's change list. */
function registryFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "registry-e2e-"));
  mkdirSync(join(dir, "full"));
  mkdirSync(join(dir, "changes"));
  let full = "";
  for (let i = 0; i < 40_000; i++) full += `671,${2_000_000 + i}\n`;
  writeFileSync(join(dir, "full", "671.txt"), full);
  writeFileSync(join(dir, "full", "672.txt"), "672,5550100\n672,5550101\n672,5550102\n");
  writeFileSync(join(dir, "changes", "671.txt"), `671,2000000,${DOWNLOADED},D\n671,9990000,${DOWNLOADED},A\n`);
  return dir;
}

test.describe("admin: loading a whole registry", () => {
  test("uploads a small national registry in the Do Not Call tab, sees each area code's progress, then applied", async ({
    adminPage: page,
  }) => {
    test.setTimeout(120_000);
    const dir = registryFolder();
    try {
      await page.goto("/admin?tab=do-not-call");
      await page.getByRole("button", { name: "Load a registry" }).click();
      await page.getByLabel("Download date").fill(DOWNLOADED);
      await page.getByLabel("Subscription Account Number (SAN)").fill("E2E-SAN-1");
      await page.getByLabel("Registry folder").setInputFiles(dir);
      await expect(page.getByText("3 files chosen.")).toBeVisible();
      await page.getByRole("button", { name: /Upload the registry|Resume the upload/ }).click();

      const status = page.getByTestId("registry-upload-status");
      await expect(status).toContainText("applied (3 of 3 files applied)", { timeout: 90_000 });
      const rows = page.getByRole("region", { name: "Registry files" });
      await expect(rows.getByTestId("registry-file-671-full")).toContainText("applied");
      await expect(rows.getByTestId("registry-file-671-changes")).toContainText("40,000");
      await expect(rows.getByTestId("registry-file-672-full")).toContainText("3");
      const [national] = await e2eDb().select().from(suppressionLists).where(eq(suppressionLists.kind, "national_dnc"));
      expect(national?.refreshedOn).toBe(DOWNLOADED);

      const results = await axeOf(page).withTags(AXE_TAGS).analyze();
      expect(results.violations).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("resumes an upload interrupted before all its files were sent: only the missing ones are sent", async ({
    adminPage: page,
  }) => {
    test.setTimeout(120_000);
    const dir = mkdtempSync(join(tmpdir(), "registry-e2e-"));
    mkdirSync(join(dir, "full"));
    const first = "673,5550100\n673,5550101\n";
    writeFileSync(join(dir, "full", "673.txt"), first);
    writeFileSync(join(dir, "full", "674.txt"), "674,5550100\n");
    try {
      // The tab was closed after 673's file went: the server has it, not 674's.
      const started = await page.request.post("/api/admin/registry-uploads", {
        data: {
          scope: "national",
          downloadDate: RESUMED_DOWNLOAD,
          san: "E2E-SAN-2",
          files: [
            { areaCode: 673, kind: "full", size: first.length },
            { areaCode: 674, kind: "full", size: 12 },
          ],
        },
      });
      expect(started.status()).toBe(201);
      const upload = (await started.json()) as { id: number; files: { id: number; areaCode: number }[] };
      const file673 = upload.files.find((file) => file.areaCode === 673);
      const sent = await page.request.put(`/api/admin/registry-uploads/${upload.id}/files/${file673?.id}/parts/1`, {
        multipart: { part: { name: "673.txt", mimeType: "application/octet-stream", buffer: Buffer.from(first) } },
      });
      expect(sent.status()).toBe(200);

      await page.goto("/admin?tab=do-not-call");
      await page.getByRole("button", { name: "Load a registry" }).click();
      await expect(
        page.getByText(`Upload ${upload.id} (national, downloaded ${RESUMED_DOWNLOAD}) stopped`),
      ).toBeVisible();
      await page.getByLabel("Subscription Account Number (SAN)").fill("E2E-SAN-2");
      await page.getByLabel("Registry folder").setInputFiles(dir);
      const partsSent: string[] = [];
      page.on("request", (request) => {
        if (request.method() === "PUT" && /\/parts\/\d+$/.test(request.url())) partsSent.push(request.url());
      });
      await page.getByRole("button", { name: "Resume the upload" }).click();
      await expect(page.getByTestId("registry-upload-status")).toContainText(
        `Upload ${upload.id}: applied (2 of 2 files applied)`,
        { timeout: 90_000 },
      );
      // Only 674's file went: 673's was in already.
      const file674 = upload.files.find((file) => file.areaCode === 674);
      expect(partsSent.map((url) => new URL(url).pathname)).toEqual([
        `/api/admin/registry-uploads/${upload.id}/files/${file674?.id}/parts/1`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
