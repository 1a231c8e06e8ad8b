import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_ADMIN } from "../../scripts/demo-data.ts";
import { setupBrowser } from "./browser";
import { createUser } from "./database";
import { fillApplication, signIn as signInAs } from "./partners";
import { toastText } from "./pay";

const { newPage, url } = setupBrowser();
const PDF = Buffer.from("%PDF-1.7\n% test document\n%%EOF\n");

const signIn = (page: Page, username: string, password: string, next: string) =>
  signInAs(page, url, username, password, next);

describe("/affnetwork", () => {
  it("validates, takes documents with the spec's limits, and confirms the application", async () => {
    const page = await newPage();
    await page.goto(url("/affnetwork"));
    await page.getByRole("heading", { name: "Partner Application" }).waitFor();
    expect(await page.getByLabel("Payment terms").inputValue()).toBe("Net 30");
    expect(await page.getByLabel("Time zone").inputValue()).toBe("EST");
    await page.getByRole("button", { name: "Submit Application" }).click();
    for (const message of [
      "Business name is required",
      "ZIP code is required",
      "EIN is required",
      "Please enter a valid email address",
    ]) {
      await page.getByText(message).waitFor();
    }

    await fillApplication(page, `Partner ${Date.now()}`);
    const picker = page.locator("#partner-documents");
    await picker.setInputFiles({ name: "virus.exe", mimeType: "application/octet-stream", buffer: Buffer.from("MZ") });
    await expect.poll(() => toastText(page)).toContain("Invalid File Type");
    await picker.setInputFiles([
      { name: "license.pdf", mimeType: "application/pdf", buffer: PDF },
      { name: "spare.pdf", mimeType: "application/pdf", buffer: PDF },
    ]);
    await page.getByRole("button", { name: "Remove spare.pdf" }).click();
    expect(await page.getByRole("list", { name: "Documents to upload" }).getByRole("listitem").count()).toBe(1);
    await picker.setInputFiles(
      Array.from({ length: 5 }, (_, i) => ({ name: `more${i}.pdf`, mimeType: "application/pdf", buffer: PDF })),
    );
    await expect.poll(() => toastText(page)).toContain("You can upload a maximum of 5 documents.");
    expect(await page.getByRole("list", { name: "Documents to upload" }).getByRole("listitem").count()).toBe(5);

    await page.getByRole("button", { name: "Submit Application" }).click();
    await page.getByRole("heading", { name: "Application Submitted!" }).waitFor();
    expect(await page.getByRole("link", { name: "Return to Home" }).getAttribute("href")).toBe("/");
  });
});

describe("admin: partner applications", () => {
  it("shows pending applications in full, downloads documents, approves and rejects", async () => {
    const applicant = await newPage();
    const approveName = `Approve Me ${Date.now()}`;
    const rejectName = `Reject Me ${Date.now()}`;
    for (const name of [approveName, rejectName]) {
      await applicant.goto(url("/affnetwork"));
      await fillApplication(applicant, name);
      await applicant
        .locator("#partner-documents")
        .setInputFiles({ name: "license.pdf", mimeType: "application/pdf", buffer: PDF });
      await applicant.getByRole("button", { name: "Submit Application" }).click();
      await applicant.getByRole("heading", { name: "Application Submitted!" }).waitFor();
    }

    const admin = await newPage();
    await signIn(admin, DEMO_ADMIN.username, DEMO_ADMIN.password, "/admin?tab=aff-network");
    const pending = admin.getByRole("listitem").filter({ has: admin.getByRole("heading", { name: approveName }) });
    await pending.waitFor();
    expect(await pending.textContent()).toContain("Ref One");
    expect(await pending.textContent()).toContain("license.pdf");

    // The Download button opens the document in a new tab, where it arrives as an attachment.
    const response = admin.context().waitForEvent("response", (r) => r.url().includes("/api/download-document/"));
    await pending.getByRole("button", { name: "Download license.pdf" }).click();
    const document = await response;
    expect(document.status()).toBe(200);
    const slug = approveName.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    expect(document.headers()["content-disposition"]).toBe(`attachment; filename="${slug}-document-1.pdf"`);

    await pending.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => toastText(admin)).toContain("Application status updated successfully");
    const approved = admin.getByRole("region", { name: /Approved partners/ });
    await approved.getByText(approveName).waitFor();
    expect(await approved.getByText("Approved", { exact: true }).count()).toBeGreaterThan(0);

    const toReject = admin.getByRole("listitem").filter({ has: admin.getByRole("heading", { name: rejectName }) });
    await toReject.getByRole("button", { name: "Reject" }).click();
    await expect.poll(() => admin.getByText(rejectName).count()).toBe(0);
  });
});

describe("/admin-orders", () => {
  it("lists live-transfer orders with summary cards, '+N more' states, and status changes", async () => {
    // Realistic long names and addresses must not push the actions off screen.
    const buyer = await createUser({
      firstName: "Maximiliana-Josephine",
      lastName: "Vandenberghe-Okonkwo",
      email: `maximiliana.vandenberghe-okonkwo.${Date.now()}@enterprise-insurance-agency.example.com`,
    });
    const buyerPage = await newPage();
    await signIn(buyerPage, buyer.username, buyer.password, "/dashboard");
    const orderTransfers = (totalTransfers: number, workingStates: string) =>
      buyerPage.request.post(url("/api/call-transfer-order"), {
        data: {
          totalTransfers,
          callsPerDay: 3,
          transferHours: "9-5",
          transferPhone: "5554440000",
          workingStates,
          leadType: "Live Transfers",
          price: totalTransfers * 35,
        },
        headers: { Origin: new URL(url("/")).origin },
      });
    const created = await orderTransfers(6, "TX, FL, GA, AL");
    expect(created.status()).toBe(200);
    const { orderId, clientSecret } = (await created.json()) as { orderId: string; clientSecret: string };
    // A second order stays pending (unpaid): it must not count as revenue.
    const unpaid = await orderTransfers(2, "TX");
    expect(unpaid.status()).toBe(200);
    await buyerPage.request.post(url("/api/simulated-payments/confirm"), {
      data: { clientSecret, cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" },
      headers: { Origin: new URL(url("/")).origin },
    });

    const admin = await newPage();
    await signIn(admin, DEMO_ADMIN.username, DEMO_ADMIN.password, "/admin-orders");
    await admin.getByRole("heading", { name: "Transfer Orders" }).waitFor();
    expect(await admin.getByRole("link", { name: "Back" }).getAttribute("href")).toBe("/admin");
    for (const id of [
      "summary-total-orders",
      "summary-pending-orders",
      "summary-total-revenue",
      "summary-total-transfers",
    ]) {
      await admin.getByTestId(id).waitFor();
    }
    // Revenue is money taken: paid and completed orders only, and the label says so.
    expect(await admin.getByText("Revenue (paid and completed)", { exact: true }).count()).toBe(1);
    const listed = await (await admin.request.get(url("/api/transfer-orders"))).json();
    const taken = (listed as { status: string; totalPrice: number }[])
      .filter((o) => o.status === "paid" || o.status === "completed")
      .reduce((sum, o) => sum + Math.round(o.totalPrice * 100), 0);
    expect((listed as { status: string }[]).some((o) => o.status === "pending")).toBe(true);
    await expect
      .poll(() => admin.getByTestId("summary-total-revenue").textContent())
      .toBe(`$${(taken / 100).toFixed(2)}`);
    const row = admin.locator("tr").filter({ hasText: orderId.slice(0, 8) });
    await row.waitFor();
    expect(await row.textContent()).toContain("TX, FL +2 more");
    expect(await row.textContent()).toContain("$210.00");
    expect(await row.textContent()).toContain("Paid");

    // At 1280 px the actions are on screen, with no sideways scrolling of the table.
    const region = admin.getByRole("region", { name: "Transfer orders" });
    expect(await region.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    const cancel = await row.getByRole("button", { name: "Cancel" }).boundingBox();
    expect((cancel?.x ?? 9999) + (cancel?.width ?? 0)).toBeLessThanOrEqual(1280);

    await row.getByRole("button", { name: "Complete" }).click();
    await admin.getByRole("dialog").getByRole("button", { name: "Mark completed" }).click();
    await expect.poll(() => row.textContent()).toContain("Completed");

    await admin.getByRole("button", { name: "Completed", exact: true }).click();
    await expect
      .poll(async () => (await admin.locator("tbody tr").allTextContents()).every((text) => text.includes("Completed")))
      .toBe(true);
  });

  it("on a phone the orders table scrolls sideways from the keyboard", async () => {
    const admin = await newPage({ viewport: { width: 390, height: 844 } });
    await signIn(admin, DEMO_ADMIN.username, DEMO_ADMIN.password, "/admin-orders");
    const region = admin.getByRole("region", { name: "Transfer orders" });
    await region.waitFor();
    expect(await region.getAttribute("tabindex")).toBe("0");
    await region.focus();
    await admin.keyboard.press("ArrowRight");
    await admin.keyboard.press("ArrowRight");
    await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  });
});
