/**
 * Each endpoint's schedule (docs/decisions/0052), on a fake clock: a hanging endpoint never holds up
 * another buyer's deliveries, a few requests at most in flight to one endpoint, one batch at a time and
 * 100 deliveries a batch, a resend (and a test event) on the endpoint's back-off, resend presses bounded, and
 * deliveries a dead consumer held go out again within two minutes, never twice once settled.
 */

import { and, eq, inArray } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  WEBHOOK_ENDPOINT_BATCH_MAX,
  WEBHOOK_ENDPOINT_IN_FLIGHT,
  WEBHOOK_LEASE_MS,
} from "../../../../src/features/webhooks/schedule";
import {
  WEBHOOK_BULK_RESEND_LIMITED,
  WEBHOOK_BULK_RESENDS_PER_MINUTE,
} from "../../../../src/features/webhooks/schemas/webhook-settings";
import { testDb } from "../../../../tests/worker/factories";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import {
  addEndpoint,
  deliveriesOf,
  type FakeNetwork,
  type FakeQueue,
  fakeQueue,
  runQueue,
} from "../../../../tests/worker/webhook-fixtures";
import { webhookDeliveries, webhookEndpoints } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { deliverWebhooks } from "../deliver";
import { sendTestEvent } from "../log";
import type { WebhookRuntime } from "../runtime";
import { sweepWebhooks } from "../sweep";

afterEach(() => vi.restoreAllMocks());
// The sweeps look at every delivery: each test starts with none open from the ones before.
beforeEach(async () => {
  await testDb()
    .update(webhookDeliveries)
    .set({ status: "dead_letter", leasedUntil: null })
    .where(inArray(webhookDeliveries.status, ["pending", "retrying"]));
});

const MINUTE = 60_000;

/** A buyer with an endpoint at `url` and `count` test events queued for it. */
async function buyerWithEvents(queue: FakeQueue, url: string, count: number) {
  const buyer = await signedIn();
  const endpoint = await addEndpoint(buyer.cookie, { url });
  const ids: string[] = [];
  // Through the service: the route lets a buyer send 10 test events a minute.
  for (let i = 0; i < count; i++) {
    ids.push((await sendTestEvent(createDeps(queue.env), buyer.user.id, endpoint.id)).eventId);
  }
  return { buyer, endpoint, ids };
}

interface Sent {
  host: string;
  eventId: string;
  /** The fake clock when it was sent. */
  at: number;
}

/**
 * A network where `hang.buyer-test.com` never answers (until the attempt gives up) and every other host
 * answers `status`, counting requests in flight per host. Short timeouts keep the test quick.
 */
function scriptedNetwork(status: (host: string) => number = () => 200) {
  const clock = { now: Date.now() };
  const sent: Sent[] = [];
  const log: string[] = [];
  const inFlight = new Map<string, number>();
  const most = new Map<string, number>();
  const runtime: WebhookRuntime = {
    fetch: async (url, init) => {
      const host = new URL(url).host;
      sent.push({ host, eventId: JSON.parse(String(init.body)).id, at: clock.now });
      inFlight.set(host, (inFlight.get(host) ?? 0) + 1);
      most.set(host, Math.max(most.get(host) ?? 0, inFlight.get(host) ?? 0));
      const done = () => inFlight.set(host, (inFlight.get(host) ?? 1) - 1);
      if (host === "hang.buyer-test.com") {
        log.push("hang: sent");
        return new Promise<Response>((_, reject) =>
          init.signal?.addEventListener("abort", () => {
            log.push("hang: gave up");
            done();
            reject(new DOMException("aborted", "AbortError"));
          }),
        );
      }
      log.push(`${host}: sent`);
      await new Promise((wait) => setTimeout(wait, 2));
      done();
      return new Response(null, { status: status(host) });
    },
    resolveHost: async () => ["93.184.216.34"],
    random: () => 0.5,
    timeoutMs: 500,
    sendWindowMs: 400,
  };
  const network = { clock, runtime: () => runtime } as unknown as FakeNetwork;
  return { sent, log, most, runtime, network, clock };
}

describe("one endpoint cannot hold up another", () => {
  it("sends another buyer's deliveries at once beside a hanging endpoint, which gets a few requests, then its back-off", async () => {
    const queue = fakeQueue();
    const hanging = await buyerWithEvents(queue, "https://hang.buyer-test.com/hooks", 10);
    const healthy = await buyerWithEvents(queue, "https://crm.buyer-test.com/hooks", 10);
    const net = scriptedNetwork();
    const now = Date.now();
    net.clock.now = now;
    const report = await deliverWebhooks(createDeps(queue.env, now), queue.drain(), net.runtime);

    const few = WEBHOOK_ENDPOINT_IN_FLIGHT;
    expect(report).toMatchObject({ delivered: 10, failed: few, deferred: 10 - few });
    expect(net.most.get("hang.buyer-test.com")).toBe(few);
    // Every delivery to the healthy endpoint went out before the hanging one's first timeout.
    expect(net.log.lastIndexOf("crm.buyer-test.com: sent")).toBeLessThan(net.log.indexOf("hang: gave up"));
    expect((await deliveriesOf(healthy.endpoint.id)).every((row) => row.status === "delivered")).toBe(true);
    // The hanging endpoint's other test events wait for its back-off (a minute), back on the Queue.
    const again = queue.sent.filter((message) => message.endpointId === hanging.endpoint.id);
    expect(again).toHaveLength(10);
    expect(Math.min(...again.map((message) => message.delaySeconds))).toBe(60);

    // Then one request at each step of its back-off: 1, 2 and 4 minutes.
    await runQueue(queue, net.network, { from: now, until: now + 10 * MINUTE });
    const tries = net.sent
      .filter((request) => request.host === "hang.buyer-test.com")
      .map((request) => request.at - now);
    expect(tries).toEqual([...Array<number>(few).fill(0), MINUTE, 3 * MINUTE, 7 * MINUTE]);
  }, 30_000);

  it("keeps to a few requests in flight, one batch at a time and 100 deliveries a batch per endpoint", async () => {
    const queue = fakeQueue();
    const count = 200;
    const { endpoint } = await buyerWithEvents(queue, "https://crm.buyer-test.com/hooks", count);
    const net = scriptedNetwork();
    const now = Date.now();
    const keys = queue.drain();
    // Two batches at once: the second leaves the endpoint to the first.
    const [first, second] = await Promise.all([
      deliverWebhooks(createDeps(queue.env, now), keys.slice(0, 50), net.runtime),
      deliverWebhooks(createDeps(queue.env, now), keys.slice(50, 100), net.runtime),
    ]);
    expect([first?.deferred, second?.deferred].sort()).toEqual([0, 50]);
    expect((first?.delivered ?? 0) + (second?.delivered ?? 0)).toBe(50);
    expect(net.most.get("crm.buyer-test.com")).toBe(WEBHOOK_ENDPOINT_IN_FLIGHT);

    // One batch holding 150 of its deliveries sends 100; the rest go back to the Queue.
    queue.drain();
    const big = await deliverWebhooks(createDeps(queue.env, now + 2000), keys.slice(50), net.runtime);
    expect(big).toMatchObject({ delivered: WEBHOOK_ENDPOINT_BATCH_MAX, deferred: 150 - WEBHOOK_ENDPOINT_BATCH_MAX });
    expect(queue.sent).toHaveLength(150 - WEBHOOK_ENDPOINT_BATCH_MAX);
    await runQueue(queue, net.network, { from: now + 2000 });
    expect(net.sent).toHaveLength(count);
    expect(new Set(net.sent.map((request) => request.eventId)).size).toBe(count);
    expect(net.most.get("crm.buyer-test.com")).toBe(WEBHOOK_ENDPOINT_IN_FLIGHT);
    expect((await deliveriesOf(endpoint.id)).every((row) => row.status === "delivered")).toBe(true);
  }, 30_000);
});

describe("resending on the endpoint's schedule", () => {
  it("sends one probe at a time to a failing endpoint after 'Resend failed', and bounds presses", async () => {
    const queue = fakeQueue();
    const { buyer, endpoint } = await buyerWithEvents(queue, "https://down.buyer-test.com/hooks", 30);
    queue.drain();
    const now = Date.now();
    // Every event given up, the endpoint failing for a day.
    const db = testDb();
    await db.batch([
      db
        .update(webhookDeliveries)
        .set({ status: "dead_letter", attempts: 21, roundAttempts: 21 })
        .where(eq(webhookDeliveries.endpointId, endpoint.id)),
      db
        .update(webhookEndpoints)
        .set({ failingSince: new Date(now - 86_400_000) })
        .where(eq(webhookEndpoints.id, endpoint.id)),
    ]);
    const press = () =>
      callApi(`/api/webhook-endpoints/${endpoint.id}/resend-failed`, {
        cookie: buyer.cookie,
        json: { from: new Date(now - 60 * MINUTE).toISOString(), to: new Date(now + MINUTE).toISOString() },
        env: { WEBHOOK_QUEUE: queue.queue },
      });
    const first = await press();
    expect(first.status).toBe(202);
    expect(await first.json()).toEqual({ resent: 30, more: false });

    // One request, then one at each step of the back-off (1, 2, 4 minutes), not 30 at once.
    const net = scriptedNetwork(() => 503);
    await runQueue(queue, net.network, { from: now, until: now + 10 * MINUTE });
    expect(net.sent.map((request) => request.at - now)).toEqual([0, MINUTE, 3 * MINUTE, 7 * MINUTE]);

    for (let i = 1; i < WEBHOOK_BULK_RESENDS_PER_MINUTE; i++) expect((await press()).status).toBe(202);
    const before = await deliveriesOf(endpoint.id);
    const refused = await press();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ message: WEBHOOK_BULK_RESEND_LIMITED });
    expect(await deliveriesOf(endpoint.id)).toEqual(before);
  });

  it("answers 4xx to a resend of an unknown, malformed or another buyer's event, and changes nothing", async () => {
    const queue = fakeQueue();
    const mine = await buyerWithEvents(queue, "https://crm.buyer-test.com/hooks", 1);
    const theirs = await buyerWithEvents(queue, "https://other.buyer-test.com/hooks", 1);
    queue.drain();
    const before = [await deliveriesOf(mine.endpoint.id), await deliveriesOf(theirs.endpoint.id)];
    const resend = (endpointId: string, eventId: string) =>
      callApi(`/api/webhook-endpoints/${endpointId}/deliveries/${eventId}/resend`, {
        cookie: mine.buyer.cookie,
        method: "POST",
        env: { WEBHOOK_QUEUE: queue.queue },
      });
    const cases: [Response, number, string][] = [
      [
        await resend(mine.endpoint.id, "evt_00000000000000000000000000000000"),
        404,
        "No such event in this endpoint's log.",
      ],
      [
        await resend(mine.endpoint.id, "not-an-event"),
        400,
        "That is not an event id (evt_ and 32 hexadecimal digits).",
      ],
      // Another buyer's event through my endpoint, and through theirs.
      [await resend(mine.endpoint.id, theirs.ids[0] ?? ""), 404, "No such event in this endpoint's log."],
      [await resend(theirs.endpoint.id, theirs.ids[0] ?? ""), 404, "No such endpoint."],
    ];
    for (const [response, status, message] of cases) {
      expect(response.status).toBe(status);
      expect(await response.json()).toEqual({ message });
    }
    const bulk = await callApi(`/api/webhook-endpoints/${theirs.endpoint.id}/resend-failed`, {
      cookie: mine.buyer.cookie,
      json: { from: new Date(Date.now() - MINUTE).toISOString(), to: new Date().toISOString() },
      env: { WEBHOOK_QUEUE: queue.queue },
    });
    expect(bulk.status).toBe(404);
    expect(queue.sent).toEqual([]);
    expect([await deliveriesOf(mine.endpoint.id), await deliveriesOf(theirs.endpoint.id)]).toEqual(before);
  });
});

describe("after a crash", () => {
  /** Five test events; the first two delivered and settled, the other three held by a consumer that died. */
  async function crashedMidBatch() {
    const queue = fakeQueue();
    const { endpoint, ids } = await buyerWithEvents(queue, "https://crm.buyer-test.com/hooks", 5);
    const keys = queue.drain();
    const net = scriptedNetwork();
    const crashAt = Date.now();
    net.clock.now = crashAt;
    await deliverWebhooks(createDeps(queue.env, crashAt), keys.slice(0, 2), net.runtime);
    queue.drain();
    // What a consumer leaves when it is killed after claiming: its leases, and its hold on the endpoint.
    const lease = crashAt + WEBHOOK_LEASE_MS;
    const db = testDb();
    await db.batch([
      db
        .update(webhookDeliveries)
        .set({ leasedUntil: new Date(lease) })
        .where(and(eq(webhookDeliveries.endpointId, endpoint.id), eq(webhookDeliveries.status, "pending"))),
      db
        .update(webhookEndpoints)
        .set({ sendingUntil: new Date(lease) })
        .where(eq(webhookEndpoints.id, endpoint.id)),
    ]);
    return { queue, endpoint, ids, keys, net, crashAt };
  }

  const sentOnce = (sent: Sent[], ids: string[]) => {
    expect(sent.map((request) => request.eventId).sort()).toEqual([...ids].sort());
  };

  it("sends what a killed process held as the server starts again, and nothing it had settled", async () => {
    const { queue, ids, keys, net, crashAt } = await crashedMidBatch();
    const restart = crashAt + 4000;
    // The Queue hands the held messages over again: still leased, they are skipped.
    expect(await deliverWebhooks(createDeps(queue.env, restart), keys.slice(2), net.runtime)).toMatchObject({
      skipped: 3,
    });
    const sweep = await sweepWebhooks(createDeps(queue.env, restart), { startup: true });
    expect(sweep).toMatchObject({ reclaimed: 3, requeued: 3 });
    await runQueue(queue, net.network, { from: restart });
    sentOnce(net.sent, ids);
    expect(Math.max(...net.sent.map((request) => request.at)) - restart).toBeLessThan(2 * MINUTE);
    // Later sweeps find nothing more to send.
    await sweepWebhooks(createDeps(queue.env, restart + 15 * MINUTE));
    await sweepWebhooks(createDeps(queue.env, restart + 16 * MINUTE), { startup: true });
    await runQueue(queue, net.network, { from: restart + 16 * MINUTE });
    sentOnce(net.sent, ids);
  });

  it("sends what a dead consumer held within two minutes from the every-minute cron, once", async () => {
    const { queue, ids, net, crashAt } = await crashedMidBatch();
    // The cron runs every minute; its first run after the lease ran out takes the deliveries back.
    expect(await sweepWebhooks(createDeps(queue.env, crashAt + 30_000))).toMatchObject({ reclaimed: 0 });
    expect(queue.sent).toEqual([]);
    const cron = crashAt + WEBHOOK_LEASE_MS;
    expect(await sweepWebhooks(createDeps(queue.env, cron))).toMatchObject({ reclaimed: 3 });
    await runQueue(queue, net.network, { from: cron });
    sentOnce(net.sent, ids);
    expect(Math.max(...net.sent.map((request) => request.at)) - crashAt).toBeLessThanOrEqual(2 * MINUTE);
    await sweepWebhooks(createDeps(queue.env, cron + 20 * MINUTE));
    await runQueue(queue, net.network, { from: cron + 20 * MINUTE });
    sentOnce(net.sent, ids);
  });
});
