/**
 * Call-backs and appointments by CSV on the admin's callbacks tab (docs/decisions/0069): the upload opens
 * on a click, reads the file's headers, sends the rows as a call-back import and shows its report, each
 * rejected row with its reason.
 */
import { expect, hydrated, test } from "./fixtures";

test("uploads a CSV of call-backs from the callbacks tab and reports the rejected rows", async ({
  adminPage: page,
}) => {
  await page.goto("/admin?tab=callbacks");
  await expect(page.getByRole("heading", { name: "Admin Panel" })).toBeVisible();
  await hydrated(page);
  await page.getByRole("button", { name: "Upload a CSV of call-backs" }).click();
  await expect(page.locator("#callback-csv")).toBeEnabled();

  const tag = String(Date.now() % 10_000_000).padStart(7, "0");
  // Two days ahead is still ahead in every US zone.
  const date = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  const optIn = new Date(Date.now() - 3_600_000).toISOString();
  const rows = [
    "Name,Email,Phone,State,Price,ZIP,Kind,Date,From,To,Time zone,Opt-in time",
    `Csv One ${tag},one@example.com,555${tag},TX,12.50,,callback,${date},09:00,11:00,,${optIn}`,
    `Csv Two ${tag},two@example.com,556${tag},AZ,10,,callback,${date},15:00,13:00,,${optIn}`,
    `Csv Three ${tag},three@example.com,557${tag},CO,10,80202,appointment,${date},14:30,,,${optIn}`,
    `Csv Four ${tag},four@example.com,558${tag},FL,10,,callback,${date},09:00,11:00,,`,
  ];
  await page
    .locator("#callback-csv")
    .setInputFiles({ name: "callbacks.csv", mimeType: "text/csv", buffer: Buffer.from(rows.join("\n")) });
  await expect(page.getByTestId("report-rows-received")).toHaveText("4", { timeout: 20_000 });
  await expect(page.getByTestId("report-taken-in")).toHaveText("2");
  await expect(page.getByTestId("report-rejected")).toHaveText("2");
  await expect(page.getByText("Row 3: To must be a time after From")).toBeVisible();
  await expect(page.getByText(/^Row 5: Opt-in time is required/)).toBeVisible();
  // The call-backs taken in are in the tab's latest list (its code loads as it nears the screen).
  await page.getByRole("region", { name: "Latest callback opportunities" }).scrollIntoViewIfNeeded();
  await expect(page.getByRole("cell", { name: `Csv One ${tag}`, exact: true })).toBeVisible();
});
