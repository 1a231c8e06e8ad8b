/**
 * The partner's journey (product rule 16): an admin approves an application → the invitation sets the partner's password →
 * the partner creates an API key → the dialer simulator delivers to a buyer's paid order → /admin-orders
 * shows the order's delivered counts.
 */
import { execFileSync } from "node:child_process";
import { and, eq, inArray, ne } from "drizzle-orm";
import { orderDelivery } from "../../worker/db/schema";
import { e2eDb, linkPrintedFor } from "./database";
import { expect, setupValue, test, url } from "./fixtures";
import { fillApplication } from "./partners";
import { toast } from "./pay";

test.describe("partner journey", () => {
  test("approval, invitation, API key, simulated calls, delivered counts on /admin-orders", async ({
    page: applicant,
    adminPage: admin,
    newPage,
  }) => {
    test.setTimeout(240_000);
    const tag = Date.now().toString(36);
    const businessName = `Journey Dialers ${tag}`;
    const email = `journey_${tag}@example.com`;

    await applicant.goto("/affnetwork");
    await fillApplication(applicant, businessName, email);
    await applicant.getByRole("button", { name: "Submit Application" }).click();
    await expect(applicant.getByRole("heading", { name: "Application Submitted!" })).toBeVisible();

    await admin.goto("/admin?tab=aff-network");
    const pending = admin.getByRole("listitem").filter({ has: admin.getByRole("heading", { name: businessName }) });
    await pending.getByRole("button", { name: "Approve" }).click();
    await expect(toast(admin, "Application status updated successfully")).toBeVisible();
    // The admin re-sends the invitation: the partner uses the newest link.
    await admin.getByRole("button", { name: `Re-send invitation to ${businessName}` }).click();
    await expect(toast(admin, "Invitation sent")).toBeVisible();

    await expect.poll(() => linkPrintedFor(email, "/partner-invitation")).toBeTruthy();
    const link = linkPrintedFor(email, "/partner-invitation");
    expect(link).toBeDefined();
    const partner = await newPage();
    await partner.goto(new URL(link ?? "/").pathname + new URL(link ?? "/").search);
    await expect(partner.getByTestId("partner-username")).toHaveText(email);
    await partner.getByLabel("New Password").fill("journey-password-1");
    await partner.getByLabel("Confirm Password").fill("journey-password-1");
    await partner.getByRole("button", { name: "Set password and continue" }).click();
    await expect(partner).toHaveURL((u) => u.pathname === "/partner");
    await expect(partner.getByRole("heading", { name: "Partner Portal" })).toBeVisible();
    await expect(partner.getByTestId("calls-today")).toHaveText("0 / 60");
    await partner.getByLabel("Key name").fill("Journey dialer");
    await partner.getByRole("button", { name: "Create key" }).click();
    await expect(partner.getByTestId("new-api-key")).toHaveText(/^fel_/);
    const key = (await partner.getByTestId("new-api-key").textContent()) ?? "";
    await expect(partner.getByRole("cell", { name: "Journey dialer" })).toBeVisible();

    // A buyer pays for 10 transfers on a pricing page: the order waits for its delivery settings.
    const origin = { Origin: new URL(url("/")).origin };
    const started = await admin.request.post("/api/create-payment-intent", {
      data: { amount: 390, callCount: 10, email: `journey_buyer_${tag}@example.com` },
      headers: origin,
    });
    const { orderId, clientSecret } = (await started.json()) as { orderId: string; clientSecret: string };
    await admin.request.post("/api/simulated-payments/confirm", {
      data: { clientSecret, cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" },
      headers: origin,
    });

    // The admin sets it up from /admin-orders: every state, around the clock.
    await admin.goto("/admin-orders");
    const row = admin.locator("tr").filter({ hasText: orderId.slice(0, 8) });
    await expect(row.getByText("Awaiting setup")).toBeVisible();
    await row.getByRole("button", { name: "Re-send setup link" }).click();
    await expect(toast(admin, "Setup link sent")).toBeVisible();
    await row.getByRole("button", { name: "Set up delivery" }).click();
    const dialog = admin.getByRole("dialog");
    await dialog.getByLabel("Transfer phone number").fill("(555) 303-4040");
    await dialog.getByLabel("States").fill("");
    await dialog.getByLabel("Transfers from").fill("00:00");
    await dialog.getByLabel("Transfers until").fill("00:00");
    await dialog.getByLabel("Transfers per day").fill("50");
    await dialog.getByRole("button", { name: "Save delivery settings" }).click();
    await expect(toast(admin, "Delivery settings saved")).toBeVisible();
    await expect(row).toContainText("0 delivered · 10 remaining");

    // Only this order is open to routing while the dialer runs, so every routed call goes to it.
    const db = e2eDb();
    const others = (
      await db
        .select({ orderId: orderDelivery.orderId })
        .from(orderDelivery)
        .where(and(eq(orderDelivery.paused, false), ne(orderDelivery.orderId, orderId)))
    ).map((o) => o.orderId);
    const setPaused = async (paused: boolean) => {
      if (others.length) await db.update(orderDelivery).set({ paused }).where(inArray(orderDelivery.orderId, others));
    };
    await setPaused(true);
    let output: string;
    try {
      output = execFileSync(
        process.execPath,
        [
          "--experimental-strip-types",
          "scripts/simulate-calls.ts",
          "--partner",
          key,
          "--rate",
          "60/min",
          "--minutes",
          "0.05",
          "--time-scale",
          "1000",
          "--url",
          setupValue("E2E_BASE_URL"),
        ],
        { encoding: "utf8", timeout: 60_000 },
      );
    } finally {
      await setPaused(false);
    }
    expect(output).toContain("routed to 5553034040");

    const [counts] = await db
      .select({ billable: orderDelivery.transfersBillable, notCharged: orderDelivery.transfersNotCharged })
      .from(orderDelivery)
      .where(eq(orderDelivery.orderId, orderId));
    expect((counts?.billable ?? 0) + (counts?.notCharged ?? 0)).toBeGreaterThan(0);
    await admin.reload();
    const delivered = counts?.billable ?? 0;
    await expect(row).toContainText(`${delivered} delivered · ${10 - delivered} remaining`);
    await expect(row).toContainText(`${counts?.notCharged ?? 0} not charged`);

    await partner.reload();
    await expect(partner.getByRole("heading", { name: "Your transfers" })).toBeVisible();
    const transferRows = partner.getByRole("region", { name: "Your transfers" }).locator("tbody tr");
    await expect(transferRows.first()).toBeVisible();
  });
});
