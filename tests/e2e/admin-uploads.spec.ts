import type { Page } from "@playwright/test";
import { expect, hydrated, test } from "./fixtures";
import { toast } from "./pay";

let seq = 0;
// Always 10 digits, a US number (a lead must be one): a file of 1,500 rows needs 4 digits of sequence.
const phone = () => `4${String(Date.now()).slice(-5)}${String(++seq % 10_000).padStart(4, "0")}`;

/** Opens an admin tab as the signed-in demo admin. */
async function openAdminTab(page: Page, tab: string): Promise<Page> {
  await page.goto(`/admin?tab=${tab}`);
  await expect(page.getByRole("heading", { name: "Admin Panel" })).toBeVisible();
  await hydrated(page);
  // The file picker waits for the tab's own code (a file chosen before it runs would be dropped).
  if (tab === "aged-leads") await expect(page.locator("#bulk-csv")).toBeEnabled();
  return page;
}

const csvFile = (name: string, text: string) => ({ name, mimeType: "text/csv", buffer: Buffer.from(text) });

test.describe("aged-leads tab", () => {
  test("adds a single lead with the spec's messages and a live price hint (product rule 5)", async ({ adminPage }) => {
    const page = await openAdminTab(adminPage, "aged-leads");
    // The form's code loads as it nears the screen (a lazy view): scroll to it as a user would.
    await page.getByRole("button", { name: "Upload Lead" }).scrollIntoViewIfNeeded();
    await page.getByRole("button", { name: "Upload Lead" }).click();
    await expect(page.getByText("Name is required")).toBeVisible();
    await expect(page.getByText("Phone number required")).toBeVisible();
    await expect(page.getByText("State is required")).toBeVisible();
    await page.getByLabel("Email (optional)").fill("not-an-email");
    await page.getByRole("button", { name: "Upload Lead" }).click();
    await expect(page.getByText("Valid email required")).toBeVisible();

    const tel = phone();
    await page.getByLabel("Name", { exact: true }).fill("Single Lead");
    await page.getByLabel("Email (optional)").fill("");
    await page.getByLabel("Phone", { exact: true }).fill(tel);
    await page.getByLabel("State", { exact: true }).fill("KS");
    const seventyDaysAgo = new Date(Date.now() - 70 * 86_400_000 - 3_600_000);
    const local = new Date(seventyDaysAgo.getTime() - seventyDaysAgo.getTimezoneOffset() * 60_000)
      .toISOString()
      .slice(0, 16);
    await page.getByLabel("Form fill time (optional)").fill(local);
    await expect(page.getByTestId("price-hint")).toContainText("Band 60-90");
    await expect(page.getByTestId("price-hint")).toContainText("$4.00");
    await page.getByRole("button", { name: "Upload Lead" }).click();
    await expect(toast(page, "Aged lead uploaded successfully")).toBeVisible();
    await expect(page.getByRole("cell", { name: tel })).toBeVisible();
  });

  test("bulk-uploads an auto-mapped CSV in the background and reports every row", async ({ adminPage }) => {
    const page = await openAdminTab(adminPage, "aged-leads");
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download template" }).click();
    expect((await download).suggestedFilename()).toBe("aged_leads_template_auto_pricing.csv");

    const rows = [
      "Name,Phone,State,Form fill time,Email",
      `Bulk One,${phone()},TX,2026-08-01 10:00:00,one@example.com`,
      `Bulk Two,${phone()},FL,,`,
      `,${phone()},FL,,`,
      "",
      `Bulk Four,${phone()},GA,not a date,`,
    ];
    await page.locator("#bulk-csv").setInputFiles(csvFile("bulk.csv", rows.join("\n")));
    await expect(page.getByText("Upload Complete!")).toBeVisible({ timeout: 20_000 });
    await expect(toast(page, "Successfully uploaded 2 aged leads")).toBeVisible();
    await expect(page.getByTestId("report-rows-received")).toHaveText("4");
    await expect(page.getByTestId("report-inserted")).toHaveText("2");
    await expect(page.getByTestId("report-rejected")).toHaveText("2");
    await expect(page.getByText("Row 4: Name is required")).toBeVisible();
    await expect(page.getByRole("link", { name: "Download report (CSV)" })).toHaveAttribute(
      "href",
      /^\/api\/imports\/.+\/report\.csv$/,
    );
    // The banner shows for 3 seconds, then the drop area returns.
    await expect(page.getByText("Drop a CSV file here")).toBeVisible({ timeout: 6000 });
  });

  test("resumes an interrupted upload: only the batches the server never received are sent", async ({ adminPage }) => {
    const page = await openAdminTab(adminPage, "aged-leads");
    // 3,500 rows: four batches of up to 1,000.
    const stamp = String(Date.now()).slice(-5);
    const lines = ["Name,Phone,State,Form fill time,Email"];
    for (let i = 0; i < 3500; i++) lines.push(`Resume ${i},5${stamp}${String(i).padStart(4, "0")},TX,,`);
    const file = csvFile("resume.csv", lines.join("\n"));

    // The server fails after the first two batches: every later one is cut off.
    const upload = "**/api/bulk-upload-aged-leads";
    await page.route(upload, (route) =>
      (route.request().postDataJSON() as { batchNumber: number }).batchNumber <= 2
        ? route.continue()
        : route.abort("connectionreset"),
    );
    await page.locator("#bulk-csv").setInputFiles(file);
    await expect(toast(page, /Choose the same file again to resume the upload/)).toBeVisible({ timeout: 20_000 });
    const interrupted = page.getByRole("heading", { name: "The upload of resume.csv was interrupted" });
    await expect(interrupted).toBeVisible();

    // The browser fails too: the note of the upload outlives the page. The server stays cut off until the
    // page is gone, so a retry the old page still had pending cannot reach it.
    await page.reload();
    await page.unroute(upload);
    await expect(interrupted).toBeVisible();

    // Another file is refused; the same file sends only batches 3 and 4.
    await page.locator("#resume-csv").setInputFiles(csvFile("resume.csv", lines.slice(0, 10).join("\n")));
    await expect(toast(page, "That is not resume.csv: choose the file of the interrupted upload.")).toBeVisible();
    const sent: number[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/bulk-upload-aged-leads"))
        sent.push((request.postDataJSON() as { batchNumber: number }).batchNumber);
    });
    await page.locator("#resume-csv").setInputFiles(file);
    await expect(page.getByText("Upload Complete!")).toBeVisible({ timeout: 30_000 });
    expect(sent.sort()).toEqual([3, 4]);
    await expect(page.getByTestId("report-rows-received")).toHaveText("3500");
    await expect(page.getByTestId("report-inserted")).toHaveText("3500");
    await expect(page.getByTestId("report-duplicates-skipped")).toHaveText("0");
    await expect(interrupted).toBeHidden();
    await page.reload();
    await expect(page.getByText("Drop a CSV file here")).toBeVisible();
    await expect(interrupted).toBeHidden();
  });

  test("says 'Stalled, resuming' while the server has batches waiting to be sent again", async ({ adminPage }) => {
    const page = await openAdminTab(adminPage, "aged-leads");
    // The server's answer while a batch waits for the sweep (a lost Queue message, worker/features/aged-leads/import-sweep.ts).
    let stalled = true;
    await page.route(/\/api\/imports\/[^/]+$/, async (route) => {
      const response = await route.fetch();
      const status = (await response.json()) as Record<string, unknown>;
      await route.fulfill({ response, json: stalled ? { ...status, done: false, stalledBatches: 1 } : status });
    });
    const lines = ["Name,Phone,State,Form fill time,Email", `Stalled Lead,${phone()},TX,,`];
    await page.locator("#bulk-csv").setInputFiles(csvFile("stalled.csv", lines.join("\n")));
    await expect(page.getByTestId("import-stalled")).toHaveText(
      "Stalled, resuming: 1 batch is being sent again. Nothing is lost; you may leave this page.",
    );
    stalled = false;
    await expect(page.getByText("Upload Complete!")).toBeVisible({ timeout: 20_000 });
  });

  test("refuses a file without data rows", async ({ adminPage }) => {
    const page = await openAdminTab(adminPage, "aged-leads");
    await page.locator("#bulk-csv").setInputFiles(csvFile("empty.csv", "Name,Phone,State,Email\n"));
    await expect(toast(page, "File must contain at least a header row and one data row")).toBeVisible();
  });

  test("opens the review dialog when auto-mapping fails, and insists on the required mappings", async ({
    adminPage,
  }) => {
    const page = await openAdminTab(adminPage, "aged-leads");
    const rows = [
      "Who,Mail,Digits,Where,Band,Cost",
      `Manual Map,mm@example.com,${phone()},NV,60-90,`,
      `No State,ns@example.com,${phone()},,,`,
    ];
    await page.locator("#bulk-csv").setInputFiles(csvFile("manual.csv", rows.join("\n")));
    await expect(toast(page, "Auto-Mapping Failed")).toBeVisible();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByText("Total rows: 2")).toBeVisible();
    await expect(dialog.getByRole("cell", { name: "Manual Map" })).toHaveCount(1);
    await dialog.getByRole("button", { name: "Confirm Upload" }).click();
    await expect(toast(page, "Missing Field Mappings")).toBeVisible();

    for (const [label, column] of [
      ["Name *", "Who"],
      ["Email *", "Mail"],
      ["Phone *", "Digits"],
      ["State *", "Where"],
      ["Age range *", "Band"],
      ["Price *", "Cost"],
    ] as const) {
      await dialog.getByLabel(label).selectOption({ label: column });
    }
    await dialog.getByRole("button", { name: "Confirm Upload" }).click();
    await expect(page.getByText("Upload Complete!")).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId("report-inserted")).toHaveText("1");
    await expect(page.getByTestId("report-rejected")).toHaveText("1");
  });

  test("uploads a file without the optional columns once they are marked 'Not in this file'", async ({ adminPage }) => {
    const page = await openAdminTab(adminPage, "aged-leads");
    await page
      .locator("#bulk-csv")
      .setInputFiles(csvFile("minimal.csv", `Name,Phone,State\nMinimal Lead,${phone()},WA\n`));
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByText("Total rows: 1")).toBeVisible();
    await dialog.getByRole("button", { name: "Confirm Upload" }).click();
    await expect(toast(page, "Missing Field Mappings")).toBeVisible();
    for (const label of ["Email *", "Age range *", "Price *"])
      await dialog.getByLabel(label).selectOption({ label: "Not in this file" });
    await dialog.getByRole("button", { name: "Confirm Upload" }).click();
    await expect(page.getByText("Upload Complete!")).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId("report-inserted")).toHaveText("1");
  });

  test("reviews the whole file page by page and finds its only valid row after the first 1,000", async ({
    adminPage,
  }) => {
    const page = await openAdminTab(adminPage, "aged-leads");
    const validAt = 1450; // the file's line (the header is line 1)
    const lines = ["Who,Mail,Digits,Where"];
    for (let line = 2; line <= 1501; line++)
      lines.push(line === validAt ? `Late Valid,lv@example.com,${phone()},OR` : `,n${line}@example.com,${phone()},OR`);
    await page.locator("#bulk-csv").setInputFiles(csvFile("late.csv", lines.join("\n")));
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByText("Total rows: 1500")).toBeVisible();
    await expect(dialog.getByText("Rows 2–51 · page 1 of 30")).toBeVisible();
    await dialog.getByLabel("Go to row").fill(String(validAt));
    await dialog.getByRole("button", { name: "Show" }).click();
    await expect(dialog.getByText("Rows 1,402–1,451 · page 29 of 30")).toBeVisible();
    const row = dialog.getByRole("row").filter({ has: page.getByRole("cell", { name: String(validAt), exact: true }) });
    await expect(row.getByRole("cell", { name: "Late Valid" })).toHaveCount(1);
    await dialog.getByRole("button", { name: "Next rows" }).click();
    await expect(dialog.getByText("Rows 1,452–1,501 · page 30 of 30")).toBeVisible();
    await expect(dialog.getByRole("cell", { name: "1501", exact: true })).toHaveCount(1);
    await expect(dialog.getByRole("button", { name: "Next rows" })).toBeDisabled();

    for (const [label, column] of [
      ["Name *", "Who"],
      ["Email *", "Mail"],
      ["Phone *", "Digits"],
      ["State *", "Where"],
      ["Age range *", "Not in this file"],
      ["Price *", "Not in this file"],
    ] as const) {
      await dialog.getByLabel(label).selectOption({ label: column });
    }
    await dialog.getByRole("button", { name: "Confirm Upload" }).click();
    await expect(page.getByText("Upload Complete!")).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("report-inserted")).toHaveText("1");
    await expect(page.getByTestId("report-rejected")).toHaveText("1499");
  });

  test("says 'No Valid Data' when no row has a name, phone and state", async ({ adminPage }) => {
    const page = await openAdminTab(adminPage, "aged-leads");
    await page
      .locator("#bulk-csv")
      .setInputFiles(csvFile("novalid.csv", "Name,Phone,State,Email\nNo State,2145550000,,x@example.com\n"));
    await expect(toast(page, "No Valid Data")).toBeVisible();
  });
});

test.describe("callbacks tab", () => {
  test("uploads a call-back with its window and zone, with the spec's messages, and lists it", async ({
    adminPage,
  }) => {
    const page = await openAdminTab(adminPage, "callbacks");
    await page.getByRole("button", { name: "Upload Callback", exact: true }).click();
    for (const message of [
      "Name is required",
      "Valid email required",
      "Phone number required",
      "State is required",
      "Price is required",
      "Date is required (YYYY-MM-DD)",
    ]) {
      await expect(page.getByText(message)).toBeVisible();
    }
    const name = `Callback ${Date.now()}`;
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Email", { exact: true }).fill("cb@example.com");
    await page.getByLabel("Phone", { exact: true }).fill(`555${String(Date.now() % 10_000_000).padStart(7, "0")}`);
    await page.getByLabel("State", { exact: true }).fill("AZ");
    await page.getByLabel("Price", { exact: true }).fill("12.5");
    await expect(page.getByLabel("Prospect's time zone (optional)")).toContainText(
      "The state's zone (America/Phoenix)",
    );
    // Two days ahead is still ahead in every US zone.
    await page
      .getByLabel("Date", { exact: true })
      .fill(new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10));
    await page.getByLabel("From", { exact: true }).fill("15:00");
    await page.getByLabel("To", { exact: true }).fill("13:00");
    await page.getByRole("button", { name: "Upload Callback", exact: true }).click();
    await expect(page.getByText("To must be a time after From")).toBeVisible();
    await page.getByLabel("To", { exact: true }).fill("17:00");
    await page.getByLabel("Prospect's time zone (optional)").selectOption("America/Denver");
    await page.getByRole("button", { name: "Upload Callback", exact: true }).click();
    await expect(toast(page, "Callback opportunity uploaded successfully")).toBeVisible();
    await expect(page.getByRole("cell", { name, exact: true })).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: name });
    await expect(row).toContainText("$12.50");
    await expect(row).toContainText("Call-back");
    await expect(row).toContainText(/3:00 PM – 5:00 PM M[SD]T/);
    await expect(row).toContainText(/Waiting|Delivered · order [0-9a-f]{8}/);
    // The row's whole consent record opens in a dialog (docs/decisions/0063); focus returns to the row.
    const record = row.getByRole("button", { name: `Consent record of ${name} (AZ)` });
    await record.click();
    const dialog = page.getByRole("dialog", { name: `Consent record: ${name} (AZ)` });
    await expect(dialog.getByTestId("callback-consent-record")).toContainText("Admin form");
    await dialog.getByRole("button", { name: "Close", exact: true }).first().click();
    await expect(dialog).toBeHidden();
    await expect(record).toBeFocused();
  });
});
