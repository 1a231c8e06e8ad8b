/**
 * An order's own limits (docs/decisions/0068): weekdays, a closure, a cap per 60 minutes and a cap on
 * calls at once, as the delivery-settings APIs save them and as routing honours them.
 */

import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { LIMIT_MESSAGES } from "../../../../src/features/transfers/delivery-limits";
import { pingSchema } from "../../../../src/features/transfers/schemas/partner-api";
import { SAMPLE_DELIVERY_SETTINGS } from "../../../../tests/delivery-settings-sample";
import { testDb } from "../../../../tests/worker/factories";
import { storedRow } from "../../../../tests/worker/factories/rows";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import { clearTransfers, createOpenOrder, createPartner, newPhone } from "../../../../tests/worker/transfer-fixtures";
import { orderDelivery, orders, transfers } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { recordTransferEvent, routeTransfer } from "../transfers";

beforeEach(clearTransfers);

/** Wednesday 2026-03-04 at hh:mm in Chicago (UTC-6 in March before DST). */
const chicago = (hour: number, minute = 0, day = 4) => Date.UTC(2026, 2, day, hour + 6, minute);

type Partner = Awaited<ReturnType<typeof createPartner>>;
const input = (phone = newPhone(), state = "TX") =>
  pingSchema.parse({
    prospect: { firstName: "Ann", lastName: "Lee", phone, state },
    consent: { optInAt: "2026-01-01T00:00:00Z", optInUrl: "https://example.com/quote" },
  });
const route = (partner: Partner, now: number) => routeTransfer(createDeps(env, now), partner.owner, input());
/** A Hawaii prospect (808 number), whose calling hours (docs/decisions/0064) are still open at a Chicago night. */
const routeAtNight = (partner: Partner, now: number) =>
  routeTransfer(createDeps(env, now), partner.owner, input(`808${newPhone().slice(3)}`, "HI"));
const noRoute = async (promise: Promise<unknown>, reason: string) =>
  expect(promise).rejects.toMatchObject({ name: "ConflictError", details: { reason } });
const connect = (partner: Partner, id: string, now: number) =>
  recordTransferEvent(createDeps(env, now), partner.id, id, { type: "connected" }, { siteOrigin: "http://localhost" });
const routedCount = (orderId: string) => testDb().$count(transfers, eq(transfers.orderId, orderId));
/** An order's delivery settings as stored (column names, JSON as text), all columns or those named. */
const deliveryRow = async (orderId: string, columns?: string[]) => {
  const row = await storedRow(testDb(), orderDelivery, eq(orderDelivery.orderId, orderId));
  if (!row || !columns) return row ?? null;
  return Object.fromEntries(columns.map((column) => [column, row[column]]));
};
const LIMIT_COLUMNS = ["days", "closed_from", "closed_until", "per_hour_cap", "max_concurrent"];

describe("routing keeps to an order's own limits", () => {
  it("takes no calls on a weekday the order left out", async () => {
    const partner = await createPartner();
    await createOpenOrder({ days: [1, 2, 4, 5] });
    // Wednesday in Chicago: closed; Thursday: open.
    await noRoute(route(partner, chicago(10)), "outside_hours");
    expect((await route(partner, chicago(10, 0, 5))).transferId).toBeTruthy();
  });

  it("takes no calls on the closure's days, first and last included, in the order's zone", async () => {
    const partner = await createPartner();
    await createOpenOrder({ closedFrom: "2026-03-04", closedUntil: "2026-03-05", timeZone: "America/New_York" });
    await noRoute(route(partner, chicago(10, 0, 4)), "outside_hours");
    await noRoute(routeAtNight(partner, chicago(22, 30, 5)), "outside_hours"); // 23:30 on the 5th in New York
    // 23:30 on the 5th in Chicago is already the 6th in New York: open again.
    expect((await routeAtNight(partner, chicago(23, 30, 5))).transferId).toBeTruthy();
    // 23:59 on the 3rd in New York is open; a minute later the closure starts.
    expect((await routeAtNight(partner, chicago(22, 59, 3))).transferId).toBeTruthy();
    await noRoute(routeAtNight(partner, chicago(23, 0, 3)), "outside_hours");
  });

  it("puts through at most the hourly cap in any 60 minutes, counted as the per-day cap counts", async () => {
    const partner = await createPartner();
    await createOpenOrder({ perHourCap: 2 });
    const first = await route(partner, chicago(10, 0));
    await connect(partner, first.transferId, chicago(10, 0) + 5000);
    const second = await route(partner, chicago(10, 20));
    await connect(partner, second.transferId, chicago(10, 20) + 5000);
    await noRoute(route(partner, chicago(10, 59)), "caps_reached");
    // 10:00's call left the window; 10:20's has not.
    const third = await route(partner, chicago(11, 1));
    await connect(partner, third.transferId, chicago(11, 1) + 5000);
    await noRoute(route(partner, chicago(11, 15)), "caps_reached");
    expect((await route(partner, chicago(11, 21))).transferId).toBeTruthy();
  });

  it("does not count an expired answer against the hour", async () => {
    const partner = await createPartner();
    await createOpenOrder({ perHourCap: 1 });
    await route(partner, chicago(10)); // never connected: expires at 10:01
    await noRoute(route(partner, chicago(10) + 30_000), "caps_reached");
    expect((await route(partner, chicago(10, 2))).transferId).toBeTruthy();
  });

  it("rings at most the concurrency cap at once, and frees a place when a call ends", async () => {
    const partner = await createPartner();
    await createOpenOrder({ maxConcurrent: 1 });
    const held = await route(partner, chicago(10));
    await connect(partner, held.transferId, chicago(10) + 5000);
    await noRoute(route(partner, chicago(10, 5)), "caps_reached");
    await recordTransferEvent(
      createDeps(env, chicago(10, 6)),
      partner.id,
      held.transferId,
      { type: "completed", durationSeconds: 300 },
      { siteOrigin: "http://localhost" },
    );
    expect((await route(partner, chicago(10, 7))).transferId).toBeTruthy();
  });

  it("routes exactly 2 of 20 simultaneous pings to an order taking 2 calls at once", async () => {
    const partner = await createPartner();
    const order = await createOpenOrder({ maxConcurrent: 2, quantity: 50 });
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => route(partner, chicago(10))));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(2);
    for (const result of results) {
      if (result.status === "rejected") expect(result.reason).toMatchObject({ details: { reason: "caps_reached" } });
    }
    expect(await routedCount(order.id)).toBe(2);
  });

  it("routes exactly the hourly cap of simultaneous pings", async () => {
    const partner = await createPartner();
    const order = await createOpenOrder({ perHourCap: 3, quantity: 50 });
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => route(partner, chicago(10))));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(3);
    expect(await routedCount(order.id)).toBe(3);
  });

  it("sends a call past a capped order to the next one", async () => {
    const partner = await createPartner();
    await createOpenOrder({ maxConcurrent: 1, paidAt: 1 });
    const next = await createOpenOrder({ paidAt: 2 });
    await route(partner, chicago(10));
    const second = await route(partner, chicago(10) + 1000);
    const [row] = await testDb()
      .select({ orderId: transfers.orderId })
      .from(transfers)
      .where(eq(transfers.id, second.transferId));
    expect(row).toEqual({ orderId: next.id });
  });
});

describe("the delivery settings' limits", () => {
  const LIMITS = {
    days: ["1", "2", "3"],
    closedFrom: "2026-12-24",
    closedUntil: "2026-12-26",
    perHourCap: "2",
    maxConcurrent: "1",
  };

  it("an admin saves them; /admin-orders shows them in the form and in one line", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const order = await createOpenOrder();
    const put = await callApi(`/api/transfer-orders/${order.id}/delivery`, {
      method: "PUT",
      json: { ...SAMPLE_DELIVERY_SETTINGS, ...LIMITS },
      cookie,
    });
    expect(put.status).toBe(200);
    const row = await deliveryRow(order.id, LIMIT_COLUMNS);
    expect(row).toEqual({
      days: "[1,2,3]",
      closed_from: "2026-12-24",
      closed_until: "2026-12-26",
      per_hour_cap: 2,
      max_concurrent: 1,
    });
    const list = await (await callApi("/api/transfer-orders", { cookie })).json<Record<string, unknown>[]>();
    expect(list.find((o) => o.id === order.id)?.delivery).toMatchObject({
      settings: LIMITS,
      limits: "Mon–Wed · closed Dec 24, 2026 – Dec 26, 2026 · 2 an hour · 1 at once",
    });
    // Saving without them (no days chosen, empty fields) takes them away: every day, no caps.
    const cleared = {
      ...SAMPLE_DELIVERY_SETTINGS,
      days: [],
      closedFrom: "",
      closedUntil: "",
      perHourCap: "",
      maxConcurrent: "",
    };
    expect(
      (await callApi(`/api/transfer-orders/${order.id}/delivery`, { method: "PUT", json: cleared, cookie })).status,
    ).toBe(200);
    expect(await deliveryRow(order.id, LIMIT_COLUMNS)).toEqual({
      days: null,
      closed_from: null,
      closed_until: null,
      per_hour_cap: null,
      max_concurrent: null,
    });
  });

  it("refuses bad limits with 400 and their message, and saves nothing", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const order = await createOpenOrder({ perDayCap: 7 });
    const before = await deliveryRow(order.id);
    for (const [bad, message] of [
      [{ closedFrom: "2026-12-26", closedUntil: "2026-12-24" }, LIMIT_MESSAGES.closureOrder],
      [{ closedFrom: "2026-12-26" }, LIMIT_MESSAGES.closureBoth],
      [{ closedFrom: "2026-02-30", closedUntil: "2026-03-01" }, LIMIT_MESSAGES.date],
      [{ perHourCap: "0" }, LIMIT_MESSAGES.perHour],
      [{ perHourCap: "1.5" }, LIMIT_MESSAGES.perHour],
      [{ perHourCap: "501" }, LIMIT_MESSAGES.perHour],
      [{ perHourCap: "5" }, LIMIT_MESSAGES.perHourOverDay],
      [{ maxConcurrent: "0" }, LIMIT_MESSAGES.concurrent],
      [{ maxConcurrent: "101" }, LIMIT_MESSAGES.concurrent],
      [{ maxConcurrent: "two" }, LIMIT_MESSAGES.concurrent],
      [{ days: ["7"] }, LIMIT_MESSAGES.day],
    ] as const) {
      const response = await callApi(`/api/transfer-orders/${order.id}/delivery`, {
        method: "PUT",
        json: { ...SAMPLE_DELIVERY_SETTINGS, perDayCap: "4", ...bad },
        cookie,
      });
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect(JSON.stringify(await response.json()), JSON.stringify(bad)).toContain(message);
    }
    expect(await deliveryRow(order.id)).toEqual(before);
  });

  it("the setup page refuses bad limits with 400 too", async () => {
    const response = await callApi("/api/delivery-setup", {
      json: {
        token: "any",
        settings: { ...SAMPLE_DELIVERY_SETTINGS, closedFrom: "2026-12-26", closedUntil: "2026-12-01" },
      },
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain(LIMIT_MESSAGES.closureOrder);
  });
});

describe("the dashboard's order form", () => {
  const order = (cookie: string, limits: Record<string, unknown>) =>
    callApi("/api/call-transfer-order", {
      json: {
        totalTransfers: 3,
        callsPerDay: 2,
        transferHours: "9am-5pm",
        transferPhone: "(555) 999-0000",
        workingStates: "TX",
        leadType: "Live Transfers",
        price: 105,
        ...limits,
      },
      cookie,
    });

  it("takes the limits with the order; they are the order's settings once it is paid", async () => {
    const { cookie } = await signedIn();
    const response = await order(cookie, {
      days: [1, 2, 3, 4, 5],
      closedFrom: "2026-12-24",
      closedUntil: "2026-12-25",
      perHourCap: 2,
      maxConcurrent: 1,
    });
    expect(response.status).toBe(200);
    const { orderId, clientSecret } = await response.json<{ orderId: string; clientSecret: string }>();
    const paid = await callApi("/api/simulated-payments/confirm", {
      json: { clientSecret, cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" },
    });
    expect(paid.status).toBe(200);
    const row = await deliveryRow(orderId, ["setup_status", ...LIMIT_COLUMNS]);
    expect(row).toEqual({
      setup_status: "ready",
      days: "[1,2,3,4,5]",
      closed_from: "2026-12-24",
      closed_until: "2026-12-25",
      per_hour_cap: 2,
      max_concurrent: 1,
    });
  });

  it("refuses bad limits with 400 and their message", async () => {
    const { cookie } = await signedIn();
    const before = await testDb().$count(orders);
    for (const [bad, message] of [
      [{ perHourCap: 3 }, LIMIT_MESSAGES.perHourOverDay],
      [{ closedFrom: "2026-12-25", closedUntil: "2026-12-24" }, LIMIT_MESSAGES.closureOrder],
      [{ maxConcurrent: 0 }, LIMIT_MESSAGES.concurrent],
    ] as const) {
      const response = await order(cookie, bad);
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect(await response.json()).toMatchObject({ message });
    }
    expect(await testDb().$count(orders)).toEqual(before);
  });
});
