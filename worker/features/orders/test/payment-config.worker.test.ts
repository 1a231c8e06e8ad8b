/** Who may take, start and read payments: simulated payments, throttling, card only, order status, anonymous checkout. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import {
  buyLeads,
  createLeads,
  orderRow,
  payWithCard,
  type Started,
  simulatedIntentOf,
} from "../../../../tests/worker/payment-fixtures";

/** What `wrangler deploy` runs with: the committed wrangler.toml, no opt-in, a real host name. */
const DEPLOYED = {
  env: { APP_ENV: "production", ALLOW_SIMULATED_PAYMENTS: undefined },
  origin: "https://shop.example.com",
};
const STRIPE = {
  STRIPE_SECRET_KEY: "sk_test_x",
  PUBLIC_STRIPE_PUBLISHABLE_KEY: "pk_test_x",
  STRIPE_WEBHOOK_SECRET: "whsec_x",
};

const special = (email = "config-buyer@example.com") => ({ amount: 39, callCount: 1, email });

async function startSpecial(options: Parameters<typeof callApi>[1] = {}) {
  return callApi("/api/create-payment-intent", { json: special(), ...options });
}

describe("simulated payments only where the server opts in, on localhost (product rule 9)", () => {
  it("a deployed-like configuration refuses to confirm a simulated payment and the order stays pending", async () => {
    const start = await (await startSpecial()).json<Started>();
    const cases = [
      DEPLOYED,
      // opted in, but the request is for a real host
      { origin: "https://shop.example.com" },
      // on localhost, but without the opt-in
      { env: { ALLOW_SIMULATED_PAYMENTS: undefined } },
      // opted in on localhost, but APP_ENV=production
      { env: { APP_ENV: "production" } },
    ];
    for (const options of cases) {
      const response = await callApi("/api/simulated-payments/confirm", {
        json: { clientSecret: start.clientSecret, cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" },
        ...options,
      });
      expect(response.status, JSON.stringify(options)).toBe(503);
      expect(await response.json()).toEqual({ message: "Payments are not configured. Please contact support." });
    }
    expect(await orderRow(start.orderId)).toMatchObject({ status: "pending", paid_at: null });
    expect(await simulatedIntentOf(start.orderId)).toMatchObject({ status: "requires_payment_method" });
  });

  it("a deployed-like configuration starts no payment at all", async () => {
    const response = await startSpecial(DEPLOYED);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ message: "Payments are not configured. Please contact support." });
  });

  it("127.0.0.1 counts as localhost (the e2e server)", async () => {
    const start = await (await startSpecial({ origin: "http://127.0.0.1:8787" })).json<Started>();
    const paid = await callApi("/api/simulated-payments/confirm", {
      json: { clientSecret: start.clientSecret, cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" },
      origin: "http://127.0.0.1:8787",
    });
    expect(paid.status).toBe(200);
  });

  it.each([
    [{ STRIPE_SECRET_KEY: "sk_test_x" }, "PUBLIC_STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET are missing"],
    [
      { STRIPE_SECRET_KEY: "sk_test_x", PUBLIC_STRIPE_PUBLISHABLE_KEY: "pk_test_x" },
      "STRIPE_WEBHOOK_SECRET is missing",
    ],
    [{ STRIPE_WEBHOOK_SECRET: "whsec_x" }, "STRIPE_SECRET_KEY, PUBLIC_STRIPE_PUBLISHABLE_KEY are missing"],
  ])(
    "partly configured Stripe %j refuses every payment with 503 naming the missing setting",
    async (partial, missing) => {
      const anonymous = await startSpecial({ env: partial });
      expect(anonymous.status).toBe(503);
      expect((await anonymous.json<{ message: string }>()).message).toContain(missing);

      const { cookie } = await signedIn();
      const [lead] = await createLeads(1);
      const leads = await callApi("/api/bulk-purchase-leads", { json: { leadIds: [lead] }, cookie, env: partial });
      expect(leads.status).toBe(503);
      expect((await leads.json<{ message: string }>()).message).toContain(missing);
      // The refused purchase left the lead on sale.
      expect((await buyLeads(cookie, [lead as string])).status).toBe(200);

      const health = await callApi("/api/health", { env: partial });
      expect(await health.json()).toMatchObject({
        payments: "unavailable",
        paymentsReason: expect.stringContaining(missing),
      });
    },
  );

  it("GET /api/health names the active provider", async () => {
    const provider = async (options: Parameters<typeof callApi>[1]) =>
      (await (await callApi("/api/health", options)).json<{ payments: string }>()).payments;
    expect(await provider({})).toBe("simulated");
    expect(await provider(DEPLOYED)).toBe("unavailable");
    expect(await provider({ env: { ...DEPLOYED.env, ...STRIPE }, origin: DEPLOYED.origin })).toBe("stripe");
  });
});

describe("GET /api/orders/:id/status answers only the owner or the payment's holder", () => {
  it("the client secret opens it; no secret, a wrong one or another buyer get 404", async () => {
    const start = await (await startSpecial()).json<Started>();
    const path = `/api/orders/${start.orderId}/status`;
    const withSecret = await callApi(`${path}?client_secret=${encodeURIComponent(start.clientSecret)}`);
    expect(withSecret.status).toBe(200);
    expect(await withSecret.json()).toEqual({
      id: start.orderId,
      kind: "package",
      status: "pending",
      quantity: 1,
      totalCents: 3900,
      deliverySetupEmailedTo: null,
      notCharged: 0,
      notice: null,
    });
    expect((await callApi(path)).status).toBe(404);
    expect((await callApi(`${path}?client_secret=${encodeURIComponent(`${start.clientSecret}x`)}`)).status).toBe(404);
    const stranger = await signedIn();
    const asStranger = await callApi(path, { cookie: stranger.cookie });
    expect(asStranger.status).toBe(404);
    expect(await asStranger.json()).toEqual({ message: "Order not found" });
  });

  it("the signed-in owner reads it without the secret", async () => {
    const { cookie } = await signedIn();
    const start = await (
      await callApi("/api/create-payment-intent", { json: { amount: 39, callCount: 1 }, cookie })
    ).json<Started>();
    const response = await callApi(`/api/orders/${start.orderId}/status`, { cookie });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "pending" });
  });
});

describe("an anonymous checkout never joins an account by e-mail (product rule 10)", () => {
  it("keeps the e-mail only, and the account's My Orders does not show it", async () => {
    const { user, cookie } = await signedIn();
    const start = await (await startSpecial({ json: special(user.email) })).json<Started>();
    expect(await orderRow(start.orderId)).toMatchObject({ user_id: null, email: user.email });
    await payWithCard(start.clientSecret);
    const mine = await (await callApi("/api/my-orders", { cookie })).json<{ id: string }[]>();
    expect(mine.map((order) => order.id)).not.toContain(start.orderId);
    expect((await callApi(`/api/orders/${start.orderId}/status`, { cookie })).status).toBe(404);
  });
});

describe("payment intents are throttled", () => {
  it("an anonymous address starts 10 a minute, then gets 429 with a message", async () => {
    const address = { "CF-Connecting-IP": `10.200.${Math.floor(Math.random() * 250)}.7` };
    for (let i = 0; i < 10; i++) expect((await startSpecial({ headers: address })).status).toBe(200);
    const refused = await startSpecial({ headers: address });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ message: "Too many attempts. Please wait a minute and try again." });
    // Another address is not affected.
    expect((await startSpecial()).status).toBe(200);
  });
});

describe("aged-lead payments take cards only", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("asks Stripe for card payments for aged leads, and any method for packages", async () => {
    const requests: { url: string; body: string }[] = [];
    vi.stubGlobal("fetch", async (url: string | URL | Request, init?: RequestInit) => {
      requests.push({ url: String(url), body: String(init?.body ?? "") });
      const id = `pi_test_${crypto.randomUUID().replaceAll("-", "")}`;
      return Response.json({ id, object: "payment_intent", client_secret: `${id}_secret_abc` });
    });
    const { cookie } = await signedIn();
    const [lead] = await createLeads(1);
    const leads = await callApi("/api/bulk-purchase-leads", { json: { leadIds: [lead] }, cookie, env: STRIPE });
    expect(leads.status).toBe(200);
    expect(await leads.json()).toMatchObject({ provider: "stripe", publishableKey: "pk_test_x" });
    const leadIntent = requests.find((request) => request.url.endsWith("/v1/payment_intents"));
    expect(decodeURIComponent(leadIntent?.body ?? "")).toContain("payment_method_types[0]=card");
    expect(leadIntent?.body).not.toContain("automatic_payment_methods");

    requests.length = 0;
    expect((await startSpecial({ env: STRIPE })).status).toBe(200);
    expect(decodeURIComponent(requests[0]?.body ?? "")).toContain("automatic_payment_methods[enabled]=true");
    expect(requests[0]?.body).not.toContain("payment_method_types");
  });
});
