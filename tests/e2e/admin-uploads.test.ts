import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_ADMIN } from "../../scripts/demo-data.ts";
import { setupBrowser } from "./browser";
import { toastText } from "./pay";

const { newPage, url } = setupBrowser();
let seq = 0;
const phone = () => `4${String(Date.now()).slice(-6)}${String(++seq).padStart(3, "0")}`;

async function openAdminTab(tab: string): Promise<Page> {
  const page = await newPage();
  await page.goto(url(`/login?next=${encodeURIComponent(`/admin?tab=${tab}`)}`));
  await page.getByLabel("Username").fill(DEMO_ADMIN.username);
  await page.getByLabel("Password", { exact: true }).fill(DEMO_ADMIN.password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL(`**/admin?tab=${tab}`);
  return page;
}

const csvFile = (name: string, text: string) => ({ name, mimeType: "text/csv", buffer: Buffer.from(text) });

describe("aged-leads tab", () => {
  it("adds a single lead with the spec's messages and a live D7 price hint", async () => {
    const page = await openAdminTab("aged-leads");
    await page.getByRole("button", { name: "Upload Lead" }).click();
    await page.getByText("Name is required").waitFor();
    await page.getByText("Phone number required").waitFor();
    await page.getByText("State is required").waitFor();
    await page.getByLabel("Email (optional)").fill("not-an-email");
    await page.getByRole("button", { name: "Upload Lead" }).click();
    await page.getByText("Valid email required").waitFor();

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
    await expect.poll(() => page.getByTestId("price-hint").textContent()).toContain("Band 60-90");
    expect(await page.getByTestId("price-hint").textContent()).toContain("$4.00");
    await page.getByRole("button", { name: "Upload Lead" }).click();
    await expect.poll(() => toastText(page)).toContain("Aged lead uploaded successfully");
    await page.getByRole("cell", { name: tel }).waitFor();
  });

  it("bulk-uploads an auto-mapped CSV in the background and reports every row", async () => {
    const page = await openAdminTab("aged-leads");
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
    await page.getByText("Upload Complete!").waitFor({ timeout: 20_000 });
    await expect.poll(() => toastText(page)).toContain("Successfully uploaded 2 aged leads");
    expect(await page.getByTestId("report-rows-received").textContent()).toBe("4");
    expect(await page.getByTestId("report-inserted").textContent()).toBe("2");
    expect(await page.getByTestId("report-rejected").textContent()).toBe("2");
    expect(await page.getByText("Row 4: Name is required").isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: "Download report (CSV)" }).getAttribute("href")).toMatch(
      /^\/api\/imports\/.+\/report\.csv$/,
    );
    // The banner shows for 3 seconds, then the drop area returns.
    await page.getByText("Drop a CSV file here").waitFor({ timeout: 6000 });
  });

  it("refuses a file without data rows", async () => {
    const page = await openAdminTab("aged-leads");
    await page.locator("#bulk-csv").setInputFiles(csvFile("empty.csv", "Name,Phone,State,Email\n"));
    await expect.poll(() => toastText(page)).toContain("File must contain at least a header row and one data row");
  });

  it("opens the review dialog when auto-mapping fails, and insists on the required mappings", async () => {
    const page = await openAdminTab("aged-leads");
    const rows = [
      "Who,Mail,Digits,Where,Band,Cost",
      `Manual Map,mm@example.com,${phone()},NV,60-90,`,
      `No State,ns@example.com,${phone()},,,`,
    ];
    await page.locator("#bulk-csv").setInputFiles(csvFile("manual.csv", rows.join("\n")));
    await expect.poll(() => toastText(page)).toContain("Auto-Mapping Failed");
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Total rows: 2").waitFor();
    expect(await dialog.getByRole("cell", { name: "Manual Map" }).count()).toBe(1);
    await dialog.getByRole("button", { name: "Confirm Upload" }).click();
    await expect.poll(() => toastText(page)).toContain("Missing Field Mappings");

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
    await page.getByText("Upload Complete!").waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("report-inserted").textContent()).toBe("1");
    expect(await page.getByTestId("report-rejected").textContent()).toBe("1");
  });

  it("uploads a file without the optional columns once they are marked 'Not in this file'", async () => {
    const page = await openAdminTab("aged-leads");
    await page
      .locator("#bulk-csv")
      .setInputFiles(csvFile("minimal.csv", `Name,Phone,State\nMinimal Lead,${phone()},WA\n`));
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Total rows: 1").waitFor();
    await dialog.getByRole("button", { name: "Confirm Upload" }).click();
    await expect.poll(() => toastText(page)).toContain("Missing Field Mappings");
    for (const label of ["Email *", "Age range *", "Price *"])
      await dialog.getByLabel(label).selectOption({ label: "Not in this file" });
    await dialog.getByRole("button", { name: "Confirm Upload" }).click();
    await page.getByText("Upload Complete!").waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("report-inserted").textContent()).toBe("1");
  });

  it("reviews the whole file page by page and finds its only valid row after the first 1,000", async () => {
    const page = await openAdminTab("aged-leads");
    const validAt = 1450; // the file's line (the header is line 1)
    const lines = ["Who,Mail,Digits,Where"];
    for (let line = 2; line <= 1501; line++)
      lines.push(line === validAt ? `Late Valid,lv@example.com,${phone()},OR` : `,n${line}@example.com,${phone()},OR`);
    await page.locator("#bulk-csv").setInputFiles(csvFile("late.csv", lines.join("\n")));
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Total rows: 1500").waitFor();
    await dialog.getByText("Rows 2–51 · page 1 of 30").waitFor();
    await dialog.getByLabel("Go to row").fill(String(validAt));
    await dialog.getByRole("button", { name: "Show" }).click();
    await dialog.getByText("Rows 1,402–1,451 · page 29 of 30").waitFor();
    const row = dialog.getByRole("row").filter({ has: page.getByRole("cell", { name: String(validAt), exact: true }) });
    expect(await row.getByRole("cell", { name: "Late Valid" }).count()).toBe(1);
    await dialog.getByRole("button", { name: "Next rows" }).click();
    await dialog.getByText("Rows 1,452–1,501 · page 30 of 30").waitFor();
    expect(await dialog.getByRole("cell", { name: "1501", exact: true }).count()).toBe(1);
    expect(await dialog.getByRole("button", { name: "Next rows" }).isDisabled()).toBe(true);

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
    await page.getByText("Upload Complete!").waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("report-inserted").textContent()).toBe("1");
    expect(await page.getByTestId("report-rejected").textContent()).toBe("1499");
  });

  it("says 'No Valid Data' when no row has a name, phone and state", async () => {
    const page = await openAdminTab("aged-leads");
    await page
      .locator("#bulk-csv")
      .setInputFiles(csvFile("novalid.csv", "Name,Phone,State,Email\nNo State,2145550000,,x@example.com\n"));
    await expect.poll(() => toastText(page)).toContain("No Valid Data");
  });
});

describe("callbacks tab", () => {
  it("uploads a callback opportunity with the spec's messages and lists it", async () => {
    const page = await openAdminTab("callbacks");
    await page.getByRole("button", { name: "Upload Callback", exact: true }).click();
    for (const message of [
      "Name is required",
      "Valid email required",
      "Phone number required",
      "State is required",
      "Price is required",
    ]) {
      await page.getByText(message).waitFor();
    }
    const name = `Callback ${Date.now()}`;
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Email").fill("cb@example.com");
    await page.getByLabel("Phone").fill("5553334444");
    await page.getByLabel("State").fill("AZ");
    await page.getByLabel("Price").fill("12.5");
    await page.getByRole("button", { name: "Upload Callback", exact: true }).click();
    await expect.poll(() => toastText(page)).toContain("Callback opportunity uploaded successfully");
    await page.getByRole("cell", { name }).waitFor();
    expect(await page.getByRole("row").filter({ hasText: name }).textContent()).toContain("$12.50");
  });
});
