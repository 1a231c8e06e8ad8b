/**
 * Delivery settings of any size. Every state and DC saves through each path that
 * writes settings (dashboard and ringcloud at payment, the setup link after a survey, the admin's form),
 * every statement stays within D1's 100 bound parameters, the order routes a ping, and a paid order whose
 * settings cannot be saved waits for setup where the buyer and the admins see it, with the setup link sent.
 */

import { env } from "cloudflare:workers";
import { asc, eq, ne } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { US_STATE_CODES } from "../../../../src/domain/us-states";
import { SAMPLE_DELIVERY_SETTINGS } from "../../../../tests/delivery-settings-sample";
import { brokenD1Limits, watchD1 } from "../../../../tests/worker/d1-usage";
import { testDb } from "../../../../tests/worker/factories";
import { callApi, printedToken, signedIn, uniqueTag } from "../../../../tests/worker/helpers";
import { startPayment } from "../../../../tests/worker/payment-fixtures";
import {
  checkoutRingcloudTransfers,
  checkoutSurvey,
  ringcloudTransfersBody,
  surveyBody,
} from "../../../../tests/worker/survey-fixtures";
import { createPartner, pingBody, routeAtCallingHours } from "../../../../tests/worker/transfer-fixtures";
import { orderDelivery, orderDeliveryStates, orders, transfers } from "../../../db/schema";

// Pings route only inside the prospect's legal calling hours (docs/decisions/0064).
routeAtCallingHours();

const ALL_51 = [...US_STATE_CODES];

/** Runs one request against a D1 binding that records every statement; answers the response and what broke. */
async function watched(path: string, options: Parameters<typeof callApi>[1]) {
  const { db, usage } = watchD1(env.DB);
  const response = await callApi(path, { ...options, bindings: { ...env, DB: db } });
  return { response, broken: brokenD1Limits(usage), statements: usage.statements };
}

const pay = (clientSecret: string) =>
  watched("/api/simulated-payments/confirm", {
    json: { clientSecret, cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" },
  });

const deliveryOf = async (orderId: string) => {
  const [row] = await testDb()
    .select({ setupStatus: orderDelivery.setupStatus, states: orderDelivery.states })
    .from(orderDelivery)
    .where(eq(orderDelivery.orderId, orderId));
  return row && { setup_status: row.setupStatus, states: JSON.stringify(row.states) };
};
const routingStates = async (orderId: string) =>
  (
    await testDb()
      .select({ state: orderDeliveryStates.state })
      .from(orderDeliveryStates)
      .where(eq(orderDeliveryStates.orderId, orderId))
      .orderBy(asc(orderDeliveryStates.state))
  ).map((row) => row.state);
const orderStatus = async (orderId: string) =>
  (await testDb().select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)))[0]?.status;

let partner: Awaited<ReturnType<typeof createPartner>>;
beforeAll(async () => {
  partner = await createPartner();
});

/** The order is paid and ready with all 51 states, and a partner's ping (the only open order) routes to it. */
async function expectReadyAndRouted(orderId: string) {
  expect(await orderStatus(orderId)).toBe("paid");
  const delivery = await deliveryOf(orderId);
  expect(delivery?.setup_status).toBe("ready");
  expect(JSON.parse(delivery?.states ?? "[]")).toEqual([...ALL_51].sort());
  expect(await routingStates(orderId)).toEqual([...ALL_51].sort());
  await testDb().delete(orderDelivery).where(ne(orderDelivery.orderId, orderId));
  for (const state of ["WY", "DC", "AK"]) {
    const ping = await callApi("/api/v1/transfers", { json: pingBody({ state }), headers: partner.auth });
    expect(ping.status, state).toBe(201);
    const { transferId } = await ping.json<{ transferId: string }>();
    const [row] = await testDb()
      .select({ orderId: transfers.orderId })
      .from(transfers)
      .where(eq(transfers.id, transferId));
    expect(row).toEqual({ orderId });
  }
}

describe("all 50 states and DC as delivery settings", () => {
  it("the dashboard: the order's own form, saved at payment", async () => {
    const buyer = await signedIn();
    const started = await callApi("/api/call-transfer-order", {
      cookie: buyer.cookie,
      json: {
        totalTransfers: 5,
        callsPerDay: 5,
        transferHours: "12am-12am",
        transferPhone: "(555) 999-0000",
        workingStates: ALL_51.join(", "),
        leadType: "Live Transfers",
        price: 175,
      },
    });
    expect(started.status).toBe(200);
    const order = await started.json<{ orderId: string; clientSecret: string }>();
    const paid = await pay(order.clientSecret);
    expect(paid.response.status).toBe(200);
    expect(paid.broken).toEqual([]);
    await expectReadyAndRouted(order.orderId);
  });

  it("ringcloud: the wizard's answers, saved at payment", async () => {
    const payment = await checkoutRingcloudTransfers(
      ringcloudTransfersBody({ transferHours: "00:00-00:00", workingStates: ALL_51.join(",") }),
    );
    const paid = await pay(payment.clientSecret);
    expect(paid.broken).toEqual([]);
    await expectReadyAndRouted(payment.orderId);
  });

  it("the survey: awaiting setup at payment, then the e-mailed link saves all 51", async () => {
    const answers = surveyBody({ transferHours: "9-5" });
    const payment = await checkoutSurvey(answers);
    expect((await pay(payment.clientSecret)).broken).toEqual([]);
    expect((await deliveryOf(payment.orderId))?.setup_status).toBe("awaiting_setup");

    const settings = { ...SAMPLE_DELIVERY_SETTINGS, states: ALL_51.join(", "), hoursStart: "00:00", hoursEnd: "00:00" };
    const saved = await watched("/api/delivery-setup", {
      json: {
        token: printedToken(answers.email, "/delivery-setup"),
        settings,
        signIn: { username: answers.username, password: answers.password },
      },
    });
    expect(saved.response.status).toBe(200);
    expect(saved.broken).toEqual([]);
    await expectReadyAndRouted(payment.orderId);
  });

  it("the admin's form on /admin-orders", async () => {
    const admin = await signedIn({ isAdmin: true });
    const order = await startPayment({ amount: 390, callCount: 10, email: `pkg${uniqueTag()}@example.com` });
    expect((await pay(order.clientSecret)).broken).toEqual([]);
    const settings = { ...SAMPLE_DELIVERY_SETTINGS, states: ALL_51, hoursStart: "00:00", hoursEnd: "00:00" };
    const saved = await watched(`/api/transfer-orders/${order.orderId}/delivery`, {
      method: "PUT",
      json: settings,
      cookie: admin.cookie,
    });
    expect(saved.response.status).toBe(200);
    expect(saved.broken).toEqual([]);
    await expectReadyAndRouted(order.orderId);
  });
});

describe("a paid order whose settings cannot be saved is never silent", () => {
  it("waits for setup for the buyer and on /admin-orders, and the buyer is e-mailed the setup link", async () => {
    const buyer = await signedIn();
    const admin = await signedIn({ isAdmin: true });
    const started = await callApi("/api/call-transfer-order", {
      cookie: buyer.cookie,
      json: {
        totalTransfers: 3,
        callsPerDay: 2,
        transferHours: "9am-5pm",
        transferPhone: "(555) 999-0000",
        workingStates: "TX, FL",
        leadType: "Live Transfers",
        price: 105,
      },
    });
    const order = await started.json<{ orderId: string; clientSecret: string }>();
    // The routing mirror cannot be written: the complete settings fail to save.
    const { db } = watchD1(env.DB, { refuse: /insert into "order_delivery_states"/i });
    const paid = await callApi("/api/simulated-payments/confirm", {
      json: { clientSecret: order.clientSecret, cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" },
      bindings: { ...env, DB: db },
    });
    expect(paid.status).toBe(200);
    expect(await orderStatus(order.orderId)).toBe("paid");
    expect((await deliveryOf(order.orderId))?.setup_status).toBe("awaiting_setup");

    const tracker = await (await callApi("/api/tracker/orders", { cookie: buyer.cookie })).json<
      { orderId: string; setupStatus: string }[]
    >();
    expect(tracker.find((o) => o.orderId === order.orderId)?.setupStatus).toBe("awaiting_setup");
    const adminOrders = await (await callApi("/api/transfer-orders", { cookie: admin.cookie })).json<
      { id: string; delivery: { setupStatus: string } | null }[]
    >();
    expect(adminOrders.find((o) => o.id === order.orderId)?.delivery?.setupStatus).toBe("awaiting_setup");

    // The link the buyer got completes the order (signed in as its owner already).
    const token = printedToken(buyer.user.email, "/delivery-setup");
    const saved = await callApi("/api/delivery-setup", {
      json: { token, settings: SAMPLE_DELIVERY_SETTINGS },
      cookie: buyer.cookie,
    });
    expect(saved.status).toBe(200);
    expect((await deliveryOf(order.orderId))?.setup_status).toBe("ready");
  });
});
