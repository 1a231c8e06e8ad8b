/**
 * Issue 15's journey: an admin approves an application → the invitation sets the partner's password →
 * the partner creates an API key → the dialer simulator delivers to a buyer's paid order → /admin-orders
 * shows the order's delivered counts.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { DEMO_ADMIN } from "../../scripts/demo-data.ts";
import { setupBrowser } from "./browser";
import { latestMailTo, query } from "./database";
import { fillApplication, signIn } from "./partners";
import { toastText } from "./pay";

const { newPage, url, baseURL } = setupBrowser();

describe("partner journey", () => {
  it("approval, invitation, API key, simulated calls, delivered counts on /admin-orders", async () => {
    const tag = Date.now().toString(36);
    const businessName = `Journey Dialers ${tag}`;
    const email = `journey_${tag}@example.com`;

    const applicant = await newPage();
    await applicant.goto(url("/affnetwork"));
    await fillApplication(applicant, businessName, email);
    await applicant.getByRole("button", { name: "Submit Application" }).click();
    await applicant.getByRole("heading", { name: "Application Submitted!" }).waitFor();

    const admin = await newPage();
    await signIn(admin, url, DEMO_ADMIN.username, DEMO_ADMIN.password, "/admin?tab=aff-network");
    const pending = admin.getByRole("listitem").filter({ has: admin.getByRole("heading", { name: businessName }) });
    await pending.getByRole("button", { name: "Approve" }).click();
    await expect.poll(() => toastText(admin)).toContain("Application status updated successfully");

    const link = latestMailTo(email)?.text.match(/https?:\/\/\S+\/partner-invitation\?token=[\w-]+/)?.[0];
    expect(link).toBeDefined();
    const partner = await newPage();
    await partner.goto(url(new URL(link ?? "/").pathname + new URL(link ?? "/").search));
    expect(await partner.getByTestId("partner-username").textContent()).toBe(email);
    await partner.getByLabel("New Password").fill("journey-password-1");
    await partner.getByLabel("Confirm Password").fill("journey-password-1");
    await partner.getByRole("button", { name: "Set password and continue" }).click();
    await partner.waitForURL((u) => u.pathname === "/partner");
    await partner.getByRole("heading", { name: "Partner Portal" }).waitFor();
    expect(await partner.getByTestId("calls-today").textContent()).toBe("0 / 60");
    await partner.getByLabel("Key name").fill("Journey dialer");
    await partner.getByRole("button", { name: "Create key" }).click();
    const key = (await partner.getByTestId("new-api-key").textContent()) ?? "";
    expect(key).toMatch(/^fel_/);
    await partner.getByRole("cell", { name: "Journey dialer" }).waitFor();

    // A buyer pays for 10 transfers on a pricing page: the order waits for its delivery settings.
    const origin = { Origin: new URL(url("/")).origin };
    const started = await admin.request.post(url("/api/create-payment-intent"), {
      data: { amount: 390, callCount: 10, email: `journey_buyer_${tag}@example.com` },
      headers: origin,
    });
    const { orderId, clientSecret } = (await started.json()) as { orderId: string; clientSecret: string };
    await admin.request.post(url("/api/simulated-payments/confirm"), {
      data: { clientSecret, cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" },
      headers: origin,
    });

    // The admin sets it up from /admin-orders: every state, around the clock.
    await admin.goto(url("/admin-orders"));
    const row = admin.locator("tr").filter({ hasText: orderId.slice(0, 8) });
    await row.getByText("Awaiting setup").waitFor();
    await row.getByRole("button", { name: "Set up delivery" }).click();
    const dialog = admin.getByRole("dialog");
    await dialog.getByLabel("Transfer phone number").fill("(555) 303-4040");
    await dialog.getByLabel("States").fill("");
    await dialog.getByLabel("Transfers from").fill("00:00");
    await dialog.getByLabel("Transfers until").fill("00:00");
    await dialog.getByLabel("Transfers per day").fill("50");
    await dialog.getByRole("button", { name: "Save delivery settings" }).click();
    await expect.poll(() => toastText(admin)).toContain("Delivery settings saved");
    await expect.poll(() => row.textContent()).toContain("0 delivered · 10 remaining");

    // Only this order is open to routing while the dialer runs, so every routed call goes to it.
    const others = query<{ order_id: string }>(
      `SELECT order_id FROM order_delivery WHERE paused = 0 AND order_id <> '${orderId}'`,
    ).map((o) => `'${o.order_id}'`);
    const setPaused = (paused: 0 | 1) =>
      others.length && query(`UPDATE order_delivery SET paused = ${paused} WHERE order_id IN (${others.join(",")})`);
    setPaused(1);
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
          baseURL,
        ],
        { encoding: "utf8", timeout: 60_000 },
      );
    } finally {
      setPaused(0);
    }
    expect(output).toContain("routed to 5553034040");

    const [counts] = query<{ transfers_billable: number; transfers_not_charged: number }>(
      `SELECT transfers_billable, transfers_not_charged FROM order_delivery WHERE order_id = '${orderId}'`,
    );
    expect((counts?.transfers_billable ?? 0) + (counts?.transfers_not_charged ?? 0)).toBeGreaterThan(0);
    await admin.reload();
    const delivered = counts?.transfers_billable ?? 0;
    await expect.poll(() => row.textContent()).toContain(`${delivered} delivered · ${10 - delivered} remaining`);
    expect(await row.textContent()).toContain(`${counts?.transfers_not_charged ?? 0} not charged`);

    await partner.reload();
    await partner.getByRole("heading", { name: "Your transfers" }).waitFor();
    const transferRows = partner.getByRole("region", { name: "Your transfers" }).locator("tbody tr");
    await expect.poll(() => transferRows.count()).toBeGreaterThan(0);
  }, 240_000);
});
