/**
 * Partner invitations and delivery-setup links are secrets (product rule 32) like reset links (redacted in
 * the outbox and in non-development logs), single use, used up only when what they carry is accepted,
 * and an admin can send a new one.
 */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PASSWORD_TOO_COMMON } from "../../src/features/accounts/password-rule";
import { users } from "../../worker/db/schema";
import { createDeps } from "../../worker/deps";
import { sendSetupLink } from "../../worker/features/transfers/setup-links";
import { REDACTED } from "../../worker/services/mail";
import { SAMPLE_DELIVERY_SETTINGS as SETTINGS } from "../delivery-settings-sample";
import { watchD1 } from "./d1-usage";
import { testDb } from "./factories";
import { callApi, latestMailTo, printedToken, signedIn, uniqueTag } from "./helpers";
import { decide, invitationToken, submitApplication } from "./partner-helpers";
import { payWithCard, startPayment } from "./payment-fixtures";

afterEach(() => vi.restoreAllMocks());

const SITE = "https://shop.example.com";
const PRODUCTION = { APP_ENV: "production", PUBLIC_SITE_URL: SITE, MAIL_API_URL: "" };

async function paidAnonymousOrder(email: string) {
  const order = await startPayment({ amount: 390, callCount: 10, email });
  await payWithCard(order.clientSecret);
  return order.orderId;
}

const invitationValid = async (token: string) =>
  (await (await callApi("/api/partner-invitation/check", { json: { token } })).json<{ valid: boolean }>()).valid;
const setupValid = async (token: string) =>
  (await (await callApi("/api/delivery-setup/check", { json: { token } })).json<{ valid: boolean }>()).valid;

describe("links that sign someone in are redacted where they are kept", () => {
  it("the outbox keeps the invitation and the setup link redacted; the development console shows them", async () => {
    const { id, email } = await submitApplication();
    await decide(id, "approved");
    const invitation = await invitationToken(email);
    const invited = await latestMailTo(email);
    expect(invited?.subject).toBe("Your partner account is approved");
    expect(invited?.text).not.toContain(invitation);
    expect(invited?.text).not.toContain("partner-invitation?token=");
    expect(invited?.text).toContain(REDACTED);

    const buyerEmail = `buyer${uniqueTag()}@example.com`;
    await paidAnonymousOrder(buyerEmail);
    const setup = printedToken(buyerEmail, "/delivery-setup");
    const setupMail = await latestMailTo(buyerEmail);
    expect(setupMail?.subject).toBe("Set up your live-transfer deliveries");
    expect(setupMail?.text).not.toContain(setup);
    expect(setupMail?.text).toContain(REDACTED);
  });

  it("outside development the console gets the redacted copy of both", async () => {
    const { id, email } = await submitApplication();
    const admin = await signedIn({ isAdmin: true });
    const buyerEmail = `buyer${uniqueTag()}@example.com`;
    const orderId = await paidAnonymousOrder(buyerEmail);
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const approved = await callApi(`/api/affnetwork-signups/${id}/status`, {
      method: "PATCH",
      json: { status: "approved" },
      cookie: admin.cookie,
      env: PRODUCTION,
    });
    expect(approved.status).toBe(200);
    await sendSetupLink(
      createDeps({ ...env, ...PRODUCTION }),
      { id: orderId, userId: null, email: buyerEmail, quantity: 10 },
      SITE,
    );

    const printed = log.mock.calls.flat().join("\n");
    expect(printed).toContain(`[mail] to ${email}: Your partner account is approved`);
    expect(printed).toContain(`[mail] to ${buyerEmail}: Set up your live-transfer deliveries`);
    expect(printed).not.toMatch(/(partner-invitation|delivery-setup)\?token=/);
    expect(printed.split(REDACTED)).toHaveLength(3);
    expect((await latestMailTo(email))?.text).toContain(REDACTED);
  });
});

describe("links are used up only when what they carry is accepted", () => {
  it("a refused common password leaves the invitation usable", async () => {
    const { id, email } = await submitApplication();
    await decide(id, "approved");
    const token = await invitationToken(email);
    const common = await callApi("/api/partner-invitation/accept", { json: { token, password: "password1" } });
    expect(common.status).toBe(400);
    expect(await common.json()).toMatchObject({ message: PASSWORD_TOO_COMMON });
    expect(await invitationValid(token)).toBe(true);
    const accepted = await callApi("/api/partner-invitation/accept", { json: { token, password: "a-rare-pass-91" } });
    expect(accepted.status).toBe(200);
    expect(await invitationValid(token)).toBe(false);
  });

  it("settings that cannot be saved leave the setup link usable", async () => {
    const email = `buyer${uniqueTag()}@example.com`;
    await paidAnonymousOrder(email);
    const token = printedToken(email, "/delivery-setup");
    const account = { username: `b${uniqueTag()}`, password: "a-rare-pass-91" };
    const { db } = watchD1(env.DB, { refuse: /insert into "order_delivery_states"/i });
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const failed = await callApi("/api/delivery-setup", {
      json: { token, settings: SETTINGS, account },
      bindings: { ...env, DB: db },
    });
    expect(failed.status).toBe(500);
    expect(await testDb().$count(users, eq(users.username, account.username))).toBe(0);
    expect(await setupValid(token)).toBe(true);
    expect((await callApi("/api/delivery-setup", { json: { token, settings: SETTINGS, account } })).status).toBe(200);
    expect(await setupValid(token)).toBe(false);
  });
});

describe("an admin re-sends an invitation and a setup link", () => {
  it("a new invitation works; using it ends the old one; once a password is set there is nothing to re-send", async () => {
    const admin = await signedIn({ isAdmin: true });
    const { id, email } = await submitApplication();
    await decide(id, "approved", admin.cookie);
    const first = await invitationToken(email);
    const list = await (await callApi("/api/affnetwork-signups", { cookie: admin.cookie })).json<
      { id: string; invitationPending: boolean }[]
    >();
    expect(list.find((a) => a.id === id)?.invitationPending).toBe(true);

    const resend = () => callApi(`/api/affnetwork-signups/${id}/invitation`, { method: "POST", cookie: admin.cookie });
    expect((await resend()).status).toBe(200);
    const second = await invitationToken(email);
    expect(second).not.toBe(first);
    expect(await invitationValid(first)).toBe(true);
    expect(
      (await callApi("/api/partner-invitation/accept", { json: { token: second, password: "a-rare-pass-91" } })).status,
    ).toBe(200);
    expect(await invitationValid(first)).toBe(false);
    expect((await resend()).status).toBe(409);
    const after = await (await callApi("/api/affnetwork-signups", { cookie: admin.cookie })).json<
      { id: string; invitationPending: boolean }[]
    >();
    expect(after.find((a) => a.id === id)?.invitationPending).toBe(false);
    const pending = await submitApplication();
    expect(
      (await callApi(`/api/affnetwork-signups/${pending.id}/invitation`, { method: "POST", cookie: admin.cookie }))
        .status,
    ).toBe(404);
  });

  it("a new setup link for an order awaiting setup; none for one that is set up or not a live-transfer order", async () => {
    const admin = await signedIn({ isAdmin: true });
    const email = `buyer${uniqueTag()}@example.com`;
    const orderId = await paidAnonymousOrder(email);
    const first = printedToken(email, "/delivery-setup");
    const resend = (order: string) =>
      callApi(`/api/transfer-orders/${order}/setup-link`, { method: "POST", cookie: admin.cookie });
    expect((await resend(orderId)).status).toBe(200);
    const second = printedToken(email, "/delivery-setup");
    expect(second).not.toBe(first);
    const account = { username: `b${uniqueTag()}`, password: "a-rare-pass-91" };
    expect(
      (await callApi("/api/delivery-setup", { json: { token: second, settings: SETTINGS, account } })).status,
    ).toBe(200);
    expect(await setupValid(first)).toBe(false);
    expect((await resend(orderId)).status).toBe(409);
    expect((await resend("no-such-order")).status).toBe(404);
  });
});
