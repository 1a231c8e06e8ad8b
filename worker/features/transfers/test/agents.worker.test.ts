/** An order's agents (docs/decisions/0071): who may edit them, what bad input gets, the list's counts. */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { localTime } from "../../../../src/domain/time-zones";
import { AGENT_MESSAGES, MAX_AGENTS_PER_ORDER } from "../../../../src/features/transfers/agents";
import { type Agent, type AgentInput, agentSchema } from "../../../../src/features/transfers/schemas/agents";
import { createOrder, createTransfer, testDb } from "../../../../tests/worker/factories";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import { signedInPartner } from "../../../../tests/worker/partner-helpers";
import { createOpenOrder } from "../../../../tests/worker/transfer-fixtures";
import { orderAgents } from "../../../db/schema";

const AGENT: AgentInput = {
  name: "Dana Cole",
  transferPhone: "(214) 555-0101",
  states: ["TX", "FL"],
  timeZone: "America/Chicago",
  days: [1, 2, 3, 4, 5],
  hoursStart: "09:00",
  hoursEnd: "17:00",
};

/** A signed-in buyer with a paid live-transfer order (Chicago time). */
async function buyerWithOrder() {
  const buyer = await signedIn();
  const order = await createOpenOrder({ buyerId: buyer.user.id });
  const url = `/api/transfer-orders/${order.id}/agents`;
  return { ...buyer, order, url };
}

async function addAgent(url: string, cookie: string, body: Record<string, unknown> = AGENT) {
  const response = await callApi(url, { json: body, cookie });
  expect(response.status, await response.clone().text()).toBe(201);
  return agentSchema.parse(await response.json());
}

/** The list, checked against the API's own answer schema (routing and the panel read that shape). */
const listOf = async (url: string, cookie: string): Promise<Agent[]> =>
  agentSchema.array().parse(await (await callApi(url, { cookie })).json());

describe("an order's agents: who may call", () => {
  it("answers 401 to a stranger on every agent route", async () => {
    const { url } = await buyerWithOrder();
    const agentUrl = `${url}/${crypto.randomUUID()}`;
    for (const [path, method, json] of [
      [url, "GET", undefined],
      [url, "POST", AGENT],
      [agentUrl, "PUT", AGENT],
      [`${agentUrl}/taking-calls`, "PATCH", { takingCalls: false }],
      [agentUrl, "DELETE", undefined],
    ] as const) {
      const response = await callApi(path, { method, json });
      expect(response.status, `${method} ${path}`).toBe(401);
    }
  });

  it("refuses a partner's session with 403", async () => {
    const { url } = await buyerWithOrder();
    const partner = await signedInPartner();
    expect((await callApi(url, { cookie: partner.cookie })).status).toBe(403);
    expect((await callApi(url, { json: AGENT, cookie: partner.cookie })).status).toBe(403);
  });

  it("answers another buyer's order and agent with the same 404 as a missing one, and changes nothing", async () => {
    const owner = await buyerWithOrder();
    const agent = await addAgent(owner.url, owner.cookie);
    const other = await signedIn();
    const missingOrder = `/api/transfer-orders/${crypto.randomUUID()}/agents`;
    const stranger = await callApi(owner.url, { cookie: other.cookie });
    const missing = await callApi(missingOrder, { cookie: other.cookie });
    expect(stranger.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(await stranger.json()).toEqual(await missing.json());

    const agentUrl = `${owner.url}/${agent.id}`;
    const attempts = [
      await callApi(owner.url, { json: AGENT, cookie: other.cookie }),
      await callApi(agentUrl, { method: "PUT", json: { ...AGENT, name: "Taken" }, cookie: other.cookie }),
      await callApi(`${agentUrl}/taking-calls`, {
        method: "PATCH",
        json: { takingCalls: false },
        cookie: other.cookie,
      }),
      await callApi(agentUrl, { method: "DELETE", cookie: other.cookie }),
    ];
    for (const response of attempts) {
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: "No such order." });
    }
    expect(await listOf(owner.url, owner.cookie)).toEqual([agent]);
  });

  it("answers an agent of another order like a missing agent, on the buyer's own order", async () => {
    const first = await buyerWithOrder();
    const second = await createOpenOrder({ buyerId: first.user.id });
    const agent = await addAgent(`/api/transfer-orders/${second.id}/agents`, first.cookie);
    const elsewhere = await callApi(`${first.url}/${agent.id}`, { method: "DELETE", cookie: first.cookie });
    const missing = await callApi(`${first.url}/${crypto.randomUUID()}`, { method: "DELETE", cookie: first.cookie });
    expect(elsewhere.status).toBe(404);
    const answer = await missing.json();
    expect(answer).toEqual({ message: AGENT_MESSAGES.notFound });
    expect(await elsewhere.json()).toEqual(answer);
  });

  it("lets an admin manage the agents of any buyer's order, as the admin's delivery routes do", async () => {
    const owner = await buyerWithOrder();
    const admin = await signedIn({ isAdmin: true });
    const agent = await addAgent(owner.url, admin.cookie);
    expect(await listOf(owner.url, owner.cookie)).toEqual([agent]);
  });
});

describe("an order's agents: the buyer's edits", () => {
  it("My Orders marks the orders with delivery settings, whose agents the buyer manages", async () => {
    const { cookie, order, user } = await buyerWithOrder();
    const unpaid = await createOrder(testDb(), { userId: user.id, kind: "transfer", status: "pending" });
    const list = await (await callApi("/api/my-orders", { cookie })).json<{ id: string; delivers: boolean }[]>();
    expect(list.find((row) => row.id === order.id)?.delivers).toBe(true);
    expect(list.find((row) => row.id === unpaid.id)?.delivers).toBe(false);
    expect((await callApi(`/api/transfer-orders/${unpaid.id}/agents`, { cookie })).status).toBe(404);
  });

  it("adds, lists, edits, switches and removes an agent; the removed one keeps its row", async () => {
    const { url, cookie } = await buyerWithOrder();
    const added = await addAgent(url, cookie);
    expect(added).toEqual({
      id: expect.any(String),
      ...AGENT,
      transferPhone: "2145550101",
      takingCalls: true,
      onCall: false,
      callsToday: 0,
      billableToday: 0,
    });
    expect(await listOf(url, cookie)).toEqual([added]);

    const agentUrl = `${url}/${added.id}`;
    const off = await callApi(`${agentUrl}/taking-calls`, { method: "PATCH", json: { takingCalls: false }, cookie });
    expect(off.status).toBe(200);
    expect((await off.json<Agent>()).takingCalls).toBe(false);

    const edited = await callApi(agentUrl, {
      method: "PUT",
      json: { ...AGENT, name: "Dana Cole-Ruiz", states: "ga, Florida", days: [6, 0, 6], hoursStart: "22:00" },
      cookie,
    });
    expect(edited.status).toBe(200);
    // An edit without the switch keeps it; the days are stored once each, in order; states as codes.
    expect(await edited.json<Agent>()).toMatchObject({
      name: "Dana Cole-Ruiz",
      states: ["GA", "FL"],
      days: [0, 6],
      hoursStart: "22:00",
      hoursEnd: "17:00",
      takingCalls: false,
    });
    const on = await callApi(`${agentUrl}/taking-calls`, { method: "PATCH", json: { takingCalls: true }, cookie });
    expect((await on.json<Agent>()).takingCalls).toBe(true);

    const removed = await callApi(agentUrl, { method: "DELETE", cookie });
    expect(removed.status).toBe(200);
    expect(await listOf(url, cookie)).toEqual([]);
    const [row] = await testDb().select().from(orderAgents).where(eq(orderAgents.id, added.id));
    expect(row?.removedAt).toBeInstanceOf(Date);
    expect(row?.name).toBe("Dana Cole-Ruiz");
    // Removed is gone for every route: a second removal or an edit answers 404.
    expect((await callApi(agentUrl, { method: "DELETE", cookie })).status).toBe(404);
    expect((await callApi(agentUrl, { method: "PUT", json: AGENT, cookie })).status).toBe(404);
  });

  it("takes hours that end before they start (across midnight) and equal hours (all day)", async () => {
    const { url, cookie } = await buyerWithOrder();
    const night = await addAgent(url, cookie, { ...AGENT, hoursStart: "20:00", hoursEnd: "02:00" });
    const allDay = await addAgent(url, cookie, { ...AGENT, hoursStart: "00:00", hoursEnd: "00:00" });
    const rows = await testDb()
      .select()
      .from(orderAgents)
      .where(eq(orderAgents.orderId, url.split("/")[3] ?? ""));
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(night.id)).toMatchObject({ hoursStartMinute: 20 * 60, hoursEndMinute: 2 * 60 });
    expect(byId.get(allDay.id)).toMatchObject({ hoursStartMinute: 0, hoursEndMinute: 0 });
  });
});

describe("an order's agents: bad input changes nothing", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["an unknown time zone", { ...AGENT, timeZone: "Europe/Paris" }, AGENT_MESSAGES.timeZone],
    ["a phone that is not a US number", { ...AGENT, transferPhone: "+44 20 7946 0958" }, AGENT_MESSAGES.transferPhone],
    ["a phone with too few digits", { ...AGENT, transferPhone: "555-0101" }, AGENT_MESSAGES.transferPhone],
    ["no states", { ...AGENT, states: [] }, AGENT_MESSAGES.states],
    ["a word that names no state", { ...AGENT, states: "Texas, Narnia" }, AGENT_MESSAGES.states],
    ["no weekdays", { ...AGENT, days: [] }, AGENT_MESSAGES.days],
    ["a weekday past Saturday", { ...AGENT, days: [7] }, AGENT_MESSAGES.days],
    ["hours that are not HH:MM", { ...AGENT, hoursStart: "9am" }, AGENT_MESSAGES.hoursStart],
    ["an empty name", { ...AGENT, name: "  " }, AGENT_MESSAGES.name],
  ];
  for (const [what, body, message] of cases) {
    it(`refuses ${what} with 400 and its message, on add and on edit`, async () => {
      const { url, cookie } = await buyerWithOrder();
      const agent = await addAgent(url, cookie);
      const added = await callApi(url, { json: body, cookie });
      expect(added.status).toBe(400);
      expect(await added.json()).toMatchObject({ message });
      const edited = await callApi(`${url}/${agent.id}`, { method: "PUT", json: body, cookie });
      expect(edited.status).toBe(400);
      expect(await edited.json()).toMatchObject({ message });
      expect(await listOf(url, cookie)).toEqual([agent]);
    });
  }

  it("refuses a switch that is not true or false", async () => {
    const { url, cookie } = await buyerWithOrder();
    const agent = await addAgent(url, cookie);
    const response = await callApi(`${url}/${agent.id}/taking-calls`, {
      method: "PATCH",
      json: { takingCalls: "no" },
      cookie,
    });
    expect(response.status).toBe(400);
    expect(await listOf(url, cookie)).toEqual([agent]);
  });

  it(`refuses a ${MAX_AGENTS_PER_ORDER + 1}st agent, even when adds race, and counts removed ones out`, async () => {
    const { url, cookie, order } = await buyerWithOrder();
    const db = testDb();
    // One row per statement: D1 binds at most 100 parameters to one.
    const rows = Array.from({ length: MAX_AGENTS_PER_ORDER - 2 }, (_, i) =>
      db.insert(orderAgents).values({
        id: crypto.randomUUID(),
        orderId: order.id,
        name: `Agent ${i}`,
        transferPhone: "2145550101",
        states: ["TX"],
        timeZone: "America/Chicago",
        days: [1],
        hoursStartMinute: 540,
        hoursEndMinute: 1020,
      }),
    );
    const [first, ...rest] = rows;
    if (first) await db.batch([first, ...rest]);
    // Four adds at once for the last two places: exactly two are taken.
    const answers = await Promise.all(Array.from({ length: 4 }, () => callApi(url, { json: AGENT, cookie })));
    expect(answers.map((response) => response.status).sort()).toEqual([201, 201, 409, 409]);
    const refused = answers.find((response) => response.status === 409);
    expect(await refused?.json()).toEqual({ message: AGENT_MESSAGES.tooMany });
    const list = await listOf(url, cookie);
    expect(list).toHaveLength(MAX_AGENTS_PER_ORDER);

    expect((await callApi(`${url}/${list[0]?.id}`, { method: "DELETE", cookie })).status).toBe(200);
    await addAgent(url, cookie);
    expect((await callApi(url, { json: AGENT, cookie })).status).toBe(409);
  });
});

describe("an order's agents: the list's calls today", () => {
  it("counts each agent's transfers and billable ones on the order's local day, and who is on a call", async () => {
    const { url, cookie, order, user } = await buyerWithOrder();
    const busy = await addAgent(url, cookie, { ...AGENT, name: "Busy" });
    const idle = await addAgent(url, cookie, { ...AGENT, name: "Idle" });
    const now = Date.now();
    const today = localTime(now, "America/Chicago").day;
    const db = testDb();
    const mine = { orderId: order.id, buyerUserId: user.id, buyerLocalDay: today };
    await createTransfer(db, { ...mine, agentId: busy.id, billable: true });
    await createTransfer(db, { ...mine, agentId: busy.id, billable: false, status: "no_answer" });
    // Yesterday's call counts nowhere; a connected call still within its hold is "on a call".
    await createTransfer(db, { ...mine, agentId: idle.id, buyerLocalDay: "2000-01-01" });
    await createTransfer(db, {
      ...mine,
      agentId: busy.id,
      status: "connected",
      billable: false,
      expiresAt: new Date(now + 3_600_000),
    });
    // A connected call whose hold ran out is no longer a live call.
    await createTransfer(db, {
      ...mine,
      agentId: idle.id,
      status: "connected",
      billable: false,
      buyerLocalDay: "2000-01-01",
      expiresAt: new Date(now - 1000),
    });

    const list = await listOf(url, cookie);
    expect(
      list.map(({ name, onCall, callsToday, billableToday }) => ({ name, onCall, callsToday, billableToday })),
    ).toEqual([
      { name: "Busy", onCall: true, callsToday: 3, billableToday: 1 },
      { name: "Idle", onCall: false, callsToday: 0, billableToday: 0 },
    ]);
  });
});
