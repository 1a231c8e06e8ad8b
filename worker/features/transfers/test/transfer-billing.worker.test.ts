/**
 * Billing never exceeds what was bought (product rule 19), and one prospect is billed to one buyer at
 * most once in 30 days, whatever the order and timing of pings and events. Time is moved with a fake
 * `Date` (the Worker reads the same clock), so "wait 61 s" takes no time.
 */
import { env } from "cloudflare:workers";
import { and, count, eq, inArray } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CONNECTED_HOLD_SECONDS, EVENT_REFUSALS } from "../../../../src/features/transfers/transfers";
import { createBuyer, testDb } from "../../../../tests/worker/factories";
import { callApi } from "../../../../tests/worker/helpers";
import {
  clearTransfers,
  createOpenOrder,
  createPartner,
  newPhone,
  orderCounts,
  pingBody,
} from "../../../../tests/worker/transfer-fixtures";
import { orderDelivery, orders, transferEvents, transfers } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { partnerPayouts } from "../../partners/partner-portal";

type Partner = Awaited<ReturnType<typeof createPartner>>;

/** Wednesday 2027-01-06, 10:00 in Chicago. */
const START = Date.UTC(2027, 0, 6, 16);
let clock = START;
const at = (offsetMs: number) => {
  clock = START + offsetMs;
  vi.setSystemTime(clock);
};

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  at(0);
  await clearTransfers();
});
afterEach(() => {
  vi.useRealTimers();
});

const ping = (partner: Partner, phone = newPhone()) =>
  callApi("/api/v1/transfers", { json: pingBody({ phone }), headers: partner.auth });
const report = (partner: Partner, id: string, event: unknown) =>
  callApi(`/api/v1/transfers/${id}/events`, { json: event, headers: partner.auth });
const idOf = async (response: Response) => ((await response.json()) as { transferId: string }).transferId;
const billedTo = async (orderId: string) =>
  (
    await testDb()
      .select({ n: count() })
      .from(transfers)
      .where(and(eq(transfers.orderId, orderId), eq(transfers.billable, true)))
  )[0]?.n;
const statusOf = async (id: string) =>
  (
    await testDb()
      .select({ status: transfers.status, billable: transfers.billable })
      .from(transfers)
      .where(eq(transfers.id, id))
  )[0] ?? null;

describe("an expired answer is never billed", () => {
  it("the reproduction: buy 2, two pings, a third refused, 61 s later two more, all four completed at 185 s → 2 billable, payout 2", async () => {
    const order = await createOpenOrder({ quantity: 2 });
    const partner = await createPartner({ payPerTransferCents: 2500 });
    const first = await ping(partner);
    const second = await ping(partner);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect((await ping(partner)).status).toBe(409);

    at(61_000);
    const third = await ping(partner);
    const fourth = await ping(partner);
    expect([third.status, fourth.status]).toEqual([201, 201]);
    const ids = [await idOf(first), await idOf(second), await idOf(third), await idOf(fourth)];

    const completed = [];
    for (const id of ids) completed.push(await report(partner, id, { type: "completed", durationSeconds: 185 }));
    // The first two answers had expired: 409 with a reason, and the event is recorded.
    expect(completed.map((response) => response.status)).toEqual([409, 409, 200, 200]);
    expect(await completed[0]?.json()).toEqual({ reason: "expired", message: EVENT_REFUSALS.expired });
    const [recorded] = await testDb()
      .select({ n: count() })
      .from(transferEvents)
      .where(and(eq(transferEvents.type, "completed"), inArray(transferEvents.transferId, ids)));
    expect(recorded).toEqual({ n: 4 });
    expect(await statusOf(ids[0] ?? "")).toEqual({ status: "expired", billable: false });

    expect(await orderCounts(order.id)).toMatchObject({ billable: 2, status: "completed" });
    expect(await billedTo(order.id)).toBe(2);
    const payout = await partnerPayouts(createDeps(env), partner.profile);
    expect(payout.reduce((sum, line) => sum + line.billableTransfers, 0)).toBe(2);
    expect(payout.reduce((sum, line) => sum + line.amountCents, 0)).toBe(2 * 2500);
    // A repeat of a refused event is refused the same way and changes nothing.
    expect((await report(partner, ids[0] ?? "", { type: "completed", durationSeconds: 300 })).status).toBe(409);
    expect(await billedTo(order.id)).toBe(2);
  });

  it("bills a call connected within the answer's 60 s when it completes later, and refuses `connected` after them", async () => {
    const order = await createOpenOrder({ quantity: 5 });
    const partner = await createPartner();
    const onTime = await idOf(await ping(partner));
    const late = await idOf(await ping(partner));
    at(59_000);
    expect((await report(partner, onTime, { type: "connected" })).status).toBe(200);
    at(61_000);
    const refused = await report(partner, late, { type: "connected" });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ reason: "expired" });
    at(61_000 + 300_000);
    expect(await (await report(partner, onTime, { type: "completed", durationSeconds: 300 })).json()).toMatchObject({
      status: "completed",
      billable: true,
    });
    expect((await report(partner, late, { type: "completed", durationSeconds: 300 })).status).toBe(409);
    expect(await orderCounts(order.id)).toMatchObject({ billable: 1, notCharged: 0 });
    const events = await testDb()
      .select({ type: transferEvents.type })
      .from(transferEvents)
      .where(eq(transferEvents.transferId, late))
      .orderBy(transferEvents.type);
    expect(events.map((row) => row.type)).toEqual(["completed", "connected"]);
  });

  it(`refuses a completion reported after the connected call's ${CONNECTED_HOLD_SECONDS / 3600}-hour hold`, async () => {
    const order = await createOpenOrder({ quantity: 1 });
    const partner = await createPartner();
    const id = await idOf(await ping(partner));
    at(5_000);
    await report(partner, id, { type: "connected" });
    at(5_000 + CONNECTED_HOLD_SECONDS * 1000);
    // The hold is over: the slot went back to the order, and another caller may take it.
    const next = await ping(partner);
    expect(next.status).toBe(201);
    const late = await report(partner, id, { type: "completed", durationSeconds: 600 });
    expect(late.status).toBe(409);
    expect(await late.json()).toEqual({ reason: "hold_expired", message: EVENT_REFUSALS.hold_expired });
    await report(partner, await idOf(next), { type: "completed", durationSeconds: 200 });
    expect(await orderCounts(order.id)).toMatchObject({ billable: 1, status: "completed" });
    expect(await statusOf(id)).toEqual({ status: "expired", billable: false });
  });

  it("bills nothing beyond the order's total even if its counter was filled behind the slot's back", async () => {
    const order = await createOpenOrder({ quantity: 1 });
    const partner = await createPartner();
    const id = await idOf(await ping(partner));
    // Another writer used the order's last transfer while this call held its slot.
    await testDb().update(orderDelivery).set({ transfersBillable: 1 }).where(eq(orderDelivery.orderId, order.id));
    const response = await report(partner, id, { type: "completed", durationSeconds: 300 });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "completed", billable: false });
    expect(await orderCounts(order.id)).toMatchObject({ billable: 1, notCharged: 1 });
  });

  it("is refused by the database itself: billable can never pass the total", async () => {
    const order = await createOpenOrder({ quantity: 2 });
    // raw SQL: the table's triggers are under test, with the statements exactly as written
    const over = env.DB.prepare("UPDATE order_delivery SET transfers_billable = 3 WHERE order_id = ?").bind(order.id);
    await expect(over.run()).rejects.toThrow(/transfers_billable must be between 0 and transfers_total/);
    const shrink = env.DB.prepare(
      "UPDATE order_delivery SET transfers_billable = 2, transfers_total = 1 WHERE order_id = ?",
    ).bind(order.id);
    await expect(shrink.run()).rejects.toThrow(/transfers_billable/);
    expect(await orderCounts(order.id)).toMatchObject({ billable: 0 });
  });

  it("migration 0014 repairs orders the old handler over-billed", async () => {
    const order = await createOpenOrder({ quantity: 2 });
    const partner = await createPartner();
    const ids = [];
    for (const offset of [0, 1000, 61_000, 62_000]) {
      at(offset);
      ids.push(await idOf(await ping(partner)));
    }
    at(300_000);
    // What the old handler wrote: all four completed and billable, the order "4 of 2".
    const db = testDb();
    for (const id of ids) {
      await db.batch([
        db
          .insert(transferEvents)
          .values({ transferId: id, type: "completed", receivedAt: new Date(clock), payload: {} }),
        db
          .update(transfers)
          .set({
            status: "completed",
            billable: true,
            durationSeconds: 185,
            endedAt: new Date(clock),
            expiresAt: new Date(clock),
          })
          .where(eq(transfers.id, id)),
      ]);
    }
    // The data as it was before migration 0014 (its trigger would refuse "4 of 2" now).
    const migration = env.TEST_MIGRATIONS.find((entry) => entry.name.startsWith("0014_"));
    const queries = migration?.queries ?? [];
    const trigger = queries.find((query) =>
      query.includes("CREATE TRIGGER `order_delivery_billable_within_total_on_update`"),
    );
    // raw SQL: drops the migration's own trigger, which the test runs again below
    await env.DB.prepare("DROP TRIGGER order_delivery_billable_within_total_on_update").run();
    await db.update(orderDelivery).set({ transfersBillable: 4 }).where(eq(orderDelivery.orderId, order.id));
    await db.update(orders).set({ status: "completed" }).where(eq(orders.id, order.id));

    // The migration's repair: its statements before the triggers.
    const repair = queries.slice(
      0,
      queries.findIndex((query) => query.includes("CREATE TRIGGER")),
    );
    expect(repair).toHaveLength(4);
    // raw SQL: the migration's statements are under test
    for (const statement of repair) await env.DB.prepare(statement).run();
    await env.DB.prepare(trigger ?? "").run();

    // Every one was reported after its answer's 60 s: none held a slot, none is billable.
    expect(await billedTo(order.id)).toBe(0);
    expect(await orderCounts(order.id)).toMatchObject({ billable: 0, status: "paid" });
    expect(await partnerPayouts(createDeps(env), partner.profile)).toEqual([]);
  });
});

describe("the refusal in the partner API's documentation", () => {
  it("documents each 409 reason of an event, with its message, in the OpenAPI document the reference page reads", async () => {
    const document = (await (await callApi("/api/v1/openapi.json")).json()) as {
      paths: Record<string, { post: { responses: Record<string, { content: Record<string, { schema: unknown }> }> } }>;
      components: {
        schemas: Record<string, { properties: Record<string, { enum?: string[]; description?: string }> }>;
      };
    };
    const refused = document.paths["/transfers/{id}/events"]?.post.responses["409"];
    expect(refused?.content["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/EventRefused" });
    const reason = document.components.schemas.EventRefused?.properties.reason;
    expect(reason?.enum).toEqual(Object.keys(EVENT_REFUSALS));
    for (const message of Object.values(EVENT_REFUSALS)) expect(reason?.description).toContain(message);
    expect(reason?.enum).toContain("hold_expired");
    const page = await (await callApi("/api/v1/docs")).text();
    expect(page).toContain('"url": "/api/v1/openapi.json"');
  });
});

describe("one prospect is billed to one buyer at most once in 30 days", () => {
  it("15 simultaneous pings with one caller phone, 10 rounds: never two routed to one buyer", async () => {
    const partner = await createPartner();
    const twoOrders = (await createBuyer(testDb())).id;
    await createOpenOrder({ buyerId: twoOrders, paidAt: START - 4000, quantity: 20 });
    await createOpenOrder({ buyerId: twoOrders, paidAt: START - 3000, quantity: 20 });
    await createOpenOrder({ paidAt: START - 2000, quantity: 20 });
    await createOpenOrder({ paidAt: START - 1000, quantity: 20 });
    for (let round = 0; round < 10; round++) {
      at(round * 2000); // a new second of the key's rate limit
      const phone = newPhone();
      const responses = await Promise.all(Array.from({ length: 15 }, () => ping(partner, phone)));
      const routed = responses.filter((response) => response.status === 201);
      expect(routed, `round ${round}`).toHaveLength(3);
      expect(responses.every((response) => response.status === 201 || response.status === 409)).toBe(true);
      const results = await testDb()
        .select({ buyerKey: transfers.buyerKey, n: count() })
        .from(transfers)
        .where(eq(transfers.phone, phone))
        .groupBy(transfers.buyerKey);
      expect(
        results.filter((row) => row.n > 1),
        `round ${round}`,
      ).toEqual([]);
      expect(results).toHaveLength(3);
    }
  }, 60_000);

  it("routed, left to expire, routed again, both completed: billed once", async () => {
    const partner = await createPartner();
    const first = await createOpenOrder({ paidAt: START - 2000 });
    const second = await createOpenOrder({ paidAt: START - 1000 });
    const phone = newPhone();
    const expiring = await idOf(await ping(partner, phone));
    at(61_000);
    // The expired answer is still a contact of the first buyer: the caller goes to the second.
    const again = await idOf(await ping(partner, phone));
    const [routedTo] = await testDb()
      .select({ orderId: transfers.orderId })
      .from(transfers)
      .where(eq(transfers.id, again));
    expect(routedTo).toEqual({ orderId: second.id });
    at(65_000);
    await report(partner, again, { type: "connected" });
    at(65_000 + 185_000);
    expect((await report(partner, again, { type: "completed", durationSeconds: 185 })).status).toBe(200);
    expect((await report(partner, expiring, { type: "completed", durationSeconds: 185 })).status).toBe(409);
    expect([await billedTo(first.id), await billedTo(second.id)]).toEqual([0, 1]);
    // Both buyers had the caller: a third ping finds nobody new.
    const third = await ping(partner, phone);
    expect(third.status).toBe(409);
    expect(await third.json()).toMatchObject({ reason: "duplicate" });
  });

  it("an expired answer stops counting as a contact once the dialer reports it unanswered", async () => {
    const partner = await createPartner();
    const order = await createOpenOrder();
    const phone = newPhone();
    const expiring = await idOf(await ping(partner, phone));
    at(61_000);
    expect((await ping(partner, phone)).status).toBe(409);
    await report(partner, expiring, { type: "no-answer" });
    const again = await ping(partner, phone);
    expect(again.status).toBe(201);
    const againId = await idOf(again);
    const [row] = await testDb()
      .select({ orderId: transfers.orderId })
      .from(transfers)
      .where(eq(transfers.id, againId));
    expect(row).toEqual({ orderId: order.id });
  });
});
