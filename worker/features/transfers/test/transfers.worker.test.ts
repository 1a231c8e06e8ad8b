/** The routing and billing rules of the transfers service, at chosen moments (time is a parameter). */

import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { pingSchema } from "../../../../src/features/transfers/schemas/partner-api";
import { NO_ANSWER_PAUSE_REASON } from "../../../../src/features/transfers/transfers";
import { createOpenOrder as openOrder, testDb } from "../../../../tests/worker/factories";
import { latestMailTo } from "../../../../tests/worker/helpers";
import {
  clearTransfers,
  createOpenOrder,
  createPartner,
  newPhone,
  orderCounts,
  routeAtCallingHours,
} from "../../../../tests/worker/transfer-fixtures";
import { orderDelivery, transfers, users } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { listPartnerTransfers, partnerPayouts, partnerStats } from "../../partners/partner-portal";
import { recordTransferEvent, routeTransfer, type TransferEventInput } from "../transfers";

// Pings route only inside the prospect's legal calling hours (docs/decisions/0064).
routeAtCallingHours();

beforeEach(clearTransfers);

/** Wednesday 2026-03-04 at hh:mm in Chicago (UTC-6 in March before DST). */
const chicago = (hour: number, minute = 0, day = 4) => Date.UTC(2026, 2, day, hour + 6, minute);
const SITE = { siteOrigin: "http://localhost" };

type Partner = Awaited<ReturnType<typeof createPartner>>;
/** A ping as the API hands it to routing (parsed by the partner API's schema). */
const input = (state = "TX", phone = newPhone()) =>
  pingSchema.parse({
    prospect: { firstName: "Ann", lastName: "Lee", phone, state },
    consent: { optInAt: "2026-01-01T00:00:00Z", optInUrl: "https://example.com/quote" },
  });
const route = (partner: Partner, now: number, state = "TX", phone = newPhone()) =>
  routeTransfer(createDeps(env, now), partner.owner, input(state, phone));
/**
 * Pings of prospects whose legal calling hours are open when Chicago's are not (docs/decisions/0064): New
 * York's open at 7 am Chicago time, Honolulu's until 1 am.
 */
const routeNewYork = (partner: Partner, now: number) => route(partner, now, "NY", newPhone("212"));
const routeHonolulu = (partner: Partner, now: number) => route(partner, now, "HI", newPhone("808"));
const noRoute = async (promise: Promise<unknown>, reason: string) =>
  expect(promise).rejects.toMatchObject({ name: "ConflictError", details: { reason } });
const event = (partner: Partner, id: string, body: TransferEventInput, now: number) =>
  recordTransferEvent(createDeps(env, now), partner.id, id, body, SITE);
/** A call connected 10 s after its routing at `routedAt` and completed `durationSeconds` later. */
async function call(partner: Partner, id: string, routedAt: number, durationSeconds: number) {
  await event(partner, id, { type: "connected" }, routedAt + 10_000);
  return event(partner, id, { type: "completed", durationSeconds }, routedAt + 10_000 + durationSeconds * 1000);
}

/** The order a transfer was routed to. */
const routedTo = async (transferId: string) =>
  (await testDb().select({ orderId: transfers.orderId }).from(transfers).where(eq(transfers.id, transferId)))[0];

describe("which orders take a ping", () => {
  it("takes the prospect's state from orders listing it, and any state from orders without states", async () => {
    const partner = await createPartner();
    const texas = await createOpenOrder({ states: ["TX"] });
    expect((await route(partner, chicago(10), "TX")).transferId).toBeTruthy();
    await noRoute(route(partner, chicago(10), "CA"), "no_open_order");
    const anywhere = await createOpenOrder({ states: [] });
    const answer = await route(partner, chicago(10), "CA");
    expect(await routedTo(answer.transferId)).toEqual({ orderId: anywhere.id });
    expect(texas.id).not.toBe(anywhere.id);
  });

  it("sends the oldest paid order first", async () => {
    const partner = await createPartner();
    const newer = await createOpenOrder({ paidAt: chicago(8) });
    const older = await createOpenOrder({ paidAt: chicago(7) });
    const { transferId } = await route(partner, chicago(10));
    expect(await routedTo(transferId)).toEqual({ orderId: older.id });
    expect(newer.id).not.toBe(older.id);
  });

  it("moves past a page of full orders to the next oldest with room", async () => {
    const partner = await createPartner();
    const orders = [];
    for (let i = 0; i < 27; i++) orders.push(await createOpenOrder({ perDayCap: 1, paidAt: 1000 + i }));
    const routed: (string | undefined)[] = [];
    for (let i = 0; i < 27; i++) {
      const { transferId } = await route(partner, chicago(10, i));
      await event(partner, transferId, { type: "connected" }, chicago(10, i) + 5000);
      const row = await routedTo(transferId);
      routed.push(row?.orderId);
    }
    expect(routed).toEqual(orders.map((order) => order.id));
    await noRoute(route(partner, chicago(10, 30)), "caps_reached");
  }, 60_000); // 27 orders and 27 calls: slow on a shared machine

  it("skips paused orders, unpaid orders and orders awaiting setup", async () => {
    const partner = await createPartner();
    const paused = await createOpenOrder();
    await testDb().update(orderDelivery).set({ paused: true }).where(eq(orderDelivery.orderId, paused.id));
    await openOrder(testDb(), { status: "pending", paidAt: null }); // unpaid
    const awaiting = await createOpenOrder({ transferPhone: null });
    expect(
      (
        await testDb()
          .select({ setupStatus: orderDelivery.setupStatus })
          .from(orderDelivery)
          .where(eq(orderDelivery.orderId, awaiting.id))
      )[0],
    ).toEqual({
      setupStatus: "awaiting_setup",
    });
    await noRoute(route(partner, chicago(10)), "no_open_order");
  });

  it("keeps the routing index's open flag and paid time in step with every change to an order", async () => {
    const partner = await createPartner();
    const order = await createOpenOrder({ states: ["TX", "OK"], paidAt: chicago(7) });
    // raw SQL: each statement fires the routing index's triggers (migration 0009), which are under test
    const run = (statement: string) => env.DB.prepare(statement).bind(order.id).run();
    // The claim re-checks everything, so routing stays right even with a stale flag: read the flag itself.
    const flags = async () =>
      (
        await env.DB.prepare("SELECT state, open, paid_at FROM order_delivery_states WHERE order_id = ? ORDER BY state")
          .bind(order.id)
          .all()
      ).results;
    const both = (open: number, paidAt = chicago(7)) => [
      { state: "OK", open, paid_at: paidAt },
      { state: "TX", open, paid_at: paidAt },
    ];
    expect(await flags()).toEqual(both(1));
    await run("UPDATE order_delivery SET paused = 1 WHERE order_id = ?");
    expect(await flags()).toEqual(both(0));
    await noRoute(route(partner, chicago(10)), "no_open_order");
    await run("UPDATE order_delivery SET paused = 0 WHERE order_id = ?");
    expect(await flags()).toEqual(both(1));
    expect((await route(partner, chicago(10))).transferId).toBeTruthy();
    await run("UPDATE orders SET status = 'pending' WHERE id = ?");
    expect(await flags()).toEqual(both(0));
    await run(`UPDATE orders SET status = 'paid', paid_at = ${chicago(9)} WHERE id = ?`);
    expect(await flags()).toEqual(both(1, chicago(9)));
    await run("UPDATE order_delivery SET transfers_billable = transfers_total WHERE order_id = ?");
    expect(await flags()).toEqual(both(0, chicago(9)));
    await noRoute(route(partner, chicago(10, 3)), "no_open_order");
    await run("UPDATE order_delivery SET transfers_total = transfers_total + 1 WHERE order_id = ?");
    expect(await flags()).toEqual(both(1, chicago(9)));
    expect((await route(partner, chicago(10, 4))).transferId).toBeTruthy();
  });

  it("keeps to the order's transfer hours in the buyer's time zone", async () => {
    const partner = await createPartner();
    await createOpenOrder({ hoursStartMinute: 9 * 60, hoursEndMinute: 17 * 60, timeZone: "America/New_York" });
    // 7:59 in Chicago is 8:59 in New York (closed), 8:00 is 9:00 (open), 16:00 is 17:00 (closed).
    await noRoute(routeNewYork(partner, chicago(16, 0)), "outside_hours");
    await noRoute(routeNewYork(partner, chicago(7, 59)), "outside_hours");
    expect((await routeNewYork(partner, chicago(8, 0))).phoneNumber).toBeTruthy();
  });

  it("keeps to the order's weekdays", async () => {
    const partner = await createPartner();
    await createOpenOrder({ days: [1, 2] });
    await noRoute(route(partner, chicago(10)), "outside_hours");
    await createOpenOrder({ days: [3] });
    expect((await route(partner, chicago(10))).transferId).toBeTruthy();
  });

  it("counts the per-day cap on the buyer's day, starting again after their midnight", async () => {
    const partner = await createPartner();
    await createOpenOrder({ perDayCap: 1, timeZone: "America/Chicago" });
    const first = await routeHonolulu(partner, chicago(23, 30));
    await call(partner, first.transferId, chicago(23, 30), 300);
    await noRoute(routeHonolulu(partner, chicago(23, 50)), "caps_reached");
    // 00:10 the next day in Chicago (06:10 UTC); the UTC day did not change.
    expect((await routeHonolulu(partner, chicago(0, 10, 5))).transferId).toBeTruthy();
  });

  it("does not count unanswered or expired transfers against the day", async () => {
    const partner = await createPartner();
    await createOpenOrder({ perDayCap: 1 });
    const unanswered = await route(partner, chicago(10));
    await event(partner, unanswered.transferId, { type: "no-answer" }, chicago(10, 1));
    await route(partner, chicago(10, 2)); // expires unused at 10:03
    expect((await route(partner, chicago(10, 4))).transferId).toBeTruthy();
  });

  it("refuses the same phone to the same buyer for 30 days, but not to another buyer", async () => {
    const partner = await createPartner();
    const buyer = await createOpenOrder({ paidAt: 1 });
    await createOpenOrder({ buyerId: buyer.buyerId, paidAt: 2 });
    const phone = newPhone();
    const first = await route(partner, chicago(10), "TX", phone);
    await call(partner, first.transferId, chicago(10), 200);
    await noRoute(route(partner, chicago(11), "TX", phone), "duplicate");
    const other = await createOpenOrder({ paidAt: 3 });
    const second = await route(partner, chicago(11), "TX", phone);
    expect(await routedTo(second.transferId)).toEqual({ orderId: other.id });
    // 31 days later the first buyer may have the caller again (and, paid first, gets them).
    const later = await route(partner, chicago(11) + 31 * 86_400_000, "TX", phone);
    expect(await routedTo(later.transferId)).toEqual({ orderId: buyer.id });
  });

  it("stops at the partner's own daily call cap, on the partner's day", async () => {
    const partner = await createPartner({ dailyCallCap: 2 });
    await createOpenOrder();
    await route(partner, chicago(10));
    await route(partner, chicago(10, 1));
    await noRoute(route(partner, chicago(10, 2)), "partner_cap_reached");
    expect((await routeHonolulu(partner, chicago(0, 5, 5))).transferId).toBeTruthy();
  });
});

describe("slots", () => {
  it("holds a slot until the answer expires after 60 seconds", async () => {
    const partner = await createPartner();
    const order = await createOpenOrder({ quantity: 1 });
    const held = await route(partner, chicago(10));
    await noRoute(route(partner, chicago(10) + 59_000), "caps_reached");
    const next = await route(partner, chicago(10) + 61_000);
    expect(next.transferId).not.toBe(held.transferId);
    // The expired answer can no longer connect.
    await expect(event(partner, held.transferId, { type: "connected" }, chicago(10) + 62_000)).rejects.toMatchObject({
      name: "ConflictError",
    });
    expect(await orderCounts(order.id)).toMatchObject({ billable: 0 });
  });

  it("keeps a connected call's slot past the answer's 60 seconds until it ends", async () => {
    const partner = await createPartner();
    await createOpenOrder({ quantity: 1 });
    const held = await route(partner, chicago(10));
    await event(partner, held.transferId, { type: "connected" }, chicago(10) + 20_000);
    await noRoute(route(partner, chicago(10, 5)), "caps_reached");
    await event(partner, held.transferId, { type: "completed", durationSeconds: 90 }, chicago(10, 6));
    expect((await route(partner, chicago(10, 7))).transferId).toBeTruthy();
  });

  it("frees the slot of a failed or unanswered call", async () => {
    const partner = await createPartner();
    await createOpenOrder({ quantity: 1 });
    const failed = await route(partner, chicago(10));
    await event(partner, failed.transferId, { type: "failed" }, chicago(10) + 5000);
    const unanswered = await route(partner, chicago(10) + 6000);
    await event(partner, unanswered.transferId, { type: "no-answer" }, chicago(10) + 9000);
    expect((await route(partner, chicago(10) + 10_000)).transferId).toBeTruthy();
  });
});

describe("no answers", () => {
  it("pauses an order after three no-answers within an hour and e-mails the buyer once", async () => {
    const partner = await createPartner();
    const order = await createOpenOrder();
    const [buyer] = await testDb().select({ email: users.email }).from(users).where(eq(users.id, order.buyerId));
    for (const minute of [0, 20]) {
      const { transferId } = await route(partner, chicago(10, minute));
      await event(partner, transferId, { type: "no-answer" }, chicago(10, minute + 1));
    }
    expect(await orderCounts(order.id)).toMatchObject({ paused: 0 });
    const third = await route(partner, chicago(10, 50));
    await event(partner, third.transferId, { type: "no-answer" }, chicago(10, 51));
    expect(await orderCounts(order.id)).toMatchObject({ paused: 1 });
    const mail = await latestMailTo(buyer?.email ?? "");
    expect(mail?.subject).toBe("Live transfers paused on your order");
    expect(mail?.text).toContain(NO_ANSWER_PAUSE_REASON);
    await noRoute(route(partner, chicago(11)), "no_open_order");
  });

  it("does not pause for no-answers spread over more than an hour", async () => {
    const partner = await createPartner();
    const order = await createOpenOrder();
    for (const minute of [0, 40, 90]) {
      const { transferId } = await route(partner, chicago(10, minute % 60) + Math.floor(minute / 60) * 3_600_000);
      await event(
        partner,
        transferId,
        { type: "no-answer" },
        chicago(10, minute % 60) + Math.floor(minute / 60) * 3_600_000 + 60_000,
      );
    }
    expect(await orderCounts(order.id)).toMatchObject({ paused: 0 });
  });
});

describe("the partner's portal figures", () => {
  it("reports today's calls, the billable rate, the average duration, the list and the weekly payout", async () => {
    const partner = await createPartner({ dailyCallCap: 50, payPerTransferCents: 3000, paymentTerms: "Net 7" });
    await createOpenOrder();
    const durations = [300, 100, 200];
    for (const [index, seconds] of durations.entries()) {
      const { transferId } = await route(partner, chicago(10, index * 10));
      await call(partner, transferId, chicago(10, index * 10), seconds);
    }
    await route(partner, chicago(11)); // still routed
    const stats = await partnerStats(createDeps(env, chicago(12)), partner.profile);
    expect(stats).toEqual({
      today: {
        day: "2026-03-04",
        calls: 4,
        dailyCallCap: 50,
        refusals: { refused: 0, callingWindow: 0, callLimit: 0, suppressed: 0 },
      },
      completed: 3,
      billable: 2,
      billableRate: 2 / 3,
      averageDurationSeconds: 200,
    });
    const list = await listPartnerTransfers(createDeps(env, chicago(11) + 10_000), partner.id);
    expect(list.map((t) => t.outcome)).toEqual([
      "in progress",
      "billable",
      "under 2 minutes — not charged",
      "billable",
    ]);
    expect(await partnerPayouts(createDeps(env), partner.profile)).toEqual([
      { start: "2026-03-02", end: "2026-03-08", due: "2026-03-15", billableTransfers: 2, amountCents: 6000 },
    ]);
  });
});
