/**
 * The Fulfilment tab's call-back part (docs/decisions/0063): the open call-back orders and the bundle
 * orders with their counts, the waiting call-backs (those about to expire unsold flagged), and an admin
 * placing one by hand through the call-back service's own placement: refusals answer 409 with the reason,
 * and two admins placing the same call-back at once leave it in exactly one order.
 */
import { env } from "cloudflare:workers";
import { eq, inArray } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { localTime } from "../../../../src/domain/time-zones";
import { EXPIRING_SOON_MINUTES } from "../../../../src/features/callbacks/callbacks";
import { watchD1 } from "../../../../tests/worker/d1-usage";
import { closePaidCallbackOrders, testDb } from "../../../../tests/worker/factories";
import { callApi, createUser, expectAdminOnly, signedIn } from "../../../../tests/worker/helpers";
import { deps, newPhone, routeAtCallingHours } from "../../../../tests/worker/transfer-fixtures";
import { agedLeads, callbackOpportunities, orders, outbox } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { fillCallbackOrders } from "../callbacks";

// The call-backs' windows are set from the clock (one starts in 30 minutes, Chicago): a clock in the
// afternoon, whatever the real time, keeps them inside the day and its calling hours.
routeAtCallingHours();

const DAY = 86_400_000;
const HOUR = 3_600_000;
const LIST = "/api/admin/fulfilment/callbacks";
const assignPath = (id: string) => `/api/admin/callbacks/${id}/assign`;

/** A paid call-back order of a fresh buyer: survey "Call-Backs", or ringcloud "call_backs" in `states`. */
async function paidCallbackOrder(options: { quantity?: number; states?: string; paidAt?: number } = {}) {
  const user = await createUser();
  const id = crypto.randomUUID();
  const quantity = options.quantity ?? 3;
  await deps()
    .db.insert(orders)
    .values({
      id,
      kind: options.states ? "ringcloud" : "survey",
      quantity,
      unitPriceCents: 1500,
      totalCents: quantity * 1500,
      userId: user.id,
      details: options.states
        ? { leadType: "call_backs", callbackPreference: "anytime", workingStates: options.states }
        : { leadType: "Call-Backs", totalCallbacks: quantity },
      paymentIntentId: `pi_test_${id}`,
      status: "paid",
      paidAt: new Date(options.paidAt ?? Date.now()),
    });
  return { id, user };
}

/** A call-back typed in by an admin, `startsInMinutes` from now (Chicago), two hours long. */
async function waitingCallback(cookie: string, options: { phone?: string; startsInMinutes?: number } = {}) {
  const start = localTime(Date.now() + (options.startsInMinutes ?? DAY / 60_000) * 60_000, "America/Chicago");
  const from = Math.min(start.minute, 21 * 60);
  const clock = (minute: number) =>
    `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
  const response = await callApi("/api/admin/callback-opportunities", {
    cookie,
    json: {
      name: "Ruth Miller",
      email: "ruth@example.com",
      phone: options.phone ?? newPhone(),
      state: "TX",
      price: 15,
      kind: "callback",
      date: start.day,
      from: clock(from),
      to: clock(from + 120),
      optInAt: Date.now() - 60_000,
    },
  });
  expect(response.status).toBe(201);
  const added = await response.json<{ id: string; orderId: string | null }>();
  expect(added.orderId).toBeNull();
  return added.id;
}

const orderOf = async (id: string) =>
  (
    await testDb()
      .select({ orderId: callbackOpportunities.orderId })
      .from(callbackOpportunities)
      .where(eq(callbackOpportunities.id, id))
  )[0]?.orderId ?? null;

interface Listing {
  callbackOrders: { orderId: string; buyer: string; bought: number; delivered: number; remaining: number }[];
  bundleOrders: { orderId: string; buyer: string; bought: number; delivered: number; remaining: number }[];
  unassigned: { id: string; expiresSoon: boolean; fittingOrderIds: string[] }[];
}

describe("the Fulfilment tab's call-backs and bundles", () => {
  beforeEach(async () => {
    // No open call-back order and no waiting call-back from another test.
    const db = testDb();
    await db.delete(callbackOpportunities);
    await closePaidCallbackOrders(db);
  });

  it("is for admins only (401 signed out, 403 for a buyer), the listing and the placing", async () => {
    await expectAdminOnly(LIST);
    await expectAdminOnly(assignPath(crypto.randomUUID()), { json: { orderId: crypto.randomUUID() } });
  });

  it("lists open call-back orders and bundle orders with their counts, and the waiting call-backs", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const soon = await waitingCallback(cookie, { startsInMinutes: 30 });
    const later = await waitingCallback(cookie, { startsInMinutes: EXPIRING_SOON_MINUTES + 24 * 60 });
    const older = await paidCallbackOrder({ quantity: 4, paidAt: Date.now() - HOUR });
    const florida = await paidCallbackOrder({ quantity: 2, states: "FL" });
    const bundleId = crypto.randomUUID();
    await deps()
      .db.insert(orders)
      .values({
        id: bundleId,
        kind: "survey",
        quantity: 3,
        unitPriceCents: 500,
        totalCents: 1500,
        userId: older.user.id,
        details: {
          leadType: "Aged Leads",
          bundle: { band: "30-60", quantity: 3, states: [], unitCents: 500 },
          undeliveredCount: 1,
        },
        paymentIntentId: `pi_test_${bundleId}`,
        status: "paid",
        paidAt: new Date(),
      });
    await deps()
      .db.insert(agedLeads)
      .values(
        [0, 1].map((n) => ({
          id: crypto.randomUUID(),
          name: `Ann Lee${n}`,
          dedupeKey: crypto.randomUUID(),
          phone: newPhone(),
          email: `ann${n}@example.com`,
          state: "TX",
          soldToUserId: older.user.id,
          soldOrderId: bundleId,
          soldAt: new Date(),
        })),
      );

    const response = await callApi(LIST, { cookie });
    expect(response.status).toBe(200);
    const listing = await response.json<Listing>();
    expect(listing.callbackOrders).toEqual([
      expect.objectContaining({ orderId: older.id, buyer: older.user.username, bought: 4, delivered: 0, remaining: 4 }),
      expect.objectContaining({ orderId: florida.id, bought: 2, delivered: 0, remaining: 2 }),
    ]);
    expect(listing.bundleOrders).toEqual([
      expect.objectContaining({ orderId: bundleId, buyer: older.user.username, bought: 3, delivered: 2, remaining: 0 }),
    ]);
    // Soonest window first; the Florida-only order fits neither Texas prospect.
    expect(listing.unassigned).toEqual([
      expect.objectContaining({ id: soon, expiresSoon: true, fittingOrderIds: [older.id] }),
      expect.objectContaining({ id: later, expiresSoon: false, fittingOrderIds: [older.id] }),
    ]);
  });

  it("places a waiting call-back in the order the admin picks, not only the oldest, with the e-mail", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const id = await waitingCallback(cookie);
    await paidCallbackOrder({ paidAt: Date.now() - HOUR });
    const picked = await paidCallbackOrder({ quantity: 2 });
    const response = await callApi(assignPath(id), { cookie, json: { orderId: picked.id } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ callbackId: id, orderId: picked.id });
    expect(await orderOf(id)).toBe(picked.id);
    expect(await testDb().$count(outbox, eq(outbox.to, picked.user.email))).toBe(1);
    const listing = await (await callApi(LIST, { cookie })).json<Listing>();
    expect(listing.callbackOrders.find((order) => order.orderId === picked.id)).toMatchObject({
      delivered: 1,
      remaining: 1,
    });
    expect(listing.unassigned).toEqual([]);
  });

  it("refuses with 409 and the reason: wrong state, a full or unknown order, the 30-day rule, already placed", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const phone = newPhone();
    const id = await waitingCallback(cookie, { phone });
    const florida = await paidCallbackOrder({ states: "FL" });
    const refusal = async (orderId: string, callbackId = id) => {
      const response = await callApi(assignPath(callbackId), { cookie, json: { orderId } });
      return { status: response.status, message: (await response.json<{ message: string }>()).message };
    };
    expect(await refusal(florida.id)).toEqual({ status: 409, message: "The order does not take prospects in TX." });
    expect(await refusal(crypto.randomUUID())).toMatchObject({ status: 409, message: /not an open call-back order/ });
    expect(await refusal("x", crypto.randomUUID())).toMatchObject({ status: 404 });
    expect((await callApi(assignPath(id), { cookie, json: {} })).status).toBe(400);

    const full = await paidCallbackOrder({ quantity: 1 });
    const first = await refusal(full.id);
    expect(first.status).toBe(200);
    expect(await refusal(full.id)).toMatchObject({ status: 409, message: /already in an order/ });
    // The same prospect again: the buyer who had them within 30 days is refused; the full order is too.
    const again = await waitingCallback(cookie, { phone });
    expect(await refusal(full.id, again)).toMatchObject({ status: 409, message: /every call-back it bought/ });
    await testDb().update(orders).set({ quantity: 5 }).where(eq(orders.id, full.id));
    expect(await refusal(full.id, again)).toMatchObject({ status: 409, message: /within the last 30 days/ });
    expect(await orderOf(again)).toBeNull();
  });

  it("two admins placing the same call-back at once: exactly one succeeds, the other is told it is taken", async () => {
    const [one, two] = await Promise.all([signedIn({ isAdmin: true }), signedIn({ isAdmin: true })]);
    const id = await waitingCallback(one.cookie);
    const first = await paidCallbackOrder();
    const second = await paidCallbackOrder();
    const answers = await Promise.all([
      callApi(assignPath(id), { cookie: one.cookie, json: { orderId: first.id } }),
      callApi(assignPath(id), { cookie: two.cookie, json: { orderId: second.id } }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const placedIn = await orderOf(id);
    expect([first.id, second.id]).toContain(placedIn);
    expect(
      await testDb().$count(callbackOpportunities, inArray(callbackOpportunities.orderId, [first.id, second.id])),
    ).toBe(1);
  });

  it("fills waiting call-backs reading the open orders once per run, oldest paid order first", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const ids = [await waitingCallback(cookie), await waitingCallback(cookie), await waitingCallback(cookie)];
    const oldest = await paidCallbackOrder({ quantity: 2, paidAt: Date.now() - HOUR });
    const newer = await paidCallbackOrder({ quantity: 2 });
    const { db, usage } = watchD1(env.DB);
    expect(await fillCallbackOrders(createDeps({ ...env, DB: db } as Cloudflare.Env))).toBe(3);
    const openReads = usage.statements.filter((statement) => /from "orders"/i.test(statement.sql));
    expect(openReads).toHaveLength(1);
    const placed = await Promise.all(ids.map(orderOf));
    expect(placed.filter((orderId) => orderId === oldest.id)).toHaveLength(2);
    expect(placed.filter((orderId) => orderId === newer.id)).toHaveLength(1);
  });
});
