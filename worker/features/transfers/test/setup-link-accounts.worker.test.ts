/**
 * A setup link never attaches an order by e-mail, never signs anyone in by
 * itself and never into an administrator account; a new account made on the setup page follows the
 * password rule.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { PASSWORD_TOO_COMMON } from "../../../../src/features/accounts/password-rule";
import {
  SETUP_ACCOUNT_NEEDED,
  SETUP_LINK_INVALID,
  SETUP_NOT_A_BUYER_ACCOUNT,
  SETUP_SIGN_IN_FIRST,
} from "../../../../src/features/transfers/delivery-setup";
import { SAMPLE_DELIVERY_SETTINGS as SETTINGS } from "../../../../tests/delivery-settings-sample";
import { createAdmin, createBuyer, createOrder, testDb } from "../../../../tests/worker/factories";
import { callApi, login, printedToken, sessionCookie, signedIn, uniqueTag } from "../../../../tests/worker/helpers";
import { payWithCard, startPayment } from "../../../../tests/worker/payment-fixtures";
import { orders, users } from "../../../db/schema";

/** An anonymous pricing-page order for 10 live transfers, paid: it waits for setup, and its link is e-mailed. */
async function paidAnonymousOrder(email: string) {
  const order = await startPayment({ amount: 390, callCount: 10, email });
  expect((await payWithCard(order.clientSecret)).status).toBe(200);
  return { orderId: order.orderId, token: printedToken(email, "/delivery-setup") };
}

const orderOwner = async (orderId: string) =>
  (await testDb().select({ userId: orders.userId }).from(orders).where(eq(orders.id, orderId)))[0]?.userId;
const check = async (token: string, cookie?: string) =>
  (await callApi("/api/delivery-setup/check", { json: { token }, ...(cookie ? { cookie } : {}) })).json<
    Record<string, unknown>
  >();
const save = (body: Record<string, unknown>, cookie?: string) =>
  callApi("/api/delivery-setup", { json: { settings: SETTINGS, ...body }, ...(cookie ? { cookie } : {}) });

describe("a setup link never attaches an order by e-mail", () => {
  it("the reproduction: a survey account made with the victim's e-mail never gets the victim's order or session", async () => {
    const victimEmail = `victim${uniqueTag()}@example.com`;
    const attacker = { username: `attacker${uniqueTag()}`, password: "attacker-pass-1" };
    const survey = await callApi("/api/survey", {
      json: {
        firstName: "Mal",
        lastName: "Lory",
        agencyName: "Mal Co",
        role: "Agency Owner",
        phone: "5551234567",
        email: victimEmail,
        ...attacker,
        leadType: "Live Transfers",
        totalTransfers: 10,
        callsPerDay: 5,
        transferHours: "9-5",
        totalPrice: 35_000,
      },
    });
    expect(survey.status).toBe(201);
    const attackerCookie = sessionCookie(survey);

    const { orderId, token } = await paidAnonymousOrder(victimEmail);
    const checked = await check(token);
    expect(checked).toMatchObject({ valid: true, orderId, email: victimEmail, account: { kind: "new" } });
    expect(JSON.stringify(checked)).not.toContain(attacker.username);

    const bare = await save({ token });
    expect(bare.status).toBe(400);
    expect(await bare.json()).toMatchObject({ message: SETUP_ACCOUNT_NEEDED });
    expect(bare.headers.getSetCookie()).toEqual([]);
    const newAccount = await save({ token, account: { username: `victim${uniqueTag()}`, password: "victim-pass-12" } });
    expect(newAccount.status).toBe(409);
    expect(await newAccount.json()).toMatchObject({ message: "An account with this email already exists" });
    expect(newAccount.headers.getSetCookie()).toEqual([]);

    expect(await orderOwner(orderId)).toBeNull();
    const attackerOrders = await (await callApi("/api/my-orders", { cookie: attackerCookie })).json<{ id: string }[]>();
    expect(attackerOrders.map((o) => o.id)).not.toContain(orderId);
    expect(await check(token)).toMatchObject({ valid: true });

    // The victim signs in with an account of their own: the order becomes theirs, the link is used up.
    const own = await createBuyer(testDb(), { password: "victim-own-pass-1" });
    const signedIn = await save({ token, signIn: { username: own.username, password: own.password } });
    expect(signedIn.status).toBe(200);
    expect(await signedIn.json()).toMatchObject({ user: { id: own.id } });
    expect(await orderOwner(orderId)).toBe(own.id);
    expect(await check(token)).toEqual({ valid: false });
  });

  it("an order placed with an admin's e-mail: the link never signs into the admin account or gives it the order", async () => {
    const admin = await createAdmin(testDb());
    const { orderId, token } = await paidAnonymousOrder(admin.email);
    expect(await check(token)).toMatchObject({ valid: true, account: { kind: "new" } });

    for (const body of [{ token }, { token, signIn: { username: admin.username, password: admin.password } }]) {
      const response = await save(body);
      expect(response.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(response.headers.getSetCookie()).toEqual([]);
    }
    const asAdmin = await save({ token, signIn: { username: admin.username, password: admin.password } });
    expect(asAdmin.status).toBe(403);
    expect(await asAdmin.json()).toMatchObject({ message: SETUP_NOT_A_BUYER_ACCOUNT });
    expect(await orderOwner(orderId)).toBeNull();
    expect(await check(token)).toMatchObject({ valid: true });
  });

  it("an admin's own order: the link asks them to sign in first, and saving with their session signs nobody in", async () => {
    const db = testDb();
    const admin = await createAdmin(db);
    const { id: orderId } = await createOrder(db, {
      quantity: 5,
      unitPriceCents: 3500,
      userId: admin.id,
      email: admin.email,
    });
    const adminCookie = await login(admin);
    const sent = await callApi(`/api/transfer-orders/${orderId}/setup-link`, { method: "POST", cookie: adminCookie });
    expect(sent.status).toBe(200);
    const token = printedToken(admin.email, "/delivery-setup");

    expect(await check(token)).toMatchObject({ valid: true, account: { kind: "sign-in-first" } });
    const withPassword = await save({ token, signIn: { username: admin.username, password: admin.password } });
    expect(withPassword.status).toBe(403);
    expect(await withPassword.json()).toMatchObject({ message: SETUP_SIGN_IN_FIRST });
    expect(withPassword.headers.getSetCookie()).toEqual([]);

    expect(await check(token, adminCookie)).toMatchObject({ account: { kind: "signed-in", username: admin.username } });
    const saved = await save({ token }, adminCookie);
    expect(saved.status).toBe(200);
    expect(saved.headers.getSetCookie()).toEqual([]);
    expect((await callApi("/api/me", { cookie: adminCookie })).status).toBe(200);
  });

  it("an order's own account needs its password (or its session), never another account's", async () => {
    const owner = await signedIn();
    const other = await createBuyer(testDb());
    const started = await callApi("/api/call-transfer-order", {
      cookie: owner.cookie,
      json: {
        totalTransfers: 3,
        callsPerDay: 2,
        transferHours: "whenever",
        transferPhone: "5559990000",
        workingStates: "TX",
        price: 105,
      },
    });
    // Hours the form cannot read leave the order waiting for setup.
    expect(started.status).toBe(200);
    const order = await started.json<{ orderId: string; clientSecret: string }>();
    await callApi("/api/simulated-payments/confirm", {
      json: { clientSecret: order.clientSecret, cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" },
    });
    const token = printedToken(owner.user.email, "/delivery-setup");
    expect(await check(token)).toMatchObject({ account: { kind: "password", username: owner.user.username } });

    const otherAccount = await save({ token, signIn: { username: other.username, password: other.password } });
    expect(otherAccount.status).toBe(403);
    expect(otherAccount.headers.getSetCookie()).toEqual([]);
    const ownerPassword = await save({
      token,
      signIn: { username: owner.user.username, password: owner.user.password },
    });
    expect(ownerPassword.status).toBe(200);
    expect(await orderOwner(order.orderId)).toBe(owner.user.id);
    const me = await callApi("/api/me", { cookie: sessionCookie(ownerPassword) });
    expect(await me.json()).toMatchObject({ id: owner.user.id });
    expect(
      (await save({ token, signIn: { username: owner.user.username, password: owner.user.password } })).status,
    ).toBe(400);
  });
});

describe("the setup page's new account follows the password rule", () => {
  it("refuses 'password1' and keeps the link usable; a good password creates the account", async () => {
    const email = `rule${uniqueTag()}@example.com`;
    const { orderId, token } = await paidAnonymousOrder(email);
    const username = `rule${uniqueTag()}`;
    const common = await save({ token, account: { username, password: "password1" } });
    expect(common.status).toBe(400);
    expect(await common.json()).toMatchObject({
      message: PASSWORD_TOO_COMMON,
      errors: { "account.password": PASSWORD_TOO_COMMON },
    });
    expect(await testDb().$count(users, eq(users.username, username))).toBe(0);
    expect(await check(token)).toMatchObject({ valid: true });

    const created = await save({ token, account: { username, password: "a-rare-pass-91" } });
    expect(created.status).toBe(200);
    expect(await orderOwner(orderId)).not.toBeNull();
    const again = await save({ token, account: { username: `${username}x`, password: "a-rare-pass-91" } });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ message: SETUP_LINK_INVALID });
    expect(await check(token)).toEqual({ valid: false });
  });
});
