/**
 * Delivery like Stripe's, with the test playing the Queue on a fake clock: the
 * signature, 2xx within the attempt, the retry schedule with back-off for 3 days then the dead letter,
 * switching a failing endpoint off and e-mailing its buyer, no redirects, 1 KB of answer, the address
 * guard again at send time, and one send for repeated messages.
 */

import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WEBHOOK_RETRY_WINDOW_MS } from "../../../../src/features/webhook-outbox/events";
import { nominalRetrySchedule } from "../../../../src/features/webhooks/delivery";
import { webhookEventSchema } from "../../../../src/features/webhooks/schemas/webhooks";
import { unixSeconds, verifyWebhookSignature } from "../../../../src/features/webhooks/signature";
import { testDb } from "../../../../tests/worker/factories";
import { callApi, latestMailTo, signedIn } from "../../../../tests/worker/helpers";
import {
  addEndpoint,
  deliveriesOf,
  type FakeQueue,
  fakeNetwork,
  fakeQueue,
  PRODUCTION,
  runQueue,
  stubDns,
} from "../../../../tests/worker/webhook-fixtures";
import worker from "../../../app";
import { webhookDeliveries, webhookEndpoints } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { deliverWebhooks } from "../deliver";
import { attemptDelivery, type Fetcher } from "../send";

afterEach(() => vi.restoreAllMocks());

/** A buyer with one endpoint and a test event queued for it. */
async function testEventQueued(config: Record<string, string> = {}) {
  const buyer = await signedIn();
  const endpoint = await addEndpoint(buyer.cookie, { events: ["transfer.routed"] }, config);
  const queue = fakeQueue();
  const response = await callApi(`/api/webhook-endpoints/${endpoint.id}/test`, {
    cookie: buyer.cookie,
    method: "POST",
    env: { ...config, WEBHOOK_QUEUE: queue.queue },
  });
  expect(response.status).toBe(202);
  const { eventId } = await response.json<{ eventId: string }>();
  const withConfig: FakeQueue = { ...queue, env: { ...queue.env, ...config } as Cloudflare.Env };
  return { buyer, endpoint, queue: withConfig, eventId };
}

describe("sending", () => {
  it("signs each event with the endpoint's secret and counts any 2xx as delivered", async () => {
    const { endpoint, queue, eventId } = await testEventQueued();
    const network = fakeNetwork(() => new Response(null, { status: 204 }));
    const start = Date.now();
    const [report] = await runQueue(queue, network, { from: start });
    expect(report).toMatchObject({ delivered: 1, failed: 0 });
    const [request] = network.received;
    expect(request?.url).toBe("https://crm.buyer-test.com/hooks");
    expect(request?.headers.get("Content-Type")).toBe("application/json");
    const signature = request?.headers.get("Webhook-Signature") ?? "";
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const check = await verifyWebhookSignature(signature, request?.body ?? "", [endpoint.secret], unixSeconds(start));
    expect(check.ok).toBe(true);
    const event = webhookEventSchema.parse(JSON.parse(request?.body ?? ""));
    expect(event).toMatchObject({ id: eventId, type: "test", apiVersion: "2026-11-24" });
    const [row] = await deliveriesOf(endpoint.id);
    expect(row).toMatchObject({ status: "delivered", attempts: 1, last_status_code: 204, last_error: null });
  });

  it("signs with both secrets for 24 hours after a rotation, then with the new one only", async () => {
    const { buyer, endpoint, queue } = await testEventQueued();
    const rotated = await (
      await callApi(`/api/webhook-endpoints/${endpoint.id}/rotate-secret`, { cookie: buyer.cookie, method: "POST" })
    ).json<{ secret: string }>();
    const network = fakeNetwork();
    await runQueue(queue, network, { from: Date.now() });
    const header = network.received[0]?.headers.get("Webhook-Signature") ?? "";
    expect(header.match(/v1=/g)).toHaveLength(2);
    const body = network.received[0]?.body ?? "";
    for (const secret of [endpoint.secret, rotated.secret]) {
      expect((await verifyWebhookSignature(header, body, [secret], unixSeconds())).ok).toBe(true);
    }
    // A day and a minute later, the old secret no longer signs.
    await callApi(`/api/webhook-endpoints/${endpoint.id}/test`, {
      cookie: buyer.cookie,
      method: "POST",
      env: { WEBHOOK_QUEUE: queue.queue },
    });
    await runQueue(queue, network, { from: Date.now() + 24 * 3600_000 + 60_000 });
    const later = network.received[1];
    expect(later?.headers.get("Webhook-Signature")?.match(/v1=/g)).toHaveLength(1);
    const atThen = unixSeconds(Date.now() + 24 * 3600_000 + 60_000);
    expect(
      (
        await verifyWebhookSignature(
          later?.headers.get("Webhook-Signature"),
          later?.body ?? "",
          [endpoint.secret],
          atThen,
        )
      ).ok,
    ).toBe(false);
    expect(
      (
        await verifyWebhookSignature(
          later?.headers.get("Webhook-Signature"),
          later?.body ?? "",
          [rotated.secret],
          atThen,
        )
      ).ok,
    ).toBe(true);
  });

  it("follows no redirect: a 3xx fails the attempt", async () => {
    const { endpoint, queue } = await testEventQueued();
    const network = fakeNetwork(
      () => new Response(null, { status: 302, headers: { Location: "http://169.254.169.254/latest" } }),
    );
    await runQueue(queue, network, { from: Date.now(), until: Date.now() });
    expect(network.received).toHaveLength(1);
    expect(network.received[0]?.redirect).toBe("manual");
    const [row] = await deliveriesOf(endpoint.id);
    expect(row).toMatchObject({ status: "retrying", last_status_code: 302 });
    expect(row?.last_error).toContain("Redirect to http://169.254.169.254/latest not followed");
  });

  it("keeps only the first 1 KB of the answer, cut at a character", async () => {
    const { endpoint, queue } = await testEventQueued();
    const network = fakeNetwork(() => new Response("é".repeat(5000), { status: 500 }));
    await runQueue(queue, network, { from: Date.now(), until: Date.now() });
    const [row] = await deliveriesOf(endpoint.id);
    expect(row?.last_status_code).toBe(500);
    expect(row?.answer).toBe("é".repeat(512));
    expect(new TextEncoder().encode(row?.answer ?? "").length).toBeLessThanOrEqual(1024);
  });

  it("gives up on an endpoint that has not answered within 10 seconds", async () => {
    vi.useFakeTimers();
    try {
      const hanging: Fetcher = (_url, init) =>
        new Promise((_, reject) =>
          init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
        );
      const attempt = attemptDelivery(
        { url: "https://crm.buyer-test.com/", body: "{}", signature: "t=1,v1=00" },
        hanging,
      );
      await vi.advanceTimersByTimeAsync(9_999);
      let settled = false;
      void attempt.then(() => {
        settled = true;
      });
      await Promise.resolve();
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await attempt).toMatchObject({
        delivered: false,
        statusCode: null,
        error: "No answer within 10 seconds.",
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it("records a connection failure as a failed attempt with its reason", async () => {
    const { endpoint, queue } = await testEventQueued();
    const network = fakeNetwork(() => {
      throw new TypeError("connection refused");
    });
    await runQueue(queue, network, { from: Date.now(), until: Date.now() });
    const [row] = await deliveriesOf(endpoint.id);
    expect(row).toMatchObject({ status: "retrying", last_status_code: null });
    expect(row?.last_error).toBe("Could not connect: connection refused");
  });

  it("checks the address again at send time: a name that now points inside is not sent to (production)", async () => {
    const { endpoint, queue } = await testEventQueued(PRODUCTION);
    const network = fakeNetwork();
    network.dns.set("crm.buyer-test.com", ["10.0.0.5"]);
    await runQueue(queue, network, { from: Date.now(), until: Date.now() });
    expect(network.received).toEqual([]);
    const [row] = await deliveriesOf(endpoint.id);
    expect(row?.status).toBe("retrying");
    expect(row?.last_error).toBe(
      "Not sent: crm.buyer-test.com resolves to 10.0.0.5, a private address (10.0.0.0/8): webhooks go only to public internet addresses.",
    );
  });

  it("sends once when the Queue hands the same delivery over twice, in one batch or in two at once", async () => {
    const { endpoint, queue, eventId } = await testEventQueued();
    const network = fakeNetwork();
    const key = { eventId, endpointId: endpoint.id };
    const now = Date.now();
    const deps = createDeps(queue.env, now);
    const reports = await Promise.all([
      deliverWebhooks(deps, [key, key], network.runtime()),
      deliverWebhooks(createDeps(queue.env, now), [key], network.runtime()),
    ]);
    expect(network.received).toHaveLength(1);
    expect(reports.map((report) => report.delivered).sort()).toEqual([0, 1]);
    // And once it is delivered, a late copy of the message sends nothing.
    await deliverWebhooks(createDeps(queue.env, now + 1000), [key], network.runtime());
    expect(network.received).toHaveLength(1);
  });
});

describe("the Queue consumer", () => {
  it("delivers the batch's webhook messages through the real network path and acknowledges them", async () => {
    const { endpoint, queue, eventId } = await testEventQueued();
    const dns = stubDns();
    const real = dns.getMockImplementation();
    const posted: string[] = [];
    dns.mockImplementation(async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!url.startsWith("https://crm.buyer-test.com/")) return (real as typeof fetch)(input, init);
      posted.push(String(init?.body));
      return new Response("ok");
    });
    const batch = createMessageBatch("leads-shop-webhooks", [
      { id: "w1", timestamp: new Date(), attempts: 1, body: { kind: "webhook", eventId, endpointId: endpoint.id } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, queue.env);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(["w1"]);
    expect(posted).toHaveLength(1);
    expect(JSON.parse(posted[0] ?? "{}")).toMatchObject({ id: eventId, type: "test" });
    expect((await deliveriesOf(endpoint.id))[0]?.status).toBe("delivered");
  });
});

describe("retries, the dead letter and switching off (fake clock)", () => {
  it("retries with exponential back-off for 3 days, then dead-letters the event and switches the endpoint off", async () => {
    const { buyer, endpoint, queue } = await testEventQueued();
    const network = fakeNetwork(() => new Response("down for maintenance", { status: 503 }));
    const start = Date.now();
    await runQueue(queue, network, { from: start });
    const offsets = network.received.map((request) => request.at - start);
    // With the jitter at its middle, the attempts fall exactly on the documented schedule.
    expect(offsets).toEqual(nominalRetrySchedule());
    expect(offsets).toHaveLength(21);
    expect(offsets.at(-1)).toBe(WEBHOOK_RETRY_WINDOW_MS);
    const [row] = await deliveriesOf(endpoint.id);
    expect(row).toMatchObject({ status: "dead_letter", attempts: 21, last_status_code: 503 });
    const [stored] = await testDb()
      .select({ enabled: webhookEndpoints.enabled, disabledAt: webhookEndpoints.disabledAt })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpoint.id));
    expect(stored).toEqual({ enabled: false, disabledAt: new Date(start + WEBHOOK_RETRY_WINDOW_MS) });
    const mail = await latestMailTo(buyer.user.email);
    expect(mail?.subject).toBe("Your webhook endpoint was switched off");
    expect(mail?.text).toContain('"My CRM" (https://crm.buyer-test.com/hooks) failed for 3 days in a row');
    expect(mail?.text).toContain("/dashboard?view=integrations");
  });

  it("moves each retry by its jitter, never past the 3 days", async () => {
    const { endpoint, queue } = await testEventQueued();
    const network = fakeNetwork(() => new Response(null, { status: 500 }));
    const draws = [0, 0.99, 0.3, 0.7];
    let n = 0;
    const runtime = network.runtime;
    network.runtime = () => ({ ...runtime(), random: () => draws[n++ % draws.length] ?? 0 });
    const start = Date.now();
    await runQueue(queue, network, { from: start });
    const offsets = network.received.map((request) => request.at - start);
    // 1 minute ± 25 %, then 2 minutes ± 25 % after that… (the Queue delays by whole seconds).
    expect(offsets[1]).toBe(45_000);
    expect((offsets[2] ?? 0) - (offsets[1] ?? 0)).toBe(Math.ceil((120_000 * 1.245) / 1000) * 1000);
    expect(Math.max(...offsets) - WEBHOOK_RETRY_WINDOW_MS).toBeGreaterThanOrEqual(0);
    expect(Math.max(...offsets) - WEBHOOK_RETRY_WINDOW_MS).toBeLessThan(1000);
    expect((await deliveriesOf(endpoint.id))[0]?.status).toBe("dead_letter");
  });

  it("keeps an endpoint on when it answers again within the 3 days", async () => {
    const { endpoint, queue } = await testEventQueued();
    const start = Date.now();
    const network = fakeNetwork(({ at }) => new Response(null, { status: at - start < 2 * 86_400_000 ? 500 : 200 }));
    await runQueue(queue, network, { from: start });
    const [row] = await deliveriesOf(endpoint.id);
    expect(row?.status).toBe("delivered");
    const [stored] = await testDb()
      .select({ enabled: webhookEndpoints.enabled, failingSince: webhookEndpoints.failingSince })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, endpoint.id));
    expect(stored).toEqual({ enabled: true, failingSince: null });
  });

  it("dead-letters what is still open when the buyer switches the endpoint off, but still sends a test", async () => {
    const { buyer, endpoint, queue } = await testEventQueued();
    const network = fakeNetwork(() => new Response(null, { status: 500 }));
    await runQueue(queue, network, { from: Date.now(), until: Date.now() });
    const off = await callApi(`/api/webhook-endpoints/${endpoint.id}`, {
      cookie: buyer.cookie,
      method: "PATCH",
      json: { enabled: false },
    });
    expect(off.status).toBe(200);
    // The open test event was a test: it stays open and is still sent.
    expect((await deliveriesOf(endpoint.id))[0]?.status).toBe("retrying");
    await testDb()
      .update(webhookDeliveries)
      .set({ type: "transfer.routed" })
      .where(eq(webhookDeliveries.endpointId, endpoint.id));
    await callApi(`/api/webhook-endpoints/${endpoint.id}`, {
      cookie: buyer.cookie,
      method: "PATCH",
      json: { enabled: true },
    });
    await callApi(`/api/webhook-endpoints/${endpoint.id}`, {
      cookie: buyer.cookie,
      method: "PATCH",
      json: { enabled: false },
    });
    const [row] = await deliveriesOf(endpoint.id);
    expect(row).toMatchObject({
      status: "dead_letter",
      last_error: "The endpoint was switched off before this event could be sent.",
    });
  });
});
