import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { orders, surveyResponses, users } from "../../worker/db/schema";
import { createLeads } from "../worker/factories/leads";
import { createUser, e2eDb, userIdOf } from "./database";
import { expect, test } from "./fixtures";
import { payWith, toast } from "./pay";

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

/** `count` listed leads 75 days old (band 60-90, product rule 5), for an aged-lead bundle to take. */
async function seedLeadsOf60To90Days(count: number, tag: string) {
  const now = Date.now();
  await createLeads(e2eDb(), count, (i) => ({
    id: `bundle-${tag}-${i + 1}`,
    name: `Bundle Lead ${i + 1}`,
    email: `bundle${i + 1}@example.com`,
    phone: `808${String(Math.floor(Math.random() * 10_000_000)).padStart(7, "0")}`,
    state: "TX",
    formFillTime: new Date(now - 75 * 86_400_000 - (i + 1) * 1000),
    dedupeKey: `bundle-${tag}|${i + 1}`,
  }));
}

/** The orders of the user named `username` (a journey's new account). */
function ordersOf(username: string) {
  return e2eDb()
    .select({ status: orders.status, kind: orders.kind, totalCents: orders.totalCents, details: orders.details })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(users.username, username));
}

test.describe("/survey", () => {
  test("walks three steps, saves the account, pays and returns to /login, where the buyer signs in", async ({
    page,
  }) => {
    await page.goto("/survey");
    await expect(page.getByRole("heading", { name: "Final Expense Lead Survey" })).toBeVisible();
    await expect(page.getByText("Step 1 of 3")).toBeVisible();
    await expect(page.getByText("33%")).toBeVisible();

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
      await expect(page.getByText(message)).toBeVisible();
    }

    const tag = unique();
    await fillSurveyAgency(page, `dana${tag}`, `dana${tag}@example.com`);
    await expect(page.getByText("Step 2 of 3")).toBeVisible();
    await expect(page.getByText("67%")).toBeVisible();
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page.getByText("Please select a lead type")).toBeVisible();
    await page.getByLabel("Live Transfers").check();
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page.getByText("Please enter the number of transfers you want")).toBeVisible();
    await expect(page.getByText("Please enter calls per day")).toBeVisible();
    await expect(page.getByText("Please enter transfer hours")).toBeVisible();

    await page.getByLabel("Aged Leads").check();
    await page.getByLabel("60-90 days").check();
    // More aged leads than the stock holds: refused where the buyer continues to payment (decision 0057).
    await page.getByLabel("Number of leads").fill("99999");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page.getByText(/^Only \d+ leads? of 60-90 days (is|are) available$/)).toBeVisible();
    await expect(page.getByText("Step 2 of 3")).toBeVisible();
    await seedLeadsOf60To90Days(20, tag);
    await page.getByLabel("Number of leads").fill("20");
    await expect(page.getByText("$60.00")).toBeVisible();
    await page.getByRole("button", { name: "Continue to Payment" }).click();

    await expect(toast(page, "Information Saved")).toBeVisible();
    await expect(page.getByText("Step 3 of 3")).toBeVisible();
    await expect(page.getByText("100%")).toBeVisible();
    await payWith(page, "4242 4242 4242 4242");
    await expect(page).toHaveURL(/\/login\?payment_intent=/);

    await page.getByLabel("Username").fill(`dana${tag}`);
    await page.getByLabel("Password", { exact: true }).fill("dana-pass-1");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);

    const [order] = await ordersOf(`dana${tag}`);
    expect(order).toMatchObject({ status: "paid", kind: "survey", totalCents: 6000 });
    expect(order?.details ?? {}).toMatchObject({ agencyName: "Writer Insurance", ageRange: "60-90" });
    // The bundle's 20 leads are in My Leads at once.
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "My Leads" }).click();
    await expect(page.getByText("20 leads · page 1 of 1")).toBeVisible();
  });

  test("going back and forward keeps the account, updates the same survey, and pays the latest answers", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.goto("/survey");
    const tag = unique();
    await fillSurveyAgency(page, `dana${tag}`, `dana${tag}@example.com`);
    // Each step moves focus to its heading.
    await expect(page.locator(":focus")).toHaveText("Lead type and details");
    await page.getByLabel("Live Transfers").check();
    await page.getByLabel("Total transfers").fill("10");
    await page.getByLabel("Calls per day").fill("2");
    await page.getByLabel("Transfer hours").fill("9-5");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page.getByLabel("Card number")).toBeVisible();
    // The card form's arrival is announced by focusing the payment heading.
    await expect(page.locator(":focus")).toHaveText("Payment");

    await page.getByRole("button", { name: "Back" }).click();
    await page.getByRole("button", { name: "Back" }).click();
    await expect(page.getByTestId("saved-account")).toBeVisible();
    await expect(page.getByTestId("saved-account")).toContainText(`dana${tag}`);
    await page.getByLabel("Agency name").fill("Writer & Sons");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByLabel("Call-Backs").check();
    await page.getByLabel("Number of callbacks").fill("4");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page.getByLabel("Card number")).toBeVisible();
    await expect(page.getByText("Username is already taken")).toHaveCount(0);
    await payWith(page, "4242 4242 4242 4242", "$60.00");
    await expect(page).toHaveURL(/\/login\?payment_intent=/);

    const db = e2eDb();
    const surveys = await db
      .select({ answers: surveyResponses.answers })
      .from(surveyResponses)
      .innerJoin(users, eq(users.id, surveyResponses.userId))
      .where(eq(users.username, `dana${tag}`));
    expect(surveys).toHaveLength(1);
    expect(await db.$count(users, eq(users.username, `dana${tag}`))).toBe(1);
    expect(surveys[0]?.answers ?? {}).toMatchObject({
      leadType: "Call-Backs",
      agencyName: "Writer & Sons",
    });
    const paid = (await ordersOf(`dana${tag}`)).filter((order) => order.status === "paid");
    expect(paid.map(({ status, totalCents }) => ({ status, totalCents }))).toEqual([
      { status: "paid", totalCents: 6000 },
    ]);
  });

  test("a lead type chosen after Aged Leads still continues to payment: the age choice it hid is not asked", async ({
    page,
  }) => {
    await page.goto("/survey");
    const tag = unique();
    await fillSurveyAgency(page, `dana${tag}`, `dana${tag}@example.com`);
    await expect(page.getByText("Step 2 of 3")).toBeVisible();
    await page.getByLabel("Aged Leads").check();
    await expect(page.getByLabel("60-90 days")).toBeVisible();
    await page.getByLabel("Live Transfers").check();
    await page.getByLabel("Total transfers").fill("10");
    await page.getByLabel("Calls per day").fill("2");
    await page.getByLabel("Transfer hours").fill("9-5 EST");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page.getByText("Step 3 of 3")).toBeVisible();
  });

  test("a survey for 50 or more live transfers is offered the high-volume package, preloaded", async ({ page }) => {
    await page.goto("/survey");
    const tag = unique();
    await fillSurveyAgency(page, `dana${tag}`, `dana${tag}@example.com`);
    await page.getByLabel("Live Transfers").check();
    await page.getByLabel("Total transfers").fill("49");
    await expect(page.getByRole("link", { name: "Buy them as a high-volume package" })).toHaveCount(0);
    await page.getByLabel("Total transfers").fill("120");
    await expect(page.getByText("120 transfers qualify for our High-Volume Package at $30.00 each.")).toBeVisible();
    await page.getByRole("link", { name: "Buy them as a high-volume package" }).click();
    await expect(page).toHaveURL(/\/checkout-high-volume$/);
    await expect(page.getByLabel("Number of transfers")).toHaveValue("120");
    await expect(page.getByText("100-149 transfers: $30 each").first()).toBeAttached();
  });

  test("a save that fails blocks payment with the server's message and 'Try again'", async ({ page }) => {
    await page.route("**/api/survey", (route) =>
      route.fulfill({
        status: 429,
        contentType: "application/json",
        body: JSON.stringify({ message: "Too many attempts. Please wait a minute and try again." }),
      }),
    );
    await page.goto("/survey");
    const tag = unique();
    await fillSurveyAgency(page, `dana${tag}`, `dana${tag}@example.com`);
    await page.getByLabel("Call-Backs").check();
    await page.getByLabel("Number of callbacks").fill("3");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    const alert = page.getByRole("alert").filter({ hasText: "Too many attempts" });
    await expect(alert).toBeVisible();
    await expect(page.getByText("Step 2 of 3")).toBeVisible();
    await expect(page.getByLabel("Card number")).toHaveCount(0);

    await page.unroute("**/api/survey");
    await alert.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByLabel("Card number")).toBeVisible();
    await expect(page.getByText("Step 3 of 3")).toBeVisible();
  });

  test("sends the buyer back to step 1 when the username is taken", async ({ page }) => {
    const existing = await createUser();
    await page.goto("/survey");
    await fillSurveyAgency(page, existing.username, `fresh${unique()}@example.com`);
    await page.getByLabel("Call-Backs").check();
    await page.getByLabel("Number of callbacks").fill("3");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page.getByText("Username is already taken")).toBeVisible();
    await expect(page.getByText("Step 1 of 3")).toBeVisible();
  });

  test("sends the buyer back to step 1 when the password is one of the most common", async ({ page }) => {
    const tag = unique();
    await page.goto("/survey");
    await fillSurveyAgency(page, `dana${tag}`, `dana${tag}@example.com`, "Password1");
    await page.getByLabel("Call-Backs").check();
    await page.getByLabel("Number of callbacks").fill("3");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page.getByText("This password is too common. Please choose another.")).toBeVisible();
    await expect(page.getByText("Step 1 of 3")).toBeVisible();
    expect(await userIdOf(`dana${tag}`)).toBeUndefined();
  });
});

test.describe("/ringcloud", () => {
  test("collects agency info and preferences, then checks out and lands on /thank-you paid", async ({ page }) => {
    await page.goto("/ringcloud");
    await expect(page.getByText("Step 1 of 3")).toBeVisible();
    for (const label of ["Agency Info", "Lead Preferences", "Payment"]) {
      await expect(page.getByRole("listitem").filter({ hasText: label })).toHaveCount(1);
    }
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByText("Agency name is required")).toBeVisible();
    await expect(page.getByText("State is required")).toBeVisible();

    const tag = unique();
    await fillRingcloudAgency(page, tag, "DC", "rob-pass-2");
    await expect(page.getByText("Passwords don't match")).toBeVisible();
    await page.getByLabel("Confirm password").fill("rob-pass-1");
    await page.getByRole("button", { name: "Next" }).click();

    await expect(page.getByRole("heading", { name: "Lead Preferences" })).toBeVisible();
    await page.getByLabel("Live Transfers").check();
    await page.getByLabel("Transfers per day").fill("4");
    await page.getByLabel("Total transfers").fill("12");
    await page.getByLabel("Transfer hours").fill("9-5 EST");
    await page.getByLabel("Transfer phone").fill("5554443333");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page.getByText("Please list the states you work in")).toBeVisible();
    await page.getByLabel("States you work in").fill("DC, MD");
    await page.getByRole("button", { name: "Continue to Payment" }).click();

    await expect(page).toHaveURL(
      /\/ringcloud-checkout\?amount=444&calls=12&tier=ringcloud&packageType=live_transfers&pricePerUnit=37/,
    );
    await expect(page.getByRole("heading", { name: "Live Transfer Package" })).toBeVisible();
    for (const text of ["Premium insurance leads", "TCPA compliant leads", "Real-time delivery", "Dedicated support"]) {
      await expect(page.getByRole("listitem").filter({ hasText: text })).toHaveCount(1);
    }
    for (const money of ["$444.00", "$37.00"]) await expect(page.getByText(money, { exact: true })).toHaveCount(1);
    await expect(page.getByRole("link", { name: "Back to Survey" })).toHaveAttribute(
      "href",
      /^\/ringcloud\?survey=[0-9a-f-]{36}$/,
    );
    await page.getByRole("button", { name: "Complete Purchase" }).click();
    await expect(toast(page, "Redirecting to Payment")).toBeVisible();
    await payWith(page, "4242 4242 4242 4242");
    await expect(page).toHaveURL(/\/thank-you\?order=/);
    await expect(page.getByRole("heading", { name: "Payment Successful" })).toBeVisible();
    await expect(page.getByText("support@example.com")).toBeVisible();
  });

  test("a lead type chosen after Aged Leads still continues to payment in the ringcloud wizard too", async ({
    page,
  }) => {
    await page.goto("/ringcloud");
    await fillRingcloudAgency(page, unique(), "TX");
    await expect(page.getByRole("heading", { name: "Lead Preferences" })).toBeVisible();
    await page.getByLabel("Aged Leads (partial applications)").check();
    await page.getByLabel("Live Transfers").check();
    await page.getByLabel("Transfers per day").fill("4");
    await page.getByLabel("Total transfers").fill("12");
    await page.getByLabel("Transfer hours").fill("9-5 EST");
    await page.getByLabel("Transfer phone").fill("5554443333");
    await page.getByLabel("States you work in").fill("TX");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page).toHaveURL(/\/ringcloud-checkout\?/);
  });

  test("'Back to Survey' resumes the saved survey: same account, new answers, payment follows them", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.goto("/ringcloud");
    const tag = unique();
    await fillRingcloudAgency(page, tag, "TX");
    await expect(page.locator(":focus")).toHaveText("Lead Preferences");
    await page.getByLabel("Call-Backs").check();
    await page.getByLabel("Number of call-backs").fill("10");
    await page.getByLabel("Morning").check();
    await page.getByLabel("States you work in").fill("TX");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page).toHaveURL(/\/ringcloud-checkout\?/);
    const firstSurvey = new URL(page.url()).searchParams.get("survey");

    await page.getByRole("link", { name: "Back to Survey" }).click();
    await expect(page.getByRole("heading", { name: "Lead Preferences" })).toBeVisible();
    await expect(page.getByLabel("Number of call-backs")).toHaveValue("10");
    await page.getByLabel("Number of call-backs").fill("12");
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page).toHaveURL(/\/ringcloud-checkout\?amount=180&calls=12/);
    expect(new URL(page.url()).searchParams.get("survey")).toBe(firstSurvey);

    await page.getByRole("link", { name: "Back to Survey" }).click();
    await expect(page.getByRole("heading", { name: "Lead Preferences" })).toBeVisible();
    await page.getByRole("button", { name: "Back" }).click();
    await expect(page.getByTestId("saved-account")).toBeVisible();
    await expect(page.getByLabel("Username")).toHaveCount(0);
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page).toHaveURL(/\/ringcloud-checkout\?amount=180&calls=12/);
    await page.getByRole("button", { name: "Complete Purchase" }).click();
    await payWith(page, "4242 4242 4242 4242", "$180.00");
    await expect(page).toHaveURL(/\/thank-you\?order=/);
    expect(await e2eDb().$count(users, eq(users.username, `rob${tag}`))).toBe(1);
    const paid = (await ordersOf(`rob${tag}`)).filter((order) => order.status === "paid");
    expect(paid.map(({ totalCents }) => ({ totalCents }))).toEqual([{ totalCents: 18000 }]);
  });

  test("the checkout waits for package details when the query is incomplete", async ({ page }) => {
    await page.goto("/ringcloud-checkout?amount=0&calls=5&packageType=call_backs");
    await expect(page.getByText("Loading package details...")).toBeVisible();
    await expect(page.getByRole("button", { name: "Complete Purchase" })).toHaveCount(0);
  });

  test("a tampered amount in the query is refused by the server", async ({ page }) => {
    await page.goto("/ringcloud-checkout?amount=1&calls=10&tier=ringcloud&packageType=live_transfers&pricePerUnit=0.1");
    await page.getByRole("button", { name: "Complete Purchase" }).click();
    await expect(toast(page, "Payment Failed")).toBeVisible();
    // The server's reason, in place, with a way on.
    const alert = page
      .getByRole("alert")
      .filter({ hasText: "The amount does not match the price of this order ($370.00)." });
    await expect(alert).toBeVisible();
    await expect(alert.getByRole("button", { name: "Try again" })).toHaveCount(1);
    await expect(page.getByLabel("Card number")).toHaveCount(0);
  });
});

test.describe("thank-you and survey-success", () => {
  test("/thank-you without a confirmed payment says the order is being processed", async ({ page }) => {
    await page.goto("/thank-you");
    await expect(page.getByRole("heading", { name: "Thank You - Your order is being processed" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Login to Your Account" })).toHaveAttribute("href", "/login");
    await expect(page.getByRole("link", { name: "Return to Home" })).toHaveAttribute("href", "/");
    await expect(page.getByText("support@example.com")).toBeVisible();
  });

  test("/survey-success thanks the buyer with confetti and a way to log in", async ({ page }) => {
    await page.goto("/survey-success");
    await expect(page.getByRole("link", { name: "Login to Your Account" })).toHaveAttribute("href", "/login");
    await expect(page.locator("canvas").first()).toBeAttached({ timeout: 3000 });
  });
});
