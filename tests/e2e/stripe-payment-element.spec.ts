/**
 * The real Stripe card path (src/features/orders/views/payment/StripeCardForm.tsx): @stripe/stripe-js's `loadStripe`,
 * @stripe/react-stripe-js's `Elements` and `PaymentElement`, and `stripe.confirmPayment`, against a local
 * stand-in for Stripe.js (tests/e2e/stripe-stand-in.js) and without any network. The server creates the order
 * with its simulated provider; the test hands the browser a Stripe answer for it (provider "stripe" with a
 * publishable key), as a Stripe-configured server does, so the checkout takes the Stripe path.
 */
import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { orders } from "../../worker/db/schema";
import { e2eDb } from "./database";
import { expect, test } from "./fixtures";
import { briefToast, toast } from "./pay";

const STAND_IN = readFileSync(new URL("./stripe-stand-in.js", import.meta.url), "utf8");
const PUBLISHABLE_KEY = "pk_test_local_stand_in";

interface StripeRun {
  /** Every request that left this machine (none may: the stand-in is served locally). */
  outside: string[];
  /** Stripe.js requests answered by the stand-in. */
  stripeJs: string[];
  problems: string[];
}

async function withStripe(page: Page): Promise<StripeRun> {
  const run: StripeRun = { outside: [], stripeJs: [], problems: [] };
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") run.problems.push(message.text());
  });
  page.on("pageerror", (error) => run.problems.push(error.message));
  page.on("request", (request) => {
    const { hostname } = new URL(request.url());
    if (!["127.0.0.1", "localhost"].includes(hostname)) run.outside.push(request.url());
  });
  // Anything on Stripe's hosts would be the network: refused (and recorded above)…
  await page.route(/^https:\/\/([a-z-]+\.)*stripe\.(com|network)\//, (route) => route.abort());
  // …but Stripe.js itself, which the stand-in answers (the route added last is asked first).
  await page.route("https://js.stripe.com/**", (route) => {
    run.stripeJs.push(route.request().url());
    return route.fulfill({ contentType: "application/javascript", body: STAND_IN });
  });
  await page.route("**/api/create-payment-intent", async (route) => {
    const response = await route.fetch();
    const start = (await response.json()) as Record<string, unknown>;
    await route.fulfill({ response, json: { ...start, provider: "stripe", publishableKey: PUBLISHABLE_KEY } });
  });
  return run;
}

/** Opens the special checkout, prepares a payment and waits for Stripe's Payment Element to be ready. */
async function openPaymentElement(page: Page): Promise<{ orderId: string; clientSecret: string }> {
  await page.goto("/checkout");
  await page.getByLabel("Email for your receipt").fill("stripe-buyer@example.com");
  const started = page.waitForResponse("**/api/create-payment-intent");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  const payment = (await (await started).json()) as { orderId: string; clientSecret: string };
  await expect(page.getByLabel("Card number (Stripe stand-in)")).toBeVisible();
  // The submit button waits for the element's "ready" event.
  await expect(page.getByRole("button", { name: "Complete Payment - $975.00" })).toBeEnabled();
  await expect(page.getByText("Card details go straight to our card provider, Stripe")).toBeVisible();
  return payment;
}

const orderStatus = async (orderId: string) =>
  (await e2eDb().select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)))[0]?.status;

test.describe("Stripe's Payment Element (local Stripe.js stand-in)", () => {
  test("mounts through Elements with the payment's client secret and pays", async ({ page }) => {
    const run = await withStripe(page);
    const { orderId, clientSecret } = await openPaymentElement(page);
    const seen = await page.evaluate(
      () => (window as unknown as { __stripeStandIn: Record<string, unknown> }).__stripeStandIn,
    );
    expect(seen.publishableKey).toBe(PUBLISHABLE_KEY);
    expect(seen.elements).toEqual(["payment"]);
    expect(seen.clientSecret).toBe(clientSecret);

    await page.getByLabel("Card number (Stripe stand-in)").fill("4242 4242 4242 4242");
    await page.getByRole("button", { name: "Complete Payment - $975.00" }).click();
    await briefToast(page, "Payment Successful");
    await expect(page).toHaveURL(
      /\/onboarding-success\?order=[^&]+&payment_intent=[^&]+&payment_intent_client_secret=/,
    );
    await expect(page.getByText("Payment received")).toBeVisible();
    expect(await orderStatus(orderId)).toBe("paid");
    expect(run.stripeJs.length).toBeGreaterThan(0);
    expect(run.outside.every((url) => run.stripeJs.includes(url))).toBe(true);
    expect(run.problems).toEqual([]);
  });

  test("shows Stripe's reason when the card is declined, and lets the buyer try again", async ({ page }) => {
    const run = await withStripe(page);
    const { orderId } = await openPaymentElement(page);
    await page.getByLabel("Card number (Stripe stand-in)").fill("4000 0000 0000 0002");
    await page.getByRole("button", { name: "Complete Payment - $975.00" }).click();
    await expect(toast(page, "Payment Failed")).toContainText("Your card was declined.");
    await expect(page).toHaveURL(/\/checkout$/);
    expect(await orderStatus(orderId)).toBe("pending");
    // The form is there again for another card.
    await expect(page.getByRole("button", { name: "Complete Payment - $975.00" })).toBeEnabled();
    expect(run.outside.every((url) => run.stripeJs.includes(url))).toBe(true);
    expect(run.problems.filter((text) => !/status of 402/.test(text))).toEqual([]);
  });

  test("comes back from a redirect-style confirmation to the order's paid status", async ({ page }) => {
    const run = await withStripe(page);
    const { orderId } = await openPaymentElement(page);
    await page.getByLabel("Card number (Stripe stand-in)").fill("4000 0025 0000 3155");
    await page.getByRole("button", { name: "Complete Payment - $975.00" }).click();
    // Stripe.js leaves the page itself; the return URL is the one the checkout gave confirmPayment.
    await expect(page).toHaveURL(
      new RegExp(
        `/onboarding-success\\?order=${orderId}&payment_intent=[^&]+&payment_intent_client_secret=[^&]+&redirect_status=succeeded$`,
      ),
    );
    await expect(page.getByText("Payment received")).toBeVisible();
    expect(await orderStatus(orderId)).toBe("paid");
    expect(run.outside.every((url) => run.stripeJs.includes(url))).toBe(true);
    expect(run.problems).toEqual([]);
  });
});
