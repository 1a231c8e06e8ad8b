import { DEMO_PARTNER, DEMO_PARTNER_KEY } from "../../scripts/demo-transfers.ts";
import { createUser } from "./database";
import { expect, signIn, test, url } from "./fixtures";
import { fillApplication } from "./partners";
import { toast } from "./pay";

const PDF = Buffer.from("%PDF-1.7\n% test document\n%%EOF\n");

test.describe("/affnetwork", () => {
  test("validates, takes documents with the spec's limits, and confirms the application", async ({ page }) => {
    await page.goto("/affnetwork");
    await expect(page.getByRole("heading", { name: "Partner Application" })).toBeVisible();
    await expect(page.getByLabel("Payment terms")).toHaveValue("Net 30");
    await expect(page.getByLabel("Time zone")).toHaveValue("EST");
    await page.getByRole("button", { name: "Submit Application" }).click();
    for (const message of [
      "Business name is required",
      "ZIP code is required",
      "EIN is required",
      "Please enter a valid email address",
    ]) {
      await expect(page.getByText(message)).toBeVisible();
    }

    await fillApplication(page, `Partner ${Date.now()}`);
    const picker = page.locator("#partner-documents");
    await picker.setInputFiles({ name: "virus.exe", mimeType: "application/octet-stream", buffer: Buffer.from("MZ") });
    await expect(toast(page, "Invalid File Type")).toBeVisible();
    await picker.setInputFiles([
      { name: "license.pdf", mimeType: "application/pdf", buffer: PDF },
      { name: "spare.pdf", mimeType: "application/pdf", buffer: PDF },
    ]);
    await page.getByRole("button", { name: "Remove spare.pdf" }).click();
    const toUpload = page.getByRole("list", { name: "Documents to upload" }).getByRole("listitem");
    await expect(toUpload).toHaveCount(1);
    await picker.setInputFiles(
      Array.from({ length: 5 }, (_, i) => ({ name: `more${i}.pdf`, mimeType: "application/pdf", buffer: PDF })),
    );
    await expect(toast(page, "You can upload a maximum of 5 documents.")).toBeVisible();
    await expect(toUpload).toHaveCount(5);

    await page.getByRole("button", { name: "Submit Application" }).click();
    await expect(page.getByRole("heading", { name: "Application Submitted!" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Return to Home" })).toHaveAttribute("href", "/");
  });
});

test.describe("admin: partner applications", () => {
  test("shows pending applications in full, downloads documents, approves and rejects", async ({
    page: applicant,
    adminPage: admin,
  }) => {
    const approveName = `Approve Me ${Date.now()}`;
    const rejectName = `Reject Me ${Date.now()}`;
    for (const name of [approveName, rejectName]) {
      await applicant.goto("/affnetwork");
      await fillApplication(applicant, name);
      await applicant
        .locator("#partner-documents")
        .setInputFiles({ name: "license.pdf", mimeType: "application/pdf", buffer: PDF });
      await applicant.getByRole("button", { name: "Submit Application" }).click();
      await expect(applicant.getByRole("heading", { name: "Application Submitted!" })).toBeVisible();
    }

    await admin.goto("/admin?tab=aff-network");
    const pending = admin.getByRole("listitem").filter({ has: admin.getByRole("heading", { name: approveName }) });
    await expect(pending).toContainText("Ref One");
    await expect(pending).toContainText("license.pdf");

    // The Download button opens the document in a new tab, where it arrives as an attachment.
    const response = admin.context().waitForEvent("response", (r) => r.url().includes("/api/download-document/"));
    await pending.getByRole("button", { name: "Download license.pdf" }).click();
    const document = await response;
    expect(document.status()).toBe(200);
    const slug = approveName.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    expect(document.headers()["content-disposition"]).toBe(`attachment; filename="${slug}-document-1.pdf"`);

    await pending.getByRole("button", { name: "Approve" }).click();
    await expect(toast(admin, "Application status updated successfully")).toBeVisible();
    const approved = admin.getByRole("region", { name: /Approved partners/ });
    await expect(approved.getByRole("heading", { name: approveName })).toBeVisible();
    await expect(approved.getByText("Approved", { exact: true }).first()).toBeAttached();

    const toReject = admin.getByRole("listitem").filter({ has: admin.getByRole("heading", { name: rejectName }) });
    await toReject.getByRole("button", { name: "Reject" }).click();
    await expect(admin.getByText(rejectName)).toHaveCount(0);
  });
});

test.describe("admin: partner accounts", () => {
  test("an admin suspends a partner: its key answers 403 and its portal says so, until reinstated", async ({
    page: partner,
    adminPage: admin,
  }) => {
    const business = "Sunrise Dialing LLC";
    const api = () =>
      admin.request.get(url("/api/v1/transfers/none"), { headers: { Authorization: `Bearer ${DEMO_PARTNER_KEY}` } });
    const reinstate = async () => {
      const partners = (await (await admin.request.get(url("/api/admin/partners"))).json()) as {
        id: string;
        businessName: string;
      }[];
      const id = partners.find((p) => p.businessName === business)?.id ?? "";
      await admin.request.post(url(`/api/admin/partners/${id}/reinstate`));
    };
    try {
      await admin.goto("/admin?tab=aff-network");
      const card = admin.getByRole("listitem").filter({ hasText: business });
      await expect(card.getByText("Active", { exact: true })).toBeVisible();
      await card.getByRole("button", { name: `Suspend ${business}` }).click();
      await admin.getByRole("dialog").getByRole("button", { name: "Suspend partner" }).click();
      await expect(card.getByText(/^Suspended since/)).toBeVisible();
      const refused = await api();
      expect(refused.status()).toBe(403);
      expect(await refused.json()).toEqual({ message: expect.stringContaining("suspended") });

      await signIn(partner, DEMO_PARTNER.username, DEMO_PARTNER.password, "/partner");
      await expect(partner.getByRole("alert").filter({ hasText: "Your partner account is suspended" })).toBeVisible();

      await card.getByRole("button", { name: `Reinstate ${business}` }).click();
      // Exactly "Active": the suspended card's "· 1 active API key" would match a loose text at once, before the reinstatement landed.
      await expect(card.getByText("Active", { exact: true })).toBeVisible();
      expect((await api()).status()).toBe(404);
      await partner.reload();
      await expect(partner.getByRole("heading", { name: "Partner Portal" })).toBeVisible();
      await expect(partner.getByText("Your partner account is suspended")).toBeHidden();
    } finally {
      await reinstate();
    }
  });
});

test.describe("/admin-orders", () => {
  test("lists live-transfer orders with summary cards, '+N more' states, and status changes", async ({
    page: buyerPage,
    adminPage: admin,
  }) => {
    // Realistic long names and addresses must not push the actions off screen.
    const buyer = await createUser({
      firstName: "Maximiliana-Josephine",
      lastName: "Vandenberghe-Okonkwo",
      email: `maximiliana.vandenberghe-okonkwo.${Date.now()}@enterprise-insurance-agency.example.com`,
    });
    await signIn(buyerPage, buyer.username, buyer.password, "/dashboard");
    const origin = { Origin: new URL(url("/")).origin };
    const orderTransfers = (totalTransfers: number, workingStates: string) =>
      buyerPage.request.post("/api/call-transfer-order", {
        data: {
          totalTransfers,
          callsPerDay: 3,
          transferHours: "9-5",
          transferPhone: "5554440000",
          workingStates,
          leadType: "Live Transfers",
          price: totalTransfers * 35,
        },
        headers: origin,
      });
    const created = await orderTransfers(6, "TX, FL, GA, AL");
    expect(created.status()).toBe(200);
    const { orderId, clientSecret } = (await created.json()) as { orderId: string; clientSecret: string };
    // A second order stays pending (unpaid): it must not count as revenue.
    const unpaid = await orderTransfers(2, "TX");
    expect(unpaid.status()).toBe(200);
    await buyerPage.request.post("/api/simulated-payments/confirm", {
      data: { clientSecret, cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" },
      headers: origin,
    });

    await admin.goto("/admin-orders");
    await expect(admin.getByRole("heading", { name: "Transfer Orders" })).toBeVisible();
    await expect(admin.getByRole("link", { name: "Back" })).toHaveAttribute("href", "/admin");
    for (const id of [
      "summary-total-orders",
      "summary-pending-orders",
      "summary-total-revenue",
      "summary-total-transfers",
    ]) {
      await expect(admin.getByTestId(id)).toBeVisible();
    }
    // Revenue is money taken: paid and completed orders only, and the label says so.
    await expect(admin.getByText("Revenue (paid and completed)", { exact: true })).toHaveCount(1);
    const listed = await (await admin.request.get("/api/transfer-orders")).json();
    const taken = (listed as { status: string; totalPrice: number }[])
      .filter((o) => o.status === "paid" || o.status === "completed")
      .reduce((sum, o) => sum + Math.round(o.totalPrice * 100), 0);
    expect((listed as { status: string }[]).some((o) => o.status === "pending")).toBe(true);
    await expect(admin.getByTestId("summary-total-revenue")).toHaveText(`$${(taken / 100).toFixed(2)}`);
    const row = admin.locator("tr").filter({ hasText: orderId.slice(0, 8) });
    await expect(row).toContainText("TX, FL +2 more");
    await expect(row).toContainText("$210.00");
    await expect(row).toContainText("Paid");

    // At 1280 px the actions are on screen, with no sideways scrolling of the table.
    const region = admin.getByRole("region", { name: "Transfer orders" });
    expect(await region.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    const cancel = await row.getByRole("button", { name: "Cancel" }).boundingBox();
    expect((cancel?.x ?? 9999) + (cancel?.width ?? 0)).toBeLessThanOrEqual(1280);

    await row.getByRole("button", { name: "Complete" }).click();
    await admin.getByRole("dialog").getByRole("button", { name: "Mark completed" }).click();
    await expect(row).toContainText("Completed");

    await admin.getByRole("button", { name: "Completed", exact: true }).click();
    await expect
      .poll(async () => (await admin.locator("tbody tr").allTextContents()).every((text) => text.includes("Completed")))
      .toBe(true);
  });

  test('a status filter with no match says "No orders match this filter"', async ({ adminPage: admin }) => {
    // The real list without its refunded orders, so that the Refunded filter has no match.
    await admin.route(/\/api\/transfer-orders$/, async (route) => {
      const response = await route.fetch();
      const orders = (await response.json()) as { status: string }[];
      await route.fulfill({ response, json: orders.filter((order) => order.status !== "refunded") });
    });
    await admin.goto("/admin-orders");
    await expect(admin.getByRole("region", { name: "Transfer orders" })).toBeVisible();
    await admin.getByRole("button", { name: "Refunded", exact: true }).click();
    await expect(admin.getByText("No orders match this filter", { exact: true })).toBeVisible();
    await expect(admin.getByText("No transfer orders yet.")).toHaveCount(0);
    await admin.getByRole("button", { name: "All", exact: true }).click();
    await expect(admin.getByRole("region", { name: "Transfer orders" })).toBeVisible();
  });

  test("on a phone the orders table scrolls sideways from the keyboard", async ({ newPage }) => {
    const admin = await newPage({ as: "admin", viewport: { width: 390, height: 844 } });
    await admin.goto("/admin-orders");
    const region = admin.getByRole("region", { name: "Transfer orders" });
    await expect(region).toHaveAttribute("tabindex", "0");
    await region.focus();
    await admin.keyboard.press("ArrowRight");
    await admin.keyboard.press("ArrowRight");
    await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  });
});
