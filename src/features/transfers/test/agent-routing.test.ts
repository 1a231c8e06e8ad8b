/** Routing to an order's agents (docs/decisions/0072): who may take a ping now, and who rings. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { localTime, US_TIME_ZONES } from "../../../domain/time-zones";
import { type AgentLoad, agentIneligibility, availableAgents, pickAgent, type RoutingAgent } from "../agent-routing";
import { ineligibility, type RoutingCandidate } from "../transfers";

const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];
const agent = (overrides: Partial<RoutingAgent & AgentLoad> = {}): RoutingAgent & AgentLoad => ({
  id: "a1",
  states: ["TX"],
  timeZone: "America/New_York",
  days: EVERY_DAY,
  hoursStartMinute: 9 * 60,
  hoursEndMinute: 17 * 60,
  takingCalls: true,
  onCall: false,
  lastRoutedAt: null,
  lastSequence: null,
  ...overrides,
});
/** Wednesday 2026-03-04 at hh:mm in New York (UTC-5, before DST). */
const newYork = (hour: number, minute = 0) => Date.UTC(2026, 2, 4, hour + 5, minute);

describe("an agent may take a ping now", () => {
  it("only in a state it is licensed in, switched on, on its days, within its hours in its own zone", () => {
    expect(agentIneligibility(agent(), "TX", newYork(10))).toBeNull();
    expect(agentIneligibility(agent(), "FL", newYork(10))).toBe("unlicensed");
    expect(agentIneligibility(agent({ takingCalls: false }), "TX", newYork(10))).toBe("off");
    expect(agentIneligibility(agent({ days: [1, 2, 4] }), "TX", newYork(10))).toBe("outside_hours");
    expect(agentIneligibility(agent(), "TX", newYork(17))).toBe("outside_hours");
    expect(agentIneligibility(agent(), "TX", newYork(8, 59))).toBe("outside_hours");
    // 10 am in New York is 7 am in Los Angeles: outside a Los Angeles agent's 9 to 5.
    expect(agentIneligibility(agent({ timeZone: "America/Los_Angeles" }), "TX", newYork(10))).toBe("outside_hours");
    expect(agentIneligibility(agent({ timeZone: "America/Los_Angeles" }), "TX", newYork(12))).toBeNull();
  });

  it("with hours spanning midnight: from the start to midnight and on to the end, on the local weekday", () => {
    const night = agent({ hoursStartMinute: 22 * 60, hoursEndMinute: 6 * 60 });
    expect(agentIneligibility(night, "TX", newYork(23, 30))).toBeNull();
    expect(agentIneligibility(night, "TX", newYork(5, 59))).toBeNull();
    expect(agentIneligibility(night, "TX", newYork(6))).toBe("outside_hours");
    expect(agentIneligibility(night, "TX", newYork(21, 59))).toBe("outside_hours");
    // 1 am on Thursday in New York: a Wednesday-only agent no longer works.
    expect(agentIneligibility({ ...night, days: [3] }, "TX", newYork(25))).toBe("outside_hours");
    expect(agentIneligibility(agent({ hoursStartMinute: 0, hoursEndMinute: 0 }), "TX", newYork(3))).toBeNull();
  });

  it("across the DST changes, by the local clock", () => {
    // 2026-03-08: New York's 2 am becomes 3 am. An agent from 1 am to 3 am.
    const early = agent({ hoursStartMinute: 60, hoursEndMinute: 180 });
    expect(agentIneligibility(early, "TX", Date.UTC(2026, 2, 8, 6, 30))).toBeNull(); // 1:30 EST
    expect(agentIneligibility(early, "TX", Date.UTC(2026, 2, 8, 7, 0))).toBe("outside_hours"); // 3:00 EDT
    // 2026-11-01: 1 am to 2 am happens twice; both are within the hours, 2 am (EST) is not.
    expect(agentIneligibility(early, "TX", Date.UTC(2026, 10, 1, 5, 30))).toBeNull(); // 1:30 EDT
    expect(agentIneligibility(early, "TX", Date.UTC(2026, 10, 1, 6, 30))).toBeNull(); // 1:30 EST
    const untilTwo = agent({ hoursStartMinute: 60, hoursEndMinute: 120 });
    expect(agentIneligibility(untilTwo, "TX", Date.UTC(2026, 10, 1, 7, 0))).toBe("outside_hours"); // 2:00 EST
  });
});

describe("the agent who rings", () => {
  it("is the free one used least recently: never-used first, then the oldest latest call, then the id", () => {
    const now = newYork(10);
    const agents = [
      agent({ id: "c", lastRoutedAt: now - 5000, lastSequence: 3 }),
      agent({ id: "b", lastRoutedAt: now - 9000, lastSequence: 1, onCall: true }),
      agent({ id: "a", lastRoutedAt: now - 7000, lastSequence: 2 }),
    ];
    expect(pickAgent(agents, "TX", now)?.id).toBe("a");
    expect(pickAgent([...agents, agent({ id: "z" })], "TX", now)?.id).toBe("z");
    expect(pickAgent([agent({ id: "y" }), agent({ id: "x" })], "TX", now)?.id).toBe("x");
    // Two calls in one millisecond: the one routed first (smaller sequence) was used less recently.
    const tie = [
      agent({ id: "p", lastRoutedAt: now, lastSequence: 8 }),
      agent({ id: "q", lastRoutedAt: now, lastSequence: 7 }),
    ];
    expect(pickAgent(tie, "TX", now)?.id).toBe("q");
  });

  it("is nobody when every agent is on a call, off, unlicensed or outside its hours", () => {
    const now = newYork(10);
    const agents = [
      agent({ id: "a", onCall: true }),
      agent({ id: "b", takingCalls: false }),
      agent({ id: "c", states: ["FL"] }),
      agent({ id: "d", days: [0] }),
    ];
    expect(pickAgent(agents, "TX", now)).toBeNull();
    expect(availableAgents(agents, "TX", now)).toEqual([]);
    expect(availableAgents([...agents, agent({ id: "e" })], "TX", now).map((a) => a.id)).toEqual(["e"]);
  });

  it("never is an agent outside its hours, unlicensed, switched off or on a call, and always the least recently used free one", () => {
    const minute = fc.integer({ min: 0, max: 1439 });
    const arbitraryAgent = fc.record({
      id: fc.string({ minLength: 1, maxLength: 3 }),
      states: fc.subarray(["TX", "FL", "CA", "NY"]),
      timeZone: fc.constantFrom(...US_TIME_ZONES),
      days: fc.subarray(EVERY_DAY),
      hoursStartMinute: minute,
      hoursEndMinute: minute,
      takingCalls: fc.boolean(),
      onCall: fc.boolean(),
      lastRoutedAt: fc.option(fc.integer({ min: 0, max: 1000 })),
      lastSequence: fc.option(fc.integer({ min: 0, max: 1000 })),
    });
    // Around the 2026 DST changes and any other moment of the year.
    const instant = fc.oneof(
      fc.integer({ min: Date.UTC(2026, 2, 8, 4), max: Date.UTC(2026, 2, 8, 14) }),
      fc.integer({ min: Date.UTC(2026, 10, 1, 3), max: Date.UTC(2026, 10, 1, 13) }),
      fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2027, 0, 1) }),
    );
    // The rule said independently: the local clock in the agent's zone, hours as [start, end) maybe past midnight.
    const worksNow = (a: RoutingAgent, state: string, now: number) => {
      const local = localTime(now, a.timeZone);
      const { hoursStartMinute: start, hoursEndMinute: end } = a;
      const inHours =
        start === end ||
        (start < end ? local.minute >= start && local.minute < end : local.minute >= start || local.minute < end);
      return a.states.includes(state) && a.takingCalls && a.days.includes(local.weekday) && inHours;
    };
    const lastUse = (a: AgentLoad): [number, number] =>
      a.lastRoutedAt === null ? [-1, 0] : [a.lastRoutedAt, a.lastSequence ?? 0];
    fc.assert(
      fc.property(
        fc.array(arbitraryAgent, { maxLength: 8 }),
        fc.constantFrom("TX", "FL", "CA"),
        instant,
        (agents, state, now) => {
          const picked = pickAgent(agents, state, now);
          const free = agents.filter((a) => !a.onCall && worksNow(a, state, now));
          if (!picked) return free.length === 0;
          if (picked.onCall || !worksNow(picked, state, now)) return false;
          const [at, sequence] = lastUse(picked);
          return free.every((other) => {
            const [otherAt, otherSequence] = lastUse(other);
            return otherAt > at || (otherAt === at && otherSequence >= sequence);
          });
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("an order with agents", () => {
  const order = (agents: RoutingAgent[] | null): RoutingCandidate => ({
    orderId: "o1",
    buyerKey: "u1",
    paidAt: 0,
    timeZone: "America/Chicago",
    hoursStartMinute: 0,
    hoursEndMinute: 0,
    days: null,
    closedFrom: null,
    closedUntil: null,
    perHourCap: null,
    maxConcurrent: null,
    perDayCap: 10,
    transfersTotal: 10,
    transfersBillable: 0,
    held: 0,
    deliveredToday: 0,
    deliveredLastHour: 0,
    agents,
  });
  const context = { now: newYork(10), recentBuyerKeys: new Set<string>(), state: "TX" };

  it("is eligible only while one of its agents may take the call; without agents, as before", () => {
    expect(ineligibility(order([agent()]), context)).toBeNull();
    expect(ineligibility(order([agent({ states: ["FL"] })]), context)).toBe("no_open_order");
    expect(ineligibility(order([agent({ takingCalls: false }), agent({ days: [0] })]), context)).toBe("outside_hours");
    expect(ineligibility(order([agent({ takingCalls: false }), agent({ id: "b" })]), context)).toBeNull();
    // Every agent who could take it is on a call: the order is full for now.
    expect(ineligibility(order([agent({ onCall: true }), agent({ id: "b", states: ["FL"] })]), context)).toBe(
      "caps_reached",
    );
    expect(ineligibility(order([]), context)).toBeNull();
    expect(ineligibility(order(null), context)).toBeNull();
  });
});
