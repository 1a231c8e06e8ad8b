import { and, asc, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SETUP_LINK_INVALID } from "../../../../src/features/transfers/delivery-setup";
import { SAMPLE_DELIVERY_SETTINGS } from "../../../../tests/delivery-settings-sample";
import { testDb } from "../../../../tests/worker/factories";
import { storedRow } from "../../../../tests/worker/factories/rows";
import {
  callApi,
  expectAdminOnly,
  printedToken,
  sessionCookie,
  signedIn,
  uniqueTag,
} from "../../../../tests/worker/helpers";
import { payWithCard, startPayment } from "../../../../tests/worker/payment-fixtures";
import {
  checkoutRingcloudTransfers,
  checkoutSurvey,
  ringcloudTransfersBody,
  surveyBody,
} from "../../../../tests/worker/survey-fixtures";
import { orderDelivery, orderDeliveryStates, outbox } from "../../../db/schema";

const pay = async (clientSecret: string) => {
  expect((await payWithCard(clientSecret)).status).toBe(200);
};

interface DeliveryRow {
  setup_status: string;
  transfer_phone: string | null;
  states: string;
  hours_start_minute: number | null;
  hours_end_minute: number | null;
  time_zone: string | null;
  per_day_cap: number | null;
  transfers_total: number;
}
const delivery = async (orderId: string) =>
  ((await storedRow(testDb(), orderDelivery, eq(orderDelivery.orderId, orderId))) ?? null) as DeliveryRow | null;
const routingStates = async (orderId: string) =>
  (
    await testDb()
      .select({ state: orderDeliveryStates.state })
      .from(orderDeliveryStates)
      .where(eq(orderDeliveryStates.orderId, orderId))
      .orderBy(asc(orderDeliveryStates.state))
  ).map((row) => row.state);

async function dashboardOrder(cookie: string, overrides: Record<string, unknown> = {}) {
  const response = await callApi("/api/call-transfer-order", {
    json: {
      totalTransfers: 3,
      callsPerDay: 2,
      transferHours: "9am-5pm",
      transferPhone: "(555) 999-0000",
      workingStates: "TX, fl",
      leadType: "Live Transfers",
      price: 105,
      ...overrides,
    },
    cookie,
  });
  expect(response.status).toBe(200);
  return response.json<{ orderId: string; clientSecret: string }>();
}

const packageOrder = (email: string) => startPayment({ amount: 39, callCount: 1, email });

const SETUP_SUBJECT = "Set up your live-transfer deliveries";
const setupMails = async (email: string) => ({
  results: await testDb()
    .select({ text: outbox.text })
    .from(outbox)
    .where(and(eq(outbox.to, email), eq(outbox.subject, SETUP_SUBJECT)))
    .orderBy(desc(outbox.createdAt)),
});

async function setupToken(email: string): Promise<string> {
  return printedToken(email, "/delivery-setup");
}

const SETTINGS = SAMPLE_DELIVERY_SETTINGS;

describe("delivery settings at payment", () => {
  it("a dashboard order is ready from its own form: phone, states, hours, zone from the first state, per-day cap", async () => {
    const buyer = await signedIn();
    const order = await dashboardOrder(buyer.cookie);
    expect(await delivery(order.orderId)).toBeNull();
    await pay(order.clientSecret);
    expect(await delivery(order.orderId)).toMatchObject({
      setup_status: "ready",
      transfer_phone: "5559990000",
      states: JSON.stringify(["FL", "TX"]),
      hours_start_minute: 9 * 60,
      hours_end_minute: 17 * 60,
      time_zone: "America/Chicago",
      per_day_cap: 2,
      transfers_total: 3,
    });
    expect(await routingStates(order.orderId)).toEqual(["FL", "TX"]);
    expect((await setupMails(buyer.user.email)).results).toEqual([]);
  });

  it("a ringcloud live-transfer order is ready from its wizard's answers", async () => {
    const payment = await checkoutRingcloudTransfers(ringcloudTransfersBody());
    await pay(payment.clientSecret);
    expect(await delivery(payment.orderId)).toMatchObject({
      setup_status: "ready",
      transfer_phone: "5551112222",
      hours_start_minute: 600,
      hours_end_minute: 960,
      time_zone: "America/Los_Angeles",
      per_day_cap: 5,
      transfers_total: 10,
    });
  });

  it("a survey order lacks a transfer number: awaiting setup; the link saves for the survey's account with its password", async () => {
    const answers = surveyBody({ transferHours: "9-5" });
    const { email, username } = answers;
    const payment = await checkoutSurvey(answers);
    await pay(payment.clientSecret);
    expect(await delivery(payment.orderId)).toMatchObject({ setup_status: "awaiting_setup", per_day_cap: 5 });
    expect(await routingStates(payment.orderId)).toEqual(["ALL"]);

    const token = await setupToken(email);
    const check = await (await callApi("/api/delivery-setup/check", { json: { token } })).json();
    expect(check).toMatchObject({
      valid: true,
      orderId: payment.orderId,
      transfers: 10,
      account: { kind: "password", username },
      settings: { transferPhone: "", hoursStart: "09:00", hoursEnd: "17:00", perDayCap: "5" },
    });
    const noPassword = await callApi("/api/delivery-setup", { json: { token, settings: SETTINGS } });
    expect(noPassword.status).toBe(400);
    expect(noPassword.headers.getSetCookie()).toEqual([]);
    const signIn = { username, password: answers.password };
    const wrong = await callApi("/api/delivery-setup", {
      json: { token, settings: SETTINGS, signIn: { ...signIn, password: "not-the-password" } },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.getSetCookie()).toEqual([]);
    const saved = await callApi("/api/delivery-setup", { json: { token, settings: SETTINGS, signIn } });
    expect(saved.status).toBe(200);
    expect(await delivery(payment.orderId)).toMatchObject({
      setup_status: "ready",
      transfer_phone: "5552223333",
      states: JSON.stringify(["FL", "GA"]),
      hours_start_minute: 510,
      hours_end_minute: 1080,
      time_zone: "America/New_York",
      per_day_cap: 4,
    });
    const me = await callApi("/api/me", { cookie: sessionCookie(saved) });
    expect(await me.json()).toMatchObject({ username });
  });

  it("a pricing-page order without an account: the link creates the account, the order shows in My Orders, once", async () => {
    const email = `pkg${uniqueTag()}@example.com`;
    const order = await packageOrder(email);
    await pay(order.clientSecret);
    expect(await delivery(order.orderId)).toMatchObject({ setup_status: "awaiting_setup", transfers_total: 1 });
    const token = await setupToken(email);
    expect(await (await callApi("/api/delivery-setup/check", { json: { token } })).json()).toMatchObject({
      valid: true,
      email,
      account: { kind: "new" },
    });

    const noAccount = await callApi("/api/delivery-setup", { json: { token, settings: SETTINGS } });
    expect(noAccount.status).toBe(400);
    const username = `pkg${uniqueTag()}`;
    const saved = await callApi("/api/delivery-setup", {
      json: { token, settings: SETTINGS, account: { username, password: "package-pass-1" } },
    });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ user: { username, email, accountType: "buyer" } });
    const myOrders = await (await callApi("/api/my-orders", { cookie: sessionCookie(saved) })).json<{ id: string }[]>();
    expect(myOrders.map((o) => o.id)).toContain(order.orderId);
    expect((await delivery(order.orderId))?.setup_status).toBe("ready");

    const again = await callApi("/api/delivery-setup", {
      json: { token, settings: SETTINGS, account: { username: `${username}x`, password: "package-pass-1" } },
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ message: SETUP_LINK_INVALID });
    expect(await (await callApi("/api/delivery-setup/check", { json: { token } })).json()).toEqual({ valid: false });
  });

  it("refuses bad settings and a taken username with 4xx and leaves the link usable", async () => {
    const taken = await signedIn();
    const email = `pkg${uniqueTag()}@example.com`;
    const order = await packageOrder(email);
    await pay(order.clientSecret);
    const token = await setupToken(email);
    const save = (body: Record<string, unknown>) => callApi("/api/delivery-setup", { json: { token, ...body } });
    const account = { username: `u${uniqueTag()}`, password: "package-pass-1" };
    for (const settings of [
      { ...SETTINGS, transferPhone: "123" },
      { ...SETTINGS, states: "TX, Atlantis" },
      { ...SETTINGS, hoursStart: "25:00" },
      { ...SETTINGS, timeZone: "Europe/Paris" },
      { ...SETTINGS, perDayCap: "0" },
    ]) {
      const response = await save({ settings, account });
      expect(response.status, JSON.stringify(settings)).toBe(400);
      expect(await response.json()).toMatchObject({ message: expect.any(String) });
    }
    const conflict = await save({ settings: SETTINGS, account: { ...account, username: taken.user.username } });
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({ message: "Username is already taken" });
    expect((await callApi("/api/delivery-setup", { json: "nonsense" })).status).toBe(400);
    expect((await save({ settings: SETTINGS, account })).status).toBe(200);
  });

  it("orders of other lead types get no delivery settings", async () => {
    const payment = await (
      await callApi("/api/create-payment-intent", {
        json: { amount: 15, leadType: "Call-Backs", quantity: 1, email: `cb${uniqueTag()}@example.com` },
      })
    ).json<{ orderId: string; clientSecret: string }>();
    await pay(payment.clientSecret);
    expect(await delivery(payment.orderId)).toBeNull();
  });
});

describe("PUT /api/transfer-orders/:id/delivery", () => {
  it("is for admins only", async () => {
    const order = await packageOrder(`pkg${uniqueTag()}@example.com`);
    await expectAdminOnly(`/api/transfer-orders/${order.orderId}/delivery`, { method: "PUT", json: SETTINGS });
  });

  it("lets an admin complete an awaiting order; /admin-orders shows its settings and counts", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const order = await packageOrder(`pkg${uniqueTag()}@example.com`);
    const put = (id: string, json: unknown) =>
      callApi(`/api/transfer-orders/${id}/delivery`, { method: "PUT", json, cookie });
    expect((await put(order.orderId, SETTINGS)).status).toBe(409);
    await pay(order.clientSecret);
    expect((await put(order.orderId, { ...SETTINGS, transferPhone: "12" })).status).toBe(400);
    expect((await put("no-such-order", SETTINGS)).status).toBe(404);
    const saved = await put(order.orderId, { ...SETTINGS, states: [] });
    expect(saved.status).toBe(200);
    expect(await routingStates(order.orderId)).toEqual(["ALL"]);

    const list = await (await callApi("/api/transfer-orders", { cookie })).json<Record<string, unknown>[]>();
    expect(list.find((o) => o.id === order.orderId)?.delivery).toEqual({
      setupStatus: "ready",
      paused: false,
      pausedReason: null,
      transfersTotal: 1,
      delivered: 0,
      notCharged: 0,
      remaining: 1,
      hours: "8:30 AM – 6:00 PM Eastern",
      limits: null,
      settings: {
        transferPhone: "5552223333",
        states: "",
        hoursStart: "08:30",
        hoursEnd: "18:00",
        timeZone: "America/New_York",
        perDayCap: "4",
        days: [],
        closedFrom: "",
        closedUntil: "",
        perHourCap: "",
        maxConcurrent: "",
      },
    });
  });
});
