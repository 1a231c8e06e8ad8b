import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { setupBrowser } from "./browser";
import { createUser, query } from "./database";
import { payWith, toastText } from "./pay";

const { newPage, url } = setupBrowser();
let counter = 0;
const unique = () => `${Date.now().toString(36)}${++counter}`;

async function fillSurveyAgency(page: Page, username: string, email: string, password = "dana-pass-1") {
  await page.getByLabel("First name").fill("Dana");
  await page.getByLabel("Last name").fill("Writer");
  await page.getByLabel("Agency name").fill("Writer Insurance");
  await page.getByLabel("Insurance Agent").check();
  await page.getByLabel("Phone").fill("5557654321");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Next" }).click();
}

/** Fills the ringcloud wizard's step 1 for rob{tag} and presses Next. */
async function fillRingcloudAgency(page: Page, tag: string, state: string, confirmPassword = "rob-pass-1") {
  await page.getByLabel("Agency name").fill("Ring Co");
  await page.getByLabel("First name").fill("Rob");
  await page.getByLabel("Last name").fill("Ring");
  await page.getByLabel("Email").fill(`rob${tag}@example.com`);
  await page.getByLabel("Phone").fill("5553332222");
  await page.getByLabel("State").selectOption(state);
  await page.getByLabel("Username").fill(`rob${tag}`);
  await page.getByLabel("Password", { exact: true }).fill("rob-pass-1");
  await page.getByLabel("Confirm password").fill(confirmPassword);
  await page.getByRole("button", { name: "Next" }).click();
}

describe("/survey", () => {
  it("walks three steps, saves the account, pays and returns to /login, where the buyer signs in", async () => {
    const page = await newPage();
    await page.goto(url("/survey"));
    await page.getByRole("heading", { name: "Final Expense Lead Survey" }).waitFor();
    expect(await page.getByText("Step 1 of 3").isVisible()).toBe(true);
    expect(await page.getByText("33%").isVisible()).toBe(true);

    await page.getByRole("button", { name: "Next" }).click();
    for (const message of [
      "First name is required",
      "Last name is required",
      "Agency name is required",
      "Please select your role",
      "Phone number must be at least 10 digits",
      "Please enter a valid email address",
      "Username must be at least 3 characters",
      "Password must be at least 8 characters",
    ]) {
      await page.getByText(message).waitFor();
    }

    const tag = unique();
    await fillSurveyAgency(page, `dana${tag}`, `dana${tag}@example.com`);
    await page.getByText("Step 2 of 3").waitFor();
    expect(await page.getByText("67%").isVisible()).toBe(true);
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await page.getByText("Please select a lead type").waitFor();
    await page.getByLabel("Live Transfers").check();
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await page.getByText("Please enter the number of transfers you want").waitFor();
    await page.getByText("Please enter calls per day").waitFor();
    await page.getByText("Please enter transfer hours").waitFor();

    await page.getByLabel("Aged Leads").check();
    await page.getByLabel("Number of leads").fill("20");
    await page.getByLabel("60-90 days").check();
    await page.getByText("$60.00").waitFor();
    await page.getByRole("button", { name: "Continue to Payment" }).click();

    await expect.poll(() => toastText(page)).toContain("Information Saved");
    await page.getByText("Step 3 of 3").waitFor();
    expect(await page.getByText("100%").isVisible()).toBe(true);
    await payWith(page, "4242 4242 4242 4242");
    await page.waitForURL(/\/login\?payment_intent=/);

    await page.getByLabel("Username").fill(`dana${tag}`);
    await page.getByLabel("Password", { exact: true }).fill("dana-pass-1");
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL("**/dashboard");

    const [order] = query<{ status: string; kind: string; total_cents: number; details: string }>(
      `SELECT o.status, o.kind, o.total_cents, o.details FROM orders o JOIN users u ON u.id = o.user_id WHERE u.username = 'dana${tag}'`,
    );
    expect(order).toMatchObject({ status: "paid", kind: "survey", total_cents: 6000 });
    expect(JSON.parse(order?.details ?? "{}")).toMatchObject({ agencyName: "Writer Insurance", ageRange: "60-90" });
  });

  it("going back and forward keeps the account, updates the same survey, and pays the latest answers", {
    timeout: 90_000,
  }, async () => {
    const page = await newPage();
    await page.goto(url("/survey"));
    const tag = unique();
    await fillSurveyAgency(page, `dana${tag}`, `dana${tag}@example.com`);
    // Each step moves focus to its heading.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent), { timeout: 10_000 })
      .toBe("Lead type and details");
    await page.getByLabel("Live Transfers").check();
    await page.getByLabel("Total transfers").fill("10");
    await page.getByLabel("Calls per day").fill("2");
    await page.getByLabel("Transfer hours").fill("9-5");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await page.getByLabel("Card number").waitFor();
    // The card form's arrival is announced by focusing the payment heading.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent), { timeout: 10_000 })
      .toBe("Payment");

    await page.getByRole("button", { name: "Back" }).click();
    await page.getByRole("button", { name: "Back" }).click();
    await page.getByTestId("saved-account").waitFor();
    expect(await page.getByTestId("saved-account").textContent()).toContain(`dana${tag}`);
    await page.getByLabel("Agency name").fill("Writer & Sons");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByLabel("Call-Backs").check();
    await page.getByLabel("Number of callbacks").fill("4");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await page.getByLabel("Card number").waitFor();
    expect(await page.getByText("Username is already taken").count()).toBe(0);
    await payWith(page, "4242 4242 4242 4242", "$60.00");
    await page.waitForURL(/\/login\?payment_intent=/);

    const surveys = query<{ answers: string; users: number }>(
      `SELECT s.answers, (SELECT count(*) FROM users WHERE username = 'dana${tag}') AS users
       FROM survey_responses s JOIN users u ON u.id = s.user_id WHERE u.username = 'dana${tag}'`,
    );
    expect(surveys).toHaveLength(1);
    expect(surveys[0]?.users).toBe(1);
    expect(JSON.parse(surveys[0]?.answers ?? "{}")).toMatchObject({
      leadType: "Call-Backs",
      agencyName: "Writer & Sons",
    });
    const orders = query<{ status: string; total_cents: number }>(
      `SELECT o.status, o.total_cents FROM orders o JOIN users u ON u.id = o.user_id
       WHERE u.username = 'dana${tag}' AND o.status = 'paid'`,
    );
    expect(orders).toEqual([{ status: "paid", total_cents: 6000 }]);
  });

  it("a survey for 50 or more live transfers is offered the high-volume package, preloaded", async () => {
    const page = await newPage();
    await page.goto(url("/survey"));
    const tag = unique();
    await fillSurveyAgency(page, `dana${tag}`, `dana${tag}@example.com`);
    await page.getByLabel("Live Transfers").check();
    await page.getByLabel("Total transfers").fill("49");
    expect(await page.getByRole("link", { name: "Buy them as a high-volume package" }).count()).toBe(0);
    await page.getByLabel("Total transfers").fill("120");
    await page.getByText("120 transfers qualify for our High-Volume Package at $30.00 each.").waitFor();
    await page.getByRole("link", { name: "Buy them as a high-volume package" }).click();
    await page.waitForURL("**/checkout-high-volume");
    await expect.poll(() => page.getByLabel("Number of transfers").inputValue()).toBe("120");
    expect(await page.getByText("100-149 transfers: $30 each").count()).toBeGreaterThan(0);
  });

  it("a save that fails blocks payment with the server's message and 'Try again'", async () => {
    const page = await newPage();
    await page.route("**/api/survey", (route) =>
      route.fulfill({
        status: 429,
        contentType: "application/json",
        body: JSON.stringify({ message: "Too many attempts. Please wait a minute and try again." }),
      }),
    );
    await page.goto(url("/survey"));
    const tag = unique();
    await fillSurveyAgency(page, `dana${tag}`, `dana${tag}@example.com`);
    await page.getByLabel("Call-Backs").check();
    await page.getByLabel("Number of callbacks").fill("3");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    const alert = page.getByRole("alert").filter({ hasText: "Too many attempts" });
    await alert.waitFor();
    expect(await page.getByText("Step 2 of 3").isVisible()).toBe(true);
    expect(await page.getByLabel("Card number").count()).toBe(0);

    await page.unroute("**/api/survey");
    await alert.getByRole("button", { name: "Try again" }).click();
    await page.getByLabel("Card number").waitFor();
    expect(await page.getByText("Step 3 of 3").isVisible()).toBe(true);
  });

  it("sends the buyer back to step 1 when the username is taken", async () => {
    const existing = await createUser();
    const page = await newPage();
    await page.goto(url("/survey"));
    await fillSurveyAgency(page, existing.username, `fresh${unique()}@example.com`);
    await page.getByLabel("Call-Backs").check();
    await page.getByLabel("Number of callbacks").fill("3");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await page.getByText("Username is already taken").waitFor();
    expect(await page.getByText("Step 1 of 3").isVisible()).toBe(true);
  });

  it("sends the buyer back to step 1 when the password is one of the most common", async () => {
    const tag = unique();
    const page = await newPage();
    await page.goto(url("/survey"));
    await fillSurveyAgency(page, `dana${tag}`, `dana${tag}@example.com`, "Password1");
    await page.getByLabel("Call-Backs").check();
    await page.getByLabel("Number of callbacks").fill("3");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await page.getByText("This password is too common. Please choose another.").waitFor();
    expect(await page.getByText("Step 1 of 3").isVisible()).toBe(true);
    expect(query(`SELECT id FROM users WHERE username = 'dana${tag}'`)).toEqual([]);
  });
});

describe("/ringcloud", () => {
  it("collects agency info and preferences, then checks out and lands on /thank-you paid", async () => {
    const page = await newPage();
    await page.goto(url("/ringcloud"));
    await page.getByText("Step 1 of 3").waitFor();
    for (const label of ["Agency Info", "Lead Preferences", "Payment"]) {
      expect(await page.getByRole("listitem").filter({ hasText: label }).count()).toBe(1);
    }
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByText("Agency name is required").waitFor();
    await page.getByText("State is required").waitFor();

    const tag = unique();
    await fillRingcloudAgency(page, tag, "DC", "rob-pass-2");
    await page.getByText("Passwords don't match").waitFor();
    await page.getByLabel("Confirm password").fill("rob-pass-1");
    await page.getByRole("button", { name: "Next" }).click();

    await page.getByRole("heading", { name: "Lead Preferences" }).waitFor();
    await page.getByLabel("Live Transfers").check();
    await page.getByLabel("Transfers per day").fill("4");
    await page.getByLabel("Total transfers").fill("12");
    await page.getByLabel("Transfer hours").fill("9-5 EST");
    await page.getByLabel("Transfer phone").fill("5554443333");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await page.getByText("Please list the states you work in").waitFor();
    await page.getByLabel("States you work in").fill("DC, MD");
    await page.getByRole("button", { name: "Continue to Payment" }).click();

    await page.waitForURL(
      /\/ringcloud-checkout\?amount=444&calls=12&tier=ringcloud&packageType=live_transfers&pricePerUnit=37/,
    );
    await page.getByRole("heading", { name: "Live Transfer Package" }).waitFor();
    for (const text of ["Premium insurance leads", "TCPA compliant leads", "Real-time delivery", "Dedicated support"]) {
      expect(await page.getByRole("listitem").filter({ hasText: text }).count()).toBe(1);
    }
    for (const money of ["$444.00", "$37.00"]) expect(await page.getByText(money, { exact: true }).count()).toBe(1);
    expect(await page.getByRole("link", { name: "Back to Survey" }).getAttribute("href")).toMatch(
      /^\/ringcloud\?survey=[0-9a-f-]{36}$/,
    );
    await page.getByRole("button", { name: "Complete Purchase" }).click();
    await expect.poll(() => toastText(page)).toContain("Redirecting to Payment");
    await payWith(page, "4242 4242 4242 4242");
    await page.waitForURL(/\/thank-you\?order=/);
    await page.getByRole("heading", { name: "Payment Successful" }).waitFor();
    expect(await page.getByText("support@example.com").isVisible()).toBe(true);
  });

  it("'Back to Survey' resumes the saved survey: same account, new answers, payment follows them", {
    timeout: 120_000,
  }, async () => {
    const page = await newPage();
    await page.goto(url("/ringcloud"));
    const tag = unique();
    await fillRingcloudAgency(page, tag, "TX");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent), { timeout: 10_000 })
      .toBe("Lead Preferences");
    await page.getByLabel("Call-Backs").check();
    await page.getByLabel("Number of call-backs").fill("10");
    await page.getByLabel("Morning").check();
    await page.getByLabel("States you work in").fill("TX");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await page.waitForURL(/\/ringcloud-checkout\?/);
    const firstSurvey = new URL(page.url()).searchParams.get("survey");

    await page.getByRole("link", { name: "Back to Survey" }).click();
    await page.getByRole("heading", { name: "Lead Preferences" }).waitFor();
    expect(await page.getByLabel("Number of call-backs").inputValue()).toBe("10");
    await page.getByLabel("Number of call-backs").fill("12");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await page.waitForURL(/\/ringcloud-checkout\?amount=180&calls=12/);
    expect(new URL(page.url()).searchParams.get("survey")).toBe(firstSurvey);

    await page.getByRole("link", { name: "Back to Survey" }).click();
    await page.getByRole("heading", { name: "Lead Preferences" }).waitFor();
    await page.getByRole("button", { name: "Back" }).click();
    await page.getByTestId("saved-account").waitFor();
    expect(await page.getByLabel("Username").count()).toBe(0);
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await page.waitForURL(/\/ringcloud-checkout\?amount=180&calls=12/);
    await page.getByRole("button", { name: "Complete Purchase" }).click();
    await payWith(page, "4242 4242 4242 4242", "$180.00");
    await page.waitForURL(/\/thank-you\?order=/);
    expect(query<{ n: number }>(`SELECT count(*) AS n FROM users WHERE username = 'rob${tag}'`)).toEqual([{ n: 1 }]);
    const paid = query<{ total_cents: number }>(
      `SELECT o.total_cents FROM orders o JOIN users u ON u.id = o.user_id WHERE u.username = 'rob${tag}' AND o.status = 'paid'`,
    );
    expect(paid).toEqual([{ total_cents: 18000 }]);
  });

  it("the checkout waits for package details when the query is incomplete", async () => {
    const page = await newPage();
    await page.goto(url("/ringcloud-checkout?amount=0&calls=5&packageType=call_backs"));
    await page.getByText("Loading package details...").waitFor();
    expect(await page.getByRole("button", { name: "Complete Purchase" }).count()).toBe(0);
  });

  it("a tampered amount in the query is refused by the server", async () => {
    const page = await newPage();
    await page.goto(
      url("/ringcloud-checkout?amount=1&calls=10&tier=ringcloud&packageType=live_transfers&pricePerUnit=0.1"),
    );
    await page.getByRole("button", { name: "Complete Purchase" }).click();
    await expect.poll(() => toastText(page)).toContain("Payment Failed");
    // The server's reason, in place, with a way on.
    const alert = page
      .getByRole("alert")
      .filter({ hasText: "The amount does not match the price of this order ($370.00)." });
    await alert.waitFor();
    expect(await alert.getByRole("button", { name: "Try again" }).count()).toBe(1);
    expect(await page.getByLabel("Card number").count()).toBe(0);
  });
});

describe("thank-you and survey-success", () => {
  it("/thank-you without a confirmed payment says the order is being processed", async () => {
    const page = await newPage();
    await page.goto(url("/thank-you"));
    await page.getByRole("heading", { name: "Thank You - Your order is being processed" }).waitFor();
    expect(await page.getByRole("link", { name: "Login to Your Account" }).getAttribute("href")).toBe("/login");
    expect(await page.getByRole("link", { name: "Return to Home" }).getAttribute("href")).toBe("/");
    expect(await page.getByText("support@example.com").isVisible()).toBe(true);
  });

  it("/survey-success thanks the buyer with confetti and a way to log in", async () => {
    const page = await newPage();
    await page.goto(url("/survey-success"));
    expect(await page.getByRole("link", { name: "Login to Your Account" }).getAttribute("href")).toBe("/login");
    await expect.poll(() => page.locator("canvas").count(), { timeout: 3000 }).toBeGreaterThan(0);
  });
});
