/**
 * Events from the real places: a lead purchase (one `lead.purchased` per lead, with the
 * fields My Leads shows, and `order.paid`), a transfer's routing, connection and end, an order completing
 * by itself or by an admin, a return decided. Each is recorded in the batch that writes its fact, queued
 * (never sent on the request), with an id derived from the fact, and delivered in order per subject.
 */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { OwnedLeadPage } from "../../../../src/domain/schemas/dashboard";
import { pingSchema } from "../../../../src/features/transfers/schemas/partner-api";
import { WEBHOOK_EVENT_TYPES, webhookEventIdFor } from "../../../../src/features/webhook-outbox/events";
import { type WebhookEvent, webhookEventSchema } from "../../../../src/features/webhooks/schemas/webhooks";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import { createLeads, type Started } from "../../../../tests/worker/payment-fixtures";
import {
  clearTransfers,
  createOpenOrder,
  createPartner,
  newPhone,
  routeAtCallingHours,
} from "../../../../tests/worker/transfer-fixtures";
import {
  addEndpoint,
  eventsOf,
  type FakeQueue,
  fakeNetwork,
  fakeQueue,
  runQueue,
} from "../../../../tests/worker/webhook-fixtures";
import { database } from "../../../db/client";
import { orders } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { recordTransferEvent, routeTransfer } from "../../transfers/transfers";
import { orderPaidFacts } from "../../webhook-outbox/facts";
import { webhookRecording } from "../../webhook-outbox/record";
import { sweepWebhooks } from "../sweep";

// Pings route only inside the prospect's legal calling hours (docs/decisions/0064).
routeAtCallingHours();

afterEach(() => vi.restoreAllMocks());

const ALL = [...WEBHOOK_EVENT_TYPES];
const SITE = { siteOrigin: "http://localhost" };

/** Buys `count` fresh leads through the checkout and the simulated card, with `queue` as the webhook Queue. */
async function buy(cookie: string, queue: FakeQueue, count: number) {
  const leadIds = await createLeads(count);
  const started = await callApi("/api/bulk-purchase-leads", {
    cookie,
    json: { leadIds },
    env: { WEBHOOK_QUEUE: queue.queue },
  });
  expect(started.status).toBe(200);
  const { clientSecret, orderId } = await started.json<Started>();
  const paid = await callApi("/api/simulated-payments/confirm", {
    json: { clientSecret, cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" },
    env: { WEBHOOK_QUEUE: queue.queue },
  });
  expect(paid.status).toBe(200);
  return { orderId, leadIds };
}

const parse = (body: string): WebhookEvent => webhookEventSchema.parse(JSON.parse(body));

describe("a lead purchase", () => {
  it("records one lead.purchased per lead and order.paid with the sale, queued and not sent on the request", async () => {
    const buyer = await signedIn();
    const endpoint = await addEndpoint(buyer.cookie, { events: ["lead.purchased", "order.paid"] });
    const queue = fakeQueue();
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const { orderId, leadIds } = await buy(buyer.cookie, queue, 3);
    expect(fetchSpy).not.toHaveBeenCalled();
    const events = await eventsOf(buyer.user.id);
    expect(events.map((event) => event.type).sort()).toEqual([
      "lead.purchased",
      "lead.purchased",
      "lead.purchased",
      "order.paid",
    ]);
    for (const leadId of leadIds) {
      const event = events.find((row) => row.subject_id === leadId);
      expect(event?.id).toBe(await webhookEventIdFor("lead.purchased", orderId, leadId));
    }
    expect(queue.sent).toHaveLength(4);
    expect(queue.sent.every((message) => message.endpointId === endpoint.id && message.delaySeconds === 0)).toBe(true);

    const network = fakeNetwork();
    await runQueue(queue, network, { from: Date.now() });
    const received = network.received.map((request) => parse(request.body));
    const myLeads = await (await callApi("/api/my-leads", { cookie: buyer.cookie })).json<OwnedLeadPage>();
    for (const lead of myLeads.items) {
      const event = received.find((item) => item.type === "lead.purchased" && item.data.leadId === lead.id);
      expect(event?.data).toEqual({
        leadId: lead.id,
        orderId: lead.orderId,
        name: lead.name,
        email: lead.email,
        phone: lead.phone,
        state: lead.state,
        formFillTime: lead.formFillTime,
        purchasedAt: lead.purchasedAt,
        // The same consent object as My Leads (docs/decisions/0054).
        consent: lead.consent,
      });
    }
    const paid = received.find((item) => item.type === "order.paid");
    expect(paid?.data).toMatchObject({ orderId, kind: "aged-leads", quantity: 3, status: "paid", completedAt: null });
  });

  it("records nothing for a buyer without an endpoint, for events not chosen, or to a switched-off endpoint", async () => {
    const without = await signedIn();
    const queue = fakeQueue();
    await buy(without.cookie, queue, 1);
    expect(await eventsOf(without.user.id)).toEqual([]);

    const choosy = await signedIn();
    const ordersOnly = await addEndpoint(choosy.cookie, { events: ["order.paid"] });
    await addEndpoint(choosy.cookie, { events: ["lead.purchased"], enabled: false });
    await buy(choosy.cookie, queue, 2);
    expect((await eventsOf(choosy.user.id)).map((event) => event.type)).toEqual(["order.paid"]);
    expect(queue.sent.map((message) => message.endpointId)).toEqual([ordersOnly.id]);
  });

  it("records a fact once: the same sale recorded again adds no event and no delivery", async () => {
    const buyer = await signedIn();
    await addEndpoint(buyer.cookie, { events: ["lead.purchased", "order.paid"] });
    const queue = fakeQueue();
    const { orderId, leadIds } = await buy(buyer.cookie, queue, 2);
    const db = database(env.DB);
    const [order] = await db.select({ paidAt: orders.paidAt }).from(orders).where(eq(orders.id, orderId));
    const paidAt = order?.paidAt?.getTime() ?? 0;
    for (const at of [paidAt, paidAt + 1]) {
      const again = await webhookRecording({ db }, orderPaidFacts({ id: orderId, userId: buyer.user.id, leadIds }, at));
      const [first, ...rest] = again.statements;
      if (!first) throw new Error("statements expected");
      const before = queue.sent.length;
      await again.enqueue(createDeps(queue.env), await db.batch([first, ...rest]));
      expect(queue.sent.length).toBe(before);
    }
    expect(await eventsOf(buyer.user.id)).toHaveLength(3);
  });
});

describe("a live transfer", () => {
  beforeEach(clearTransfers);

  async function routedTo(buyerId: string, queue: FakeQueue, at: number, quantity = 1) {
    const partner = await createPartner();
    const order = await createOpenOrder({ buyerId, quantity, paidAt: at - 60_000 });
    const ping = {
      prospect: { firstName: "Mary", lastName: "Johnson", phone: newPhone(), state: "TX" },
      consent: { optInAt: new Date(at - 60_000).toISOString(), optInUrl: "https://example.com/quote" },
    };
    const answer = await routeTransfer(createDeps(queue.env, at), partner.owner, pingSchema.parse(ping));
    const report = (type: "connected" | "no-answer", now: number) =>
      recordTransferEvent(createDeps(queue.env, now), partner.id, answer.transferId, { type }, SITE);
    const complete = (durationSeconds: number, now: number) =>
      recordTransferEvent(
        createDeps(queue.env, now),
        partner.id,
        answer.transferId,
        { type: "completed", durationSeconds },
        SITE,
      );
    return { order, transferId: answer.transferId, report, complete };
  }

  it("tells routed, connected, billable and the order's completion, in order per subject", async () => {
    const buyer = await signedIn();
    await addEndpoint(buyer.cookie, { events: ALL });
    const queue = fakeQueue();
    const at = Date.now() - 10 * 60_000;
    const { order, transferId, report, complete } = await routedTo(buyer.user.id, queue, at);
    await report("connected", at + 5000);
    await complete(300, at + 305_000);
    const events = await eventsOf(buyer.user.id);
    // Billable and the order's completion happen in the same batch, at the same time.
    expect(events.map((event) => event.type).sort()).toEqual([
      "order.completed",
      "transfer.billable",
      "transfer.connected",
      "transfer.routed",
    ]);
    expect(events[0]?.id).toBe(await webhookEventIdFor("transfer.routed", transferId));

    // The routed event fails once: the later events of its transfer wait for it; the order's does not.
    let routedTries = 0;
    const network = fakeNetwork((request) => {
      const type = parse(request.body).type;
      if (type === "transfer.routed" && routedTries++ === 0) return new Response(null, { status: 500 });
      return new Response("ok");
    });
    await runQueue(queue, network, { from: Date.now() });
    const received = network.received.map((request) => parse(request.body));
    const transferTypes = received.filter((event) => event.type.startsWith("transfer.")).map((event) => event.type);
    expect(transferTypes).toEqual(["transfer.routed", "transfer.routed", "transfer.connected", "transfer.billable"]);
    // The order's completion went in the first batch, beside the routed event's failed first attempt.
    expect(received.findIndex((event) => event.type === "order.completed")).toBeLessThan(2);
    const billable = received.find((event) => event.type === "transfer.billable");
    expect(billable?.data).toMatchObject({
      transferId,
      orderId: order.id,
      status: "completed",
      billable: true,
      durationSeconds: 300,
      prospect: { firstName: "Mary", lastName: "Johnson" },
    });
    const routed = received.find((event) => event.type === "transfer.routed");
    expect(routed?.data).toMatchObject({ status: "routed", billable: false, connectedAt: null, endedAt: null });
    const completed = received.find((event) => event.type === "order.completed");
    expect(completed?.data).toMatchObject({ orderId: order.id, status: "completed" });
  });

  it("tells a short call and an unanswered one as not charged", async () => {
    const buyer = await signedIn();
    await addEndpoint(buyer.cookie, { events: ["transfer.not_charged", "transfer.billable", "order.completed"] });
    const queue = fakeQueue();
    const at = Date.now() - 10 * 60_000;
    const short = await routedTo(buyer.user.id, queue, at, 5);
    await short.report("connected", at + 5000);
    await short.complete(60, at + 65_000);
    const unanswered = await routedTo(buyer.user.id, queue, at + 1000, 5);
    await unanswered.report("no-answer", at + 30_000);
    const network = fakeNetwork();
    await runQueue(queue, network, { from: Date.now() });
    const received = network.received.map((request) => parse(request.body));
    expect(received.map((event) => [event.type, event.data])).toEqual(
      expect.arrayContaining([
        [
          "transfer.not_charged",
          expect.objectContaining({
            transferId: short.transferId,
            status: "completed",
            billable: false,
            durationSeconds: 60,
          }),
        ],
        [
          "transfer.not_charged",
          expect.objectContaining({ transferId: unanswered.transferId, status: "no_answer", billable: false }),
        ],
      ]),
    );
    expect(received).toHaveLength(2);
  });

  it("tells an answer left to expire as not charged, once, from the cron's sweep", async () => {
    const buyer = await signedIn();
    await addEndpoint(buyer.cookie, { events: ["transfer.not_charged"] });
    const queue = fakeQueue();
    const at = Date.now() - 10 * 60_000;
    const { transferId } = await routedTo(buyer.user.id, queue, at);
    const first = await sweepWebhooks(createDeps(queue.env));
    expect(first.expiredTransfers).toBe(1);
    expect((await sweepWebhooks(createDeps(queue.env))).expiredTransfers).toBe(0);
    const network = fakeNetwork();
    await runQueue(queue, network, { from: Date.now() });
    expect(network.received.map((request) => parse(request.body).data)).toEqual([
      expect.objectContaining({ transferId, status: "expired", billable: false }),
    ]);
  });
});

describe("an admin's decisions", () => {
  it("tells a completed order (by an admin) and a decided return", async () => {
    const buyer = await signedIn();
    await addEndpoint(buyer.cookie, { events: ["order.completed", "return.decided"] });
    const admin = await signedIn({ isAdmin: true });
    const queue = fakeQueue();
    const order = await createOpenOrder({ buyerId: buyer.user.id });
    const completed = await callApi(`/api/transfer-orders/${order.id}/status`, {
      cookie: admin.cookie,
      method: "PATCH",
      json: { status: "completed" },
      env: { WEBHOOK_QUEUE: queue.queue },
    });
    expect(completed.status).toBe(200);

    // Five leads bought: a return of one is within the cap (20 % of deliveries).
    const { leadIds } = await buy(buyer.cookie, queue, 5);
    const asked = await callApi("/api/returns", {
      cookie: buyer.cookie,
      json: { kind: "aged_lead", itemId: leadIds[0], reason: "disconnected" },
    });
    expect(asked.status).toBe(201);
    const { id: returnId } = await asked.json<{ id: string }>();
    const decided = await callApi(`/api/admin/returns/${returnId}/decision`, {
      cookie: admin.cookie,
      json: { decision: "denied", note: "The number rang." },
      env: { WEBHOOK_QUEUE: queue.queue },
    });
    expect(decided.status).toBe(200);

    const network = fakeNetwork();
    await runQueue(queue, network, { from: Date.now() });
    const received = network.received.map((request) => parse(request.body));
    expect(received.map((event) => event.type)).toEqual(["order.completed", "return.decided"]);
    expect(received[0]?.data).toMatchObject({ orderId: order.id, status: "completed" });
    expect(received[1]?.data).toMatchObject({
      returnId,
      subject: { kind: "lead", id: leadIds[0] },
      decision: "denied",
      reason: "disconnected",
      note: "The number rang.",
    });
  });
});

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 with every event in its webhooks section, and the reference page reads it", async () => {
    const document = await (await callApi("/api/v1/openapi.json")).json<{
      openapi: string;
      webhooks: Record<
        string,
        { post: { requestBody: { content: { "application/json": { schema: { $ref: string } } } } } }
      >;
      components: { schemas: Record<string, unknown> };
    }>();
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.webhooks)).toEqual([...WEBHOOK_EVENT_TYPES, "test"]);
    expect(document.webhooks["lead.purchased"]?.post.requestBody.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/LeadPurchasedEvent",
    });
    expect(document.components.schemas).toHaveProperty("LeadPurchasedEvent");
    expect(document.components.schemas).toHaveProperty("Ping");
    expect(document.webhooks["transfer.billable"]?.post.requestBody.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/TransferBillableEvent",
    });
    expect(document.components.schemas).toHaveProperty("TransferBillableEvent");
    // The reference UI (/api/v1/docs) renders this very document, webhooks section included.
    const page = await (await callApi("/api/v1/docs")).text();
    expect(page).toContain('"url": "/api/v1/openapi.json"');
  });
});
