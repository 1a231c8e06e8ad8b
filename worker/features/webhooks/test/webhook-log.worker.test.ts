/**
 * The buyer sees and fixes delivery: the delivery log with its paging and filters,
 * "Send test event", "Resend" for one event and for every failed event of a time range, and the
 * sweep that hands the Queue again what lost its message.
 */

import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { WebhookDeliveryPage } from "../../../../src/features/webhooks/schemas/webhook-settings";
import { WEBHOOK_LOG_PAGE_SIZE } from "../../../../src/features/webhooks/schemas/webhook-settings";
import { testDb } from "../../../../tests/worker/factories";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import { addEndpoint, deliveriesOf, fakeNetwork, fakeQueue, runQueue } from "../../../../tests/worker/webhook-fixtures";
import { webhookDeliveries, webhookEvents } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { sendTestEvent } from "../log";
import { OVERDUE_MS, sweepWebhooks, WEBHOOK_RETENTION_DAYS } from "../sweep";

afterEach(() => vi.restoreAllMocks());

const MINUTE = 60_000;

/** A buyer's endpoint with `count` test events recorded at one-minute steps up to now, none sent yet. */
async function endpointWithEvents(count: number) {
  const buyer = await signedIn();
  const endpoint = await addEndpoint(buyer.cookie);
  const queue = fakeQueue();
  const base = `/api/webhook-endpoints/${endpoint.id}`;
  const ids: string[] = [];
  // Through the service: the route lets a buyer send 10 test events a minute.
  for (let i = 0; i < count; i++) {
    ids.push((await sendTestEvent(createDeps(queue.env), buyer.user.id, endpoint.id)).eventId);
  }
  const now = Date.now();
  for (const [i, id] of ids.entries()) {
    const at = new Date(now - (count - i) * MINUTE);
    await testDb()
      .update(webhookDeliveries)
      .set({ eventCreatedAt: at, nextAttemptAt: at })
      .where(eq(webhookDeliveries.eventId, id));
  }
  const log = (query = "") =>
    callApi(`${base}/deliveries${query}`, { cookie: buyer.cookie }).then((r) => r.json<WebhookDeliveryPage>());
  return { buyer, endpoint, queue, ids, base, log, now };
}

describe("the delivery log", () => {
  it("pages newest first and filters by status, type and time", async () => {
    const { ids, log, queue, now } = await endpointWithEvents(WEBHOOK_LOG_PAGE_SIZE + 5);
    const first = await log();
    expect(first).toMatchObject({ total: WEBHOOK_LOG_PAGE_SIZE + 5, page: 1, pageCount: 2 });
    expect(first.items[0]?.eventId).toBe(ids.at(-1));
    expect(first.items[0]).toMatchObject({ type: "test", status: "pending", attempts: 0, lastStatusCode: null });
    const second = await log("?page=2");
    expect(second.items.map((item) => item.eventId)).toEqual(ids.slice(0, 5).reverse());

    // The oldest ten fail (500 with an answer), the rest are delivered.
    const failing = new Set(ids.slice(0, 10));
    const network = fakeNetwork((request) =>
      failing.has(JSON.parse(request.body).id)
        ? new Response('{"error":"CRM is down"}', { status: 500 })
        : new Response("ok", { status: 200 }),
    );
    await runQueue(queue, network, { from: now, until: now });
    const failed = await log("?status=failed");
    expect(failed.total).toBe(10);
    expect(failed.items[0]).toMatchObject({
      status: "retrying",
      attempts: 1,
      lastStatusCode: 500,
      answer: '{"error":"CRM is down"}',
    });
    expect(failed.items[0]?.latencyMs).toEqual(expect.any(Number));
    expect(failed.items[0]?.nextAttemptAt).not.toBeNull();
    expect((await log("?status=delivered")).total).toBe(WEBHOOK_LOG_PAGE_SIZE - 5);
    expect((await log("?type=lead.purchased")).total).toBe(0);
    const from = new Date(now - 5.5 * MINUTE).toISOString();
    const recent = await log(`?from=${encodeURIComponent(from)}`);
    expect(recent.items.map((item) => item.eventId)).toEqual(ids.slice(-5).reverse());
  });

  it.each([
    ["?page=0", /Page must be a whole number/],
    ["?status=lost", /Status must be/],
    ["?type=lead.sold", /Unknown event/],
    ["?from=yesterday", /From must be a date and time/],
  ])("answers 400 to a bad filter %s", async (query, message) => {
    const { log } = await endpointWithEvents(0);
    const answer = (await log(query)) as unknown as { message: string };
    expect(answer.message).toMatch(message);
  });
});

describe("sending again", () => {
  it("resends one event with the same id and body, on a new round of attempts", async () => {
    const { buyer, base, queue, ids, endpoint, now } = await endpointWithEvents(1);
    const network = fakeNetwork(() => new Response(null, { status: 500 }));
    await runQueue(queue, network, { from: now, until: now + 2 * 86_400_000 });
    const resend = await callApi(`${base}/deliveries/${ids[0]}/resend`, {
      cookie: buyer.cookie,
      method: "POST",
      env: { WEBHOOK_QUEUE: queue.queue },
    });
    expect(resend.status).toBe(202);
    expect(await resend.json()).toMatchObject({ eventId: ids[0], status: "pending" });
    network.answer = () => new Response("ok");
    await runQueue(queue, network, { from: Date.now() });
    const bodies = new Set(network.received.map((request) => request.body));
    expect(bodies.size).toBe(1);
    const [row] = await deliveriesOf(endpoint.id);
    expect(row?.status).toBe("delivered");
    expect(row?.attempts).toBe(network.received.length);
  });

  it("resends every failed event of a time range, and only those", async () => {
    const { buyer, base, queue, ids, log, now } = await endpointWithEvents(6);
    const failing = new Set(ids.slice(0, 4));
    const network = fakeNetwork((request) =>
      failing.has(JSON.parse(request.body).id) ? new Response(null, { status: 503 }) : new Response("ok"),
    );
    await runQueue(queue, network, { from: now, until: now });
    const range = { from: new Date(now - 5.5 * MINUTE).toISOString(), to: new Date(now).toISOString() };
    const response = await callApi(`${base}/resend-failed`, {
      cookie: buyer.cookie,
      json: range,
      env: { WEBHOOK_QUEUE: queue.queue },
    });
    expect(response.status).toBe(202);
    // Events 2-4 failed within the range (the first is older than its start); 5 and 6 were delivered.
    expect(await response.json()).toEqual({ resent: 3, more: false });
    expect(queue.sent.map((message) => message.eventId).sort()).toEqual(ids.slice(1, 4).sort());
    expect((await log("?status=pending")).total).toBe(3);
    const backwards = await callApi(`${base}/resend-failed`, {
      cookie: buyer.cookie,
      json: { from: range.to, to: range.from },
    });
    expect(backwards.status).toBe(400);
  });

  it("refuses to resend while the endpoint is switched off, but still sends a test", async () => {
    const { buyer, base, ids } = await endpointWithEvents(1);
    await testDb()
      .update(webhookDeliveries)
      .set({ type: "order.paid", status: "dead_letter" })
      .where(eq(webhookDeliveries.eventId, ids[0] ?? ""));
    await callApi(base, { cookie: buyer.cookie, method: "PATCH", json: { enabled: false } });
    const queue = fakeQueue();
    const one = await callApi(`${base}/deliveries/${ids[0]}/resend`, { cookie: buyer.cookie, method: "POST" });
    expect(one.status).toBe(409);
    expect(await one.json()).toEqual({ message: "Switch the endpoint on to resend its events." });
    const test = await callApi(`${base}/test`, {
      cookie: buyer.cookie,
      method: "POST",
      env: { WEBHOOK_QUEUE: queue.queue },
    });
    expect(test.status).toBe(202);
    expect(queue.sent).toHaveLength(1);
    const unknown = await callApi(`${base}/deliveries/evt_00000000000000000000000000000000/resend`, {
      cookie: buyer.cookie,
      method: "POST",
    });
    expect(unknown.status).toBe(404);
  });
});

describe("the sweep", () => {
  it(`forgets events older than ${WEBHOOK_RETENTION_DAYS} days, with their log lines`, async () => {
    const { endpoint, ids, now } = await endpointWithEvents(2);
    await testDb()
      .update(webhookEvents)
      .set({ createdAt: new Date(now - WEBHOOK_RETENTION_DAYS * 86_400_000 - 1) })
      .where(eq(webhookEvents.id, ids[0] ?? ""));
    await sweepWebhooks(createDeps(fakeQueue().env, now));
    expect((await deliveriesOf(endpoint.id)).map((row) => row.event_id)).toEqual([ids[1]]);
  });

  it("hands the Queue again a delivery whose message was lost, once it is overdue", async () => {
    const { endpoint, now } = await endpointWithEvents(1);
    const queue = fakeQueue();
    await testDb()
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date(now - OVERDUE_MS / 2) })
      .where(eq(webhookDeliveries.endpointId, endpoint.id));
    expect((await sweepWebhooks(createDeps(queue.env, now))).requeued).toBe(0);
    // As the local server starts, every due delivery goes again.
    expect((await sweepWebhooks(createDeps(queue.env, now), { startup: true })).requeued).toBeGreaterThanOrEqual(1);
    queue.drain();
    await testDb()
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date(now - OVERDUE_MS - 1) })
      .where(eq(webhookDeliveries.endpointId, endpoint.id));
    await sweepWebhooks(createDeps(queue.env, now));
    expect(queue.sent.map((message) => message.endpointId)).toContain(endpoint.id);
    const network = fakeNetwork();
    await runQueue(queue, network, { from: now });
    expect((await deliveriesOf(endpoint.id))[0]?.status).toBe("delivered");
  });
});
