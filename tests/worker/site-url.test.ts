/**
 * E-mails carry absolute links (product rule 35). PUBLIC_SITE_URL is required outside development:
 * /api/health reports it missing, and the mailer refuses to send a message with a relative link. The
 * cron's daily summaries link to the configured site.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { pingSchema } from "../../src/features/transfers/schemas/partner-api";
import { orderDelivery } from "../../worker/db/schema";
import { createDeps } from "../../worker/deps";
import { sendDeliverySummaries } from "../../worker/features/transfers/delivery-summaries";
import { recordTransferEvent, routeTransfer } from "../../worker/features/transfers/transfers";
import { emails } from "../../worker/services/email-templates";
import { DEVELOPMENT_SITE_URL, RelativeLinkError, sendMail, siteOrigin } from "../../worker/services/mail";
import { createAdmin, createBuyer, createOrder, testDb } from "./factories";
import { callApi, latestMailTo, login } from "./helpers";
import { createOpenOrder, createPartner, pingBody, routeAtCallingHours } from "./transfer-fixtures";

// Pings route only inside the prospect's legal calling hours (docs/decisions/0064).
routeAtCallingHours();

afterEach(() => vi.restoreAllMocks());

const SITE = "https://shop.example.com";
const production = (vars: Record<string, string> = {}) => ({ APP_ENV: "production", MAIL_API_URL: "", ...vars });

describe("GET /api/health names the site URL", () => {
  it("missing outside development without PUBLIC_SITE_URL, configured with it", async () => {
    const missing = await (await callApi("/api/health", { env: production({ PUBLIC_SITE_URL: "" }) })).json();
    expect(missing).toMatchObject({
      ok: true,
      siteUrl: "missing",
      siteUrlReason: expect.stringContaining("PUBLIC_SITE_URL"),
    });
    const relative = await (await callApi("/api/health", { env: production({ PUBLIC_SITE_URL: "/shop" }) })).json();
    expect(relative).toMatchObject({ siteUrl: "missing" });
    const configured = await (await callApi("/api/health", { env: production({ PUBLIC_SITE_URL: SITE }) })).json();
    expect(configured).toMatchObject({ siteUrl: "configured" });
    expect(configured).not.toHaveProperty("siteUrlReason");
  });
});

describe("the mailer refuses relative links outside development", () => {
  it("sends nothing, not even to the outbox, and says why", async () => {
    const to = `relative-${crypto.randomUUID()}@example.com`;
    const bindings = createDeps({ ...env, ...production({ PUBLIC_SITE_URL: "" }) });
    const email = emails.transfersPaused(siteOrigin(bindings), {
      name: "Ann",
      orderId: crypto.randomUUID(),
      needsAdmin: false,
    });
    expect(email.links).toEqual(["/dashboard?view=lead-tracker"]);
    await expect(sendMail(bindings, to, email)).rejects.toBeInstanceOf(RelativeLinkError);
    expect(await latestMailTo(to)).toBeNull();
  });

  it("an admin re-sending a setup link without PUBLIC_SITE_URL gets a 503 that names the setting, and nothing is mailed", async () => {
    const db = testDb();
    const cookie = await login(await createAdmin(db));
    const buyerEmail = "setup-guest@example.com";
    // A guest's order (no account): its setup link goes to the e-mail the buyer gave.
    const { id: orderId } = await createOrder(db, {
      quantity: 5,
      unitPriceCents: 3500,
      userId: null,
      email: buyerEmail,
    });
    const answer = await callApi(`/api/transfer-orders/${orderId}/setup-link`, {
      method: "POST",
      cookie,
      env: production({ PUBLIC_SITE_URL: "" }),
    });
    expect(answer.status).toBe(503);
    expect((await answer.json<{ message: string }>()).message).toMatch(/PUBLIC_SITE_URL/);
    expect(await latestMailTo(buyerEmail)).toBeNull();
  });

  it("forgot-password in production without PUBLIC_SITE_URL mails nothing; with it the link is absolute", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const user = await createBuyer(testDb());
    const answer = await callApi("/api/forgot-password", {
      json: { email: user.email },
      env: production({ PUBLIC_SITE_URL: "" }),
    });
    expect(answer.status).toBe(200);
    expect(await latestMailTo(user.email)).toBeNull();
    expect(error.mock.calls.flat().some((value) => value instanceof RelativeLinkError)).toBe(true);

    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    await callApi("/api/forgot-password", { json: { email: user.email }, env: { PUBLIC_SITE_URL: SITE } });
    expect(log.mock.calls.flat().join("\n")).toMatch(new RegExp(`${SITE}/reset-password\\?token=[\\w-]+`));
  });

  it("every template's links are absolute under the site's origin, in the text and the HTML", () => {
    const all = [
      emails.passwordReset(SITE, { name: "Ann", linkPath: "/reset-password?token=t" }),
      emails.partnerInvitation(SITE, {
        contactName: "Pat",
        businessName: "B",
        username: "p@x.com",
        linkPath: "/p?token=t",
      }),
      emails.deliverySetup(SITE, { orderId: "o", quantity: 3, linkPath: "/delivery-setup?token=t" }),
      emails.deliverySummary(SITE, { firstName: "Ann", day: "2026-03-04", billable: 2, notCharged: 1 }),
      emails.transfersPaused(SITE, { name: null, orderId: "order-1", needsAdmin: false }),
      emails.returnDecided(SITE, {
        kind: "transfer",
        approved: true,
        status: "approved",
        itemLabel: "Ann L. (TX)",
        reason: "wrong_state",
        adminNote: null,
      }),
      emails.transferReturnedToPartner(SITE, { itemLabel: "Ann L. (TX)", reason: "wrong_state" }),
    ];
    for (const email of all) {
      expect(email.links.length, email.subject).toBeGreaterThan(0);
      for (const link of email.links) {
        expect(link.startsWith(`${SITE}/`), email.subject).toBe(true);
        expect(email.text).toContain(link);
        expect(email.html).toContain(`<a href="${link}">`);
      }
    }
    expect(emails.orderConfirmation({ orderId: "o", quantity: 1, totalCents: 3900 }).links).toEqual([]);
  });
});

describe("the cron's daily summaries carry absolute links", () => {
  /**
   * A buyer with one billable transfer 28 hours ago: on the file's clock (Wednesday 20:00 UTC) that is
   * Tuesday 10 am in Chicago, inside the caller's calling hours, on a day that has ended in every US zone.
   */
  async function buyerWithYesterdaysTransfer() {
    const buyer = await createBuyer(testDb());
    await testDb().delete(orderDelivery); // this buyer's order is the only one open
    const at = Date.now() - 28 * 60 * 60 * 1000;
    const partner = await createPartner();
    await createOpenOrder({ buyerId: buyer.id, paidAt: at - 60_000 });
    const ping = pingSchema.parse({
      ...pingBody({ state: "TX" }),
      consent: { optInAt: new Date(at - 60_000).toISOString(), optInUrl: "https://example.com/quote" },
    });
    const routed = await routeTransfer(createDeps(env, at), partner.owner, ping);
    const site = { siteOrigin: SITE };
    await recordTransferEvent(createDeps(env, at + 5_000), partner.id, routed.transferId, { type: "connected" }, site);
    await recordTransferEvent(
      createDeps(env, at + 200_000),
      partner.id,
      routed.transferId,
      { type: "completed", durationSeconds: 185 },
      site,
    );
    return buyer;
  }

  it("to PUBLIC_SITE_URL in production, and to the local server in development without it", async () => {
    const deployed = await buyerWithYesterdaysTransfer();
    await sendDeliverySummaries(createDeps({ ...env, ...production({ PUBLIC_SITE_URL: SITE }) }));
    expect((await latestMailTo(deployed.email))?.text).toContain(`${SITE}/dashboard`);

    const local = await buyerWithYesterdaysTransfer();
    await sendDeliverySummaries(createDeps({ ...env, APP_ENV: "development", PUBLIC_SITE_URL: "" }));
    expect((await latestMailTo(local.email))?.text).toContain(`${DEVELOPMENT_SITE_URL}/dashboard`);
  });
});
