/**
 * Routing rings an order's agents (docs/decisions/0072): a licensed agent within its own hours, switched
 * on and not on a call, the least recently used first; an order whose agents are all busy is passed over.
 */

import { env } from "cloudflare:workers";
import { count, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { pingSchema } from "../../../../src/features/transfers/schemas/partner-api";
import { CONNECTED_HOLD_SECONDS } from "../../../../src/features/transfers/transfers";
import { createAgent, createTransfer, testDb } from "../../../../tests/worker/factories";
import { clearTransfers, createOpenOrder, createPartner, newPhone } from "../../../../tests/worker/transfer-fixtures";
import { transfers } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { recordTransferEvent, routeTransfer } from "../transfers";

beforeEach(clearTransfers);

/** Wednesday 2026-03-04 at hh:mm in Chicago (UTC-6 before DST): the Chicago prospects' calling hours are open. */
const chicago = (hour: number, minute = 0) => Date.UTC(2026, 2, 4, hour + 6, minute);
const ORDER_PHONE = "2145559000";

type Partner = Awaited<ReturnType<typeof createPartner>>;
const input = (phone = newPhone(), state = "TX") =>
  pingSchema.parse({
    prospect: { firstName: "Ann", lastName: "Lee", phone, state },
    consent: { optInAt: "2026-01-01T00:00:00Z", optInUrl: "https://example.com/quote" },
  });
const route = (partner: Partner, now: number, phone?: string) =>
  routeTransfer(createDeps(env, now), partner.owner, input(phone));
const noRoute = async (promise: Promise<unknown>, reason: string) =>
  expect(promise).rejects.toMatchObject({ name: "ConflictError", details: { reason } });
const stored = async (id: string) => {
  const [row] = await testDb()
    .select({ orderId: transfers.orderId, agentId: transfers.agentId, transferPhone: transfers.transferPhone })
    .from(transfers)
    .where(eq(transfers.id, id));
  return row && { order_id: row.orderId, agent_id: row.agentId, transfer_phone: row.transferPhone };
};
/** Two open orders: `first` paid a day before `second`, so routing tries `first` first. */
async function twoOrders(options: { quantity?: number; perDayCap?: number } = {}) {
  const first = await createOpenOrder({ ...options, paidAt: chicago(10) - 2 * 86_400_000 });
  const second = await createOpenOrder({ ...options, paidAt: chicago(10) - 86_400_000, transferPhone: "2145559111" });
  return { first, second };
}

describe("routing rings an order's agent", () => {
  it("answers the agent's number and records the agent on the transfer", async () => {
    const partner = await createPartner();
    const order = await createOpenOrder();
    const agent = await createAgent(testDb(), order.id);
    const answer = await route(partner, chicago(10));
    expect(answer.phoneNumber).toBe(agent.transferPhone);
    expect(await stored(answer.transferId)).toEqual({
      order_id: order.id,
      agent_id: agent.id,
      transfer_phone: agent.transferPhone,
    });
  });

  it("routes an order without agents as before: its own number, no agent", async () => {
    const partner = await createPartner();
    const order = await createOpenOrder();
    const answer = await route(partner, chicago(10));
    expect(answer.phoneNumber).toBe(ORDER_PHONE);
    expect(await stored(answer.transferId)).toEqual({
      order_id: order.id,
      agent_id: null,
      transfer_phone: ORDER_PHONE,
    });
  });

  it("never rings a removed agent: an order whose agents are all removed rings its own number", async () => {
    const partner = await createPartner();
    const order = await createOpenOrder();
    await createAgent(testDb(), order.id, { removedAt: new Date(chicago(9)) });
    const answer = await route(partner, chicago(10));
    expect(answer.phoneNumber).toBe(ORDER_PHONE);
    expect((await stored(answer.transferId))?.agent_id).toBeNull();
  });

  const passedOver: [string, (orderId: string, partnerId: string) => Promise<unknown>][] = [
    ["not licensed in the prospect's state", (orderId) => createAgent(testDb(), orderId, { states: ["FL", "GA"] })],
    [
      "outside its own hours in its own zone",
      // 10 am in Chicago is 8 am in Los Angeles: before a 9-to-5 agent there starts.
      (orderId) =>
        createAgent(testDb(), orderId, {
          timeZone: "America/Los_Angeles",
          hoursStartMinute: 9 * 60,
          hoursEndMinute: 17 * 60,
        }),
    ],
    ["on a day it does not work", (orderId) => createAgent(testDb(), orderId, { days: [0, 6] })],
    ["switched off", (orderId) => createAgent(testDb(), orderId, { takingCalls: false })],
    [
      "on a call",
      async (orderId, partnerId) => {
        const agent = await createAgent(testDb(), orderId);
        await createTransfer(testDb(), {
          orderId,
          partnerId,
          agentId: agent.id,
          status: "connected",
          routedAt: new Date(chicago(9, 50)),
          expiresAt: new Date(chicago(9, 50) + CONNECTED_HOLD_SECONDS * 1000),
          durationSeconds: null,
          billable: false,
        });
      },
    ],
  ];
  it.each(passedOver)("passes over an agent %s: the call goes to the next order", async (_, arrange) => {
    const partner = await createPartner();
    const { first, second } = await twoOrders();
    await arrange(first.id, partner.id);
    const answer = await route(partner, chicago(10));
    expect((await stored(answer.transferId))?.order_id).toBe(second.id);
    expect(answer.phoneNumber).toBe("2145559111");
  });

  it("skips an order whose agents are all on calls for the next order, and refuses when none is left", async () => {
    const partner = await createPartner();
    const { first, second } = await twoOrders();
    const agents = [await createAgent(testDb(), first.id), await createAgent(testDb(), first.id)];
    // Every ping within the first answer's 60 seconds: both agents stay on their calls.
    const at = (seconds: number) => chicago(10) + seconds * 1000;
    const rung = [await route(partner, at(0)), await route(partner, at(10))];
    expect(rung.map((answer) => answer.phoneNumber).sort()).toEqual(agents.map((agent) => agent.transferPhone).sort());
    const third = await route(partner, at(20));
    expect((await stored(third.transferId))?.order_id).toBe(second.id);
    // Once the next order has an agent too, it rings that agent; with it busy as well, no order is left.
    const next = await createAgent(testDb(), second.id);
    expect((await route(partner, at(30))).phoneNumber).toBe(next.transferPhone);
    await noRoute(route(partner, at(40)), "caps_reached");
  });

  it("frees an agent whose connected call never reported its end once the hold times out", async () => {
    const partner = await createPartner();
    const order = await createOpenOrder();
    const agent = await createAgent(testDb(), order.id);
    const first = await route(partner, chicago(10));
    await recordTransferEvent(
      createDeps(env, chicago(10) + 5000),
      partner.id,
      first.transferId,
      { type: "connected" },
      {
        siteOrigin: "http://localhost",
      },
    );
    // The answer's 60 seconds are long gone, but the connected call holds the agent for the hold.
    await noRoute(route(partner, chicago(11)), "caps_reached");
    const heldUntil = chicago(10) + 5000 + CONNECTED_HOLD_SECONDS * 1000;
    await noRoute(route(partner, heldUntil - 1000), "caps_reached");
    expect((await route(partner, heldUntil + 1000)).phoneNumber).toBe(agent.transferPhone);
  });

  it("frees an agent when an answer expires unused", async () => {
    const partner = await createPartner();
    const order = await createOpenOrder();
    const agent = await createAgent(testDb(), order.id);
    await route(partner, chicago(10));
    await noRoute(route(partner, chicago(10) + 30_000), "caps_reached");
    expect((await route(partner, chicago(10, 2))).phoneNumber).toBe(agent.transferPhone);
  });
});

describe("agents under load", () => {
  it("puts 20 simultaneous pings on one order's 5 agents: 5 routed, never two on one agent", async () => {
    const partner = await createPartner();
    const order = await createOpenOrder({ quantity: 100 });
    const agents = await Promise.all(Array.from({ length: 5 }, () => createAgent(testDb(), order.id)));
    const now = chicago(10);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => route(partner, now)));
    const routed = results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
    expect(routed).toHaveLength(5);
    for (const result of results) {
      if (result.status === "rejected") expect(result.reason).toMatchObject({ details: { reason: "caps_reached" } });
    }
    const rows = await testDb()
      .select({ agentId: transfers.agentId, n: count() })
      .from(transfers)
      .where(eq(transfers.orderId, order.id))
      .groupBy(transfers.agentId);
    expect(rows.map((row) => row.n)).toEqual([1, 1, 1, 1, 1]);
    expect(rows.map((row) => row.agentId).sort()).toEqual(agents.map((agent) => agent.id).sort());
    expect(new Set(routed.map((answer) => answer.phoneNumber)).size).toBe(5);
  });

  it("shares 1,000 pings fairly: every agent's count within one of the others'", async () => {
    const partner = await createPartner({ dailyCallCap: 5000 });
    const order = await createOpenOrder({ quantity: 5000, perDayCap: 5000 });
    const agents = await Promise.all(Array.from({ length: 4 }, () => createAgent(testDb(), order.id)));
    const count = new Map<string, number>(agents.map((agent) => [agent.transferPhone, 0]));
    let previous: string | undefined;
    const db = testDb();
    for (let ping = 0; ping < 1000; ping++) {
      const now = chicago(10) + ping * 1000;
      const answer = await route(partner, now, `312555${String(ping).padStart(4, "0")}`);
      count.set(answer.phoneNumber, (count.get(answer.phoneNumber) ?? 0) + 1);
      // Each call ends just after the next ping was routed (as a completed event leaves it), so one agent
      // is always on a call when a ping comes.
      if (previous) {
        await db
          .update(transfers)
          .set({ status: "completed", endedAt: new Date(now) })
          .where(eq(transfers.id, previous));
      }
      previous = answer.transferId;
    }
    const counts = [...count.values()];
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(1000);
    expect(count.size).toBe(4);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
  }, 120_000);
});
