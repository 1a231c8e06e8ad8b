/**
 * Buyer webhooks end to end: a buyer adds an endpoint under Integrations, runs
 * `npm run simulate:crm` with its secret (on a free port), sends a test event, buys a lead and sees both
 * delivered in the log (the receiver checked each signature and schema), then rotates the secret and the
 * receiver, given only the new one, still accepts what is sent. axe stays clean on the way.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { resolve } from "node:path";
import type { Page } from "@playwright/test";
import { toolEnv } from "../../scripts/lib/env.ts";
import { createUser } from "./database";
import { axeOf, expect, signIn, test } from "./fixtures";
import { payWith, toast } from "./pay";

test.use({ bypassCSP: true });

const root = resolve(import.meta.dirname, "../..");

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? done(address.port) : fail(new Error("no port"))));
    });
  });
}

/** `npm run simulate:crm -- --port N --secret S`, as a developer would run it; answers its printed lines. */
async function simulateCrm(port: number, secret: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", resolve(root, "scripts/simulate-crm.ts"), "--port", String(port), "--secret", secret],
    { cwd: root, env: toolEnv(), stdio: ["ignore", "pipe", "pipe"] },
  );
  const lines: string[] = [];
  child.stdout?.on("data", (chunk: Buffer) => lines.push(...chunk.toString().split("\n").filter(Boolean)));
  child.stderr?.on("data", (chunk: Buffer) => lines.push(...chunk.toString().split("\n").filter(Boolean)));
  await expect
    .poll(() => lines.some((line) => line.startsWith("Simulated CRM listening")), { timeout: 30_000 })
    .toBe(true);
  return {
    lines,
    stop: () =>
      new Promise<void>((done) => {
        child.once("exit", () => done());
        child.kill("SIGTERM");
      }),
  };
}

async function axeProblems(page: Page): Promise<string[]> {
  const results = await axeOf(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
}

test("add an endpoint, send a test event to simulate:crm, buy a lead, see it delivered, rotate the secret", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const user = await createUser();
  await signIn(page, user.username, user.password, "/dashboard/integrations");
  await expect(page.getByRole("heading", { name: "Integrations" })).toBeVisible();
  await expect(page.getByText("No endpoints yet.")).toBeVisible();
  expect(await axeProblems(page)).toEqual([]);

  const port = await freePort();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await page.getByLabel("Name").fill("Simulated CRM");
  await page.getByLabel("URL").fill("ftp://crm.example.com");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByText("Enter the endpoint's full URL, starting with https://")).toBeVisible();
  expect(await axeProblems(page)).toEqual([]);
  await page.getByLabel("URL").fill(`http://127.0.0.1:${port}/webhooks`);
  await page.getByText("order.paid", { exact: true }).click();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const secretField = page.getByLabel("Signing secret");
  await expect(secretField).toHaveValue(/^whsec_/);
  const secret = await secretField.inputValue();
  expect(await axeProblems(page)).toEqual([]);
  await page.getByRole("button", { name: "I have saved it" }).click();
  await expect(secretField).toHaveCount(0);

  let crm = await simulateCrm(port, secret);
  try {
    await page.getByRole("button", { name: "Send test event" }).click();
    const log = page.getByRole("region", { name: "Delivery log of Simulated CRM" });
    await expect(log.getByRole("row").filter({ hasText: "test" })).toContainText("Delivered", { timeout: 30_000 });
    await expect(log).toContainText(/HTTP 200 in \d+ ms/);
    expect(crm.lines.some((line) => line.includes("✓ 200 test evt_"))).toBe(true);
    expect(await axeProblems(page)).toEqual([]);

    // Buy one lead: its lead.purchased and the order's order.paid reach the CRM.
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Buy Aged Leads" }).click();
    const rows = page.locator("tbody tr");
    await rows.first().getByRole("checkbox").click();
    await page.getByRole("button", { name: "Purchase Selected Leads" }).click();
    await payWith(page, "4242 4242 4242 4242");
    await expect(toast(page, "Bulk Purchase Successful")).toBeVisible();
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Integrations" }).click();
    await page.getByRole("button", { name: "Delivery log" }).click();
    for (const type of ["lead.purchased", "order.paid"]) {
      const row = page.getByRole("row").filter({ hasText: type });
      await expect(async () => {
        await page.getByRole("button", { name: "Show" }).click();
        await expect(row).toContainText("Delivered", { timeout: 2000 });
      }).toPass({ timeout: 45_000 });
    }
    expect(crm.lines.some((line) => line.includes("✓ 200 lead.purchased evt_"))).toBe(true);

    // Filters: only the purchases.
    await page.getByLabel("Event", { exact: true }).selectOption("lead.purchased");
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page.getByText("1 event · page 1 of 1")).toBeVisible();

    // Rotate: the new secret alone verifies what is sent now (the old one signs beside it for 24 hours).
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await expect(secretField).toHaveValue(/^whsec_/);
    const rotated = await secretField.inputValue();
    expect(rotated).not.toBe(secret);
    await expect(page.getByText(/the previous one also signs until/)).toBeVisible();
    await page.getByRole("button", { name: "I have saved it" }).click();
    await crm.stop();
    crm = await simulateCrm(port, rotated);
    await page.getByLabel("Event", { exact: true }).selectOption("test");
    await page.getByRole("button", { name: "Show" }).click();
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect
      .poll(() => crm.lines.filter((line) => line.includes("✓ 200 test evt_")).length, { timeout: 30_000 })
      .toBe(1);
    expect(crm.lines.some((line) => line.includes("bad signature"))).toBe(false);
  } finally {
    await crm.stop();
  }
});

test("the Integrations view fits a 390-px phone and passes axe with an endpoint and its log", async ({ newPage }) => {
  test.setTimeout(90_000);
  const user = await createUser();
  const page = await newPage({ viewport: { width: 390, height: 844 } });
  await signIn(page, user.username, user.password, "/dashboard/integrations");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await page.getByLabel("Name").fill("Phone CRM");
  await page.getByLabel("URL").fill("http://localhost:9/hooks");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await page.getByRole("button", { name: "I have saved it" }).click();
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByRole("region", { name: "Delivery log of Phone CRM" }).getByRole("row")).toHaveCount(2);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await axeProblems(page)).toEqual([]);
});
