/**
 * Routing's first read (routing-candidates.ts) passes over orders that are full now or whose agents could
 * not take the call, and never over one that could: the orders it finds eligible are exactly those the
 * read of every open order finds, in the same order (a property over random orders, caps, calls held and
 * agents), and a page behind 30 busy orders still holds the one that can take the call.
 */
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { localTime } from "../../../../src/domain/time-zones";
import { rankEligible } from "../../../../src/features/transfers/transfers";
import { createAgent, createTransfer, testDb } from "../../../../tests/worker/factories";
import { clearTransfers, createOpenOrder, createPartner, newPhone } from "../../../../tests/worker/transfer-fixtures";
import { createDeps } from "../../../deps";
import { type CandidateRow, candidatesFor, toCandidate } from "../routing-candidates";
import { openOrdersFor, withCounts } from "../transfer-routing";

beforeEach(clearTransfers);

/** Wednesday 2026-03-04, 10:00 in Chicago. */
const NOW = Date.UTC(2026, 2, 4, 16);
const TODAY = localTime(NOW, "America/Chicago").day;
/** Hours that hold 10:00 in Chicago, and hours that do not. */
const OPEN = { hoursStartMinute: 0, hoursEndMinute: 0 };
const CLOSED = { hoursStartMinute: 13 * 60, hoursEndMinute: 17 * 60 };

/** Mostly true (or mostly false): enough orders and agents that can take the call to compare. */
const mostly = (value: boolean) => fc.constantFrom(value, value, value, !value);
const agentShape = fc.record({
  takingCalls: mostly(true),
  licensed: mostly(true),
  inHours: mostly(true),
  weekday: mostly(true),
  onCall: mostly(false),
});
const orderShape = fc.record({
  inHours: mostly(true),
  quantity: fc.integer({ min: 1, max: 3 }),
  perDayCap: fc.integer({ min: 1, max: 3 }),
  maxConcurrent: fc.option(fc.constant(1), { nil: null }),
  perHourCap: fc.option(fc.constant(1), { nil: null }),
  held: fc.constantFrom(0, 0, 1, 2),
  deliveredToday: fc.constantFrom(0, 0, 1, 2),
  agents: fc.array(agentShape, { maxLength: 2 }),
});

type OrderShape = typeof orderShape extends fc.Arbitrary<infer T> ? T : never;

async function makeOrder(shape: OrderShape, paidAt: number, partnerId: string): Promise<string> {
  const order = await createOpenOrder({
    ...(shape.inHours ? OPEN : CLOSED),
    quantity: shape.quantity,
    perDayCap: shape.perDayCap,
    maxConcurrent: shape.maxConcurrent,
    perHourCap: shape.perHourCap,
    paidAt,
  });
  const call = (minutesAgo: number, live: boolean, agentId: string | null = null) =>
    createTransfer(testDb(), {
      partnerId,
      orderId: order.id,
      agentId,
      routedAt: new Date(NOW - minutesAgo * 60_000),
      status: live ? "routed" : "completed",
      expiresAt: new Date(live ? NOW + 60_000 : NOW - minutesAgo * 60_000 + 1000),
      buyerLocalDay: TODAY,
    });
  for (let i = 0; i < shape.held; i++) await call(0, true);
  for (let i = 0; i < shape.deliveredToday; i++) await call(30 + i * 40, false);
  for (const agent of shape.agents) {
    const made = await createAgent(testDb(), order.id, {
      takingCalls: agent.takingCalls,
      states: agent.licensed ? ["TX"] : ["OK"],
      days: agent.weekday ? [3] : [0, 6],
      ...(agent.inHours ? OPEN : CLOSED),
    });
    if (agent.onCall) await call(0, true, made.id);
  }
  return order.id;
}

const ids = (ranked: ReturnType<typeof rankEligible>) =>
  "reason" in ranked ? [] : ranked.orders.map((o) => o.orderId);

async function firstPage(phone: string, limit = 25) {
  const rows = await testDb().all<CandidateRow>(candidatesFor("TX", phone, NOW, limit));
  return rows.map(toCandidate);
}

describe("routing's first read", () => {
  it("finds eligible exactly the orders the read of every open order finds, oldest paid first", async () => {
    const partner = await createPartner();
    let compared = 0;
    // Runs where an order with agents was eligible, and where one was not: both kinds must be compared.
    let withAgentsEligible = 0;
    let someIneligible = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(orderShape, { minLength: 1, maxLength: 6 }), async (shapes) => {
        await clearTransfers();
        for (const [i, shape] of shapes.entries()) await makeOrder(shape, NOW - (10 - i) * 86_400_000, partner.id);
        const phone = newPhone();
        const deps = createDeps(env, NOW);
        const context = { now: NOW, recentBuyerKeys: new Set<string>(), state: "TX" };
        const everyOrder = ids(rankEligible(await withCounts(deps, await openOrdersFor(deps, "TX", phone)), context));
        const candidates = await withCounts(deps, await openOrdersFor(deps, "TX", phone));
        const page = ids(rankEligible(await firstPage(phone), context));
        expect(page).toEqual(everyOrder);
        compared++;
        if (candidates.some((order) => order.agents?.length && everyOrder.includes(order.orderId)))
          withAgentsEligible++;
        if (everyOrder.length < candidates.length) someIneligible++;
      }),
      { numRuns: 80 },
    );
    expect(compared).toBe(80);
    expect(withAgentsEligible).toBeGreaterThan(0);
    expect(someIneligible).toBeGreaterThan(0);
  });

  it("holds the order that can take the call behind 30 older orders that cannot", async () => {
    const partner = await createPartner();
    const busy: Omit<OrderShape, "deliveredToday" | "agents"> = {
      inHours: true,
      quantity: 3,
      perDayCap: 2,
      maxConcurrent: null,
      perHourCap: null,
      held: 0,
    };
    for (let i = 0; i < 30; i++) {
      // In turn: at today's cap, agents all on calls, an agent switched off.
      const agents =
        i % 3 === 1 ? [{ takingCalls: true, licensed: true, inHours: true, weekday: true, onCall: true }] : [];
      if (i % 3 === 2) agents.push({ takingCalls: false, licensed: true, inHours: true, weekday: true, onCall: false });
      await makeOrder(
        { ...busy, deliveredToday: i % 3 === 0 ? 2 : 0, agents },
        NOW - (40 - i) * 86_400_000,
        partner.id,
      );
    }
    const free = await makeOrder({ ...busy, deliveredToday: 0, agents: [] }, NOW - 86_400_000, partner.id);
    const page = await firstPage(newPhone(), 25);
    expect(page.map((order) => order.orderId)).toEqual([free]);
  });
});
