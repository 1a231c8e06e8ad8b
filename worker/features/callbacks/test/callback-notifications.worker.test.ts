/**
 * What a buyer hears of a delivered call-back or appointment (docs/decisions/0060): the
 * `callback.delivered` / `appointment.delivered` webhook, recorded in the placement's own batch and only
 * when the placement happened, an e-mail at delivery, and a reminder e-mail 15 minutes before the window
 * opens, sent at most once by the scheduled handler.
 */
import { env } from "cloudflare:workers";
import { asc, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { localTime } from "../../../../src/domain/time-zones";
import { windowLabel } from "../../../../src/features/callbacks/callbacks";
import { callbackSchema } from "../../../../src/features/callbacks/schemas/callbacks";
import { webhookEventIdFor } from "../../../../src/features/webhook-outbox/events";
import { type WebhookEvent, webhookEventSchema } from "../../../../src/features/webhooks/schemas/webhooks";
import { unixSeconds, verifyWebhookSignature } from "../../../../src/features/webhooks/signature";
import { closePaidCallbackOrders, createCallbackOrder, testDb } from "../../../../tests/worker/factories";
import { callApi, createUser, signedIn } from "../../../../tests/worker/helpers";
import { newPhone } from "../../../../tests/worker/transfer-fixtures";
import {
  addEndpoint,
  eventsOf,
  type FakeQueue,
  fakeNetwork,
  fakeQueue,
  runQueue,
} from "../../../../tests/worker/webhook-fixtures";
import { callbackOpportunities, outbox } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { scheduled } from "../../../scheduled";
import { siteOrigin } from "../../../services/mail";
import { sendCallbackReminders } from "../callback-notifications";
import { fillCallbackOrders, takeCallback } from "../callbacks";

afterEach(() => vi.restoreAllMocks());

const DAY = 86_400_000;
const MINUTE = 60_000;
const CALLBACK_EVENTS = ["callback.delivered", "appointment.delivered"];

/** A call-back (or appointment) for tomorrow 09:00 in Chicago, taken in by an admin with `queue` as the webhook Queue. */
async function take(queue: FakeQueue, kind: "callback" | "appointment" = "callback", now = Date.now()) {
  const admin = await createUser({ isAdmin: true });
  const input = callbackSchema.parse({
    kind,
    prospect: {
      firstName: "Ruth",
      lastName: "Miller",
      phone: newPhone(),
      state: "TX",
      zip: "75001",
      email: "ruth@example.com",
    },
    window: {
      date: localTime(now + DAY, "America/Chicago").day,
      from: "09:00",
      ...(kind === "callback" ? { to: "11:00" } : {}),
    },
    consent: {
      optInAt: new Date(now - MINUTE).toISOString(),
      optInUrl: "https://example.com/quote",
      ipAddress: "203.0.113.7",
    },
  });
  const accepted = await takeCallback(createDeps(queue.env, now), input, { source: "admin", createdBy: admin.id });
  return { ...accepted, input };
}

async function orderOf(callbackId: string) {
  const [row] = await testDb()
    .select({ orderId: callbackOpportunities.orderId })
    .from(callbackOpportunities)
    .where(eq(callbackOpportunities.id, callbackId));
  return row?.orderId ?? null;
}

async function mailsTo(email: string) {
  return testDb()
    .select({ subject: outbox.subject, text: outbox.text })
    .from(outbox)
    .where(eq(outbox.to, email))
    .orderBy(asc(outbox.createdAt));
}

const reminders = async (email: string) => (await mailsTo(email)).filter((mail) => mail.subject.startsWith("Reminder"));

beforeEach(async () => {
  // No open call-back orders and no waiting call-backs from other tests.
  const db = testDb();
  await db.delete(callbackOpportunities);
  await closePaidCallbackOrders(db);
});

describe("the delivery webhook", () => {
  it("records callback.delivered once with the prospect, window, order and consent, and delivers it signed", async () => {
    const buyer = await signedIn();
    const endpoint = await addEndpoint(buyer.cookie, { events: CALLBACK_EVENTS });
    const { id: orderId } = await createCallbackOrder(testDb(), { userId: buyer.user.id });
    const queue = fakeQueue();
    const { callbackId, windowStart, windowEnd, input } = await take(queue);
    expect(await orderOf(callbackId)).toBe(orderId);

    const events = await eventsOf(buyer.user.id);
    expect(events.map((event) => [event.type, event.subject_id])).toEqual([["callback.delivered", callbackId]]);
    expect(events[0]?.id).toBe(await webhookEventIdFor("callback.delivered", callbackId));
    expect(queue.sent.map((message) => message.endpointId)).toEqual([endpoint.id]);

    // Placing again (a payment's fill running over it) records nothing more.
    expect(await fillCallbackOrders(createDeps(queue.env))).toBe(0);
    expect(await eventsOf(buyer.user.id)).toHaveLength(1);
    expect(queue.sent).toHaveLength(1);

    const network = fakeNetwork(() => new Response(null, { status: 204 }));
    const start = Date.now();
    const [report] = await runQueue(queue, network, { from: start });
    expect(report).toMatchObject({ delivered: 1, failed: 0 });
    const [request] = network.received;
    const signature = request?.headers.get("Webhook-Signature") ?? "";
    expect(
      (await verifyWebhookSignature(signature, request?.body ?? "", [endpoint.secret], unixSeconds(start))).ok,
    ).toBe(true);
    const event: WebhookEvent = webhookEventSchema.parse(JSON.parse(request?.body ?? ""));
    expect(event.type).toBe("callback.delivered");
    expect(event.data).toEqual({
      callbackId,
      kind: "callback",
      orderId,
      prospect: {
        name: "Ruth Miller",
        phone: input.prospect.phone,
        email: "ruth@example.com",
        state: "TX",
        zip: "75001",
      },
      window: { start: windowStart, end: windowEnd, timeZone: "America/Chicago" },
      deliveredAt: expect.any(String),
      consent: {
        optInAt: input.consent.optInAt,
        optInUrl: "https://example.com/quote",
        consentText: null,
        ipAddress: "203.0.113.7",
        trustedFormUrl: null,
        jornayaLeadId: null,
        certificate: "none",
      },
    });
  });

  it("tells of an appointment as appointment.delivered, and only to endpoints that chose it", async () => {
    const buyer = await signedIn();
    const chosen = await addEndpoint(buyer.cookie, { events: ["appointment.delivered"] });
    await addEndpoint(buyer.cookie, { events: ["callback.delivered", "lead.purchased"] });
    await createCallbackOrder(testDb(), { userId: buyer.user.id });
    const queue = fakeQueue();
    const { callbackId, windowStart, windowEnd } = await take(queue, "appointment");
    expect(Date.parse(windowEnd) - Date.parse(windowStart)).toBe(30 * MINUTE);
    const events = await eventsOf(buyer.user.id);
    expect(events.map((event) => [event.type, event.subject_id])).toEqual([["appointment.delivered", callbackId]]);
    expect(queue.sent.map((message) => message.endpointId)).toEqual([chosen.id]);
  });

  it("records nothing while the call-back waits unplaced, and once when fills race to place it", async () => {
    const buyer = await signedIn();
    await addEndpoint(buyer.cookie, { events: CALLBACK_EVENTS });
    const queue = fakeQueue();
    const { callbackId } = await take(queue);
    expect(await orderOf(callbackId)).toBeNull();
    expect(await eventsOf(buyer.user.id)).toEqual([]);
    expect(queue.sent).toEqual([]);
    expect(await mailsTo(buyer.user.email)).toEqual([]);

    const { id: orderId } = await createCallbackOrder(testDb(), { userId: buyer.user.id });
    // Three fills at once: each sees the call-back waiting, one UPDATE places it.
    await Promise.all([
      fillCallbackOrders(createDeps(queue.env)),
      fillCallbackOrders(createDeps(queue.env)),
      fillCallbackOrders(createDeps(queue.env)),
    ]);
    expect(await orderOf(callbackId)).toBe(orderId);
    expect((await eventsOf(buyer.user.id)).map((event) => event.subject_id)).toEqual([callbackId]);
    expect(queue.sent).toHaveLength(1);
    expect(await mailsTo(buyer.user.email)).toHaveLength(1);
  });
});

describe("the OpenAPI document", () => {
  it("documents both events in its webhooks section with the prospect, the window and the consent", async () => {
    const document = await (await callApi("/api/v1/openapi.json")).json<{
      webhooks: Record<string, { post: { requestBody: { content: { "application/json": { schema: unknown } } } } }>;
      components: { schemas: Record<string, { properties?: Record<string, { properties?: object }> }> };
    }>();
    for (const [type, name] of [
      ["callback.delivered", "CallbackDeliveredEvent"],
      ["appointment.delivered", "AppointmentDeliveredEvent"],
    ] as const) {
      expect(document.webhooks[type]?.post.requestBody.content["application/json"].schema).toEqual({
        $ref: `#/components/schemas/${name}`,
      });
      const data = document.components.schemas[name]?.properties?.data?.properties ?? {};
      expect(Object.keys(data)).toEqual(
        expect.arrayContaining(["callbackId", "kind", "orderId", "prospect", "window", "consent"]),
      );
    }
  });
});

describe("the buyer's e-mails", () => {
  it("e-mails the buyer at delivery with the prospect's first name, the window in the prospect's zone and My Call-Backs", async () => {
    const buyer = await createUser();
    await createCallbackOrder(testDb(), { userId: buyer.id });
    const { windowStart, windowEnd } = await take(fakeQueue());
    const window = windowLabel({
      windowStart: Date.parse(windowStart),
      windowEnd: Date.parse(windowEnd),
      timeZone: "America/Chicago",
    });
    expect(window).toMatch(/9:00 AM C[SD]T – 11:00 AM C[SD]T \(America\/Chicago\)$/);
    const [mail, ...more] = await mailsTo(buyer.email);
    expect(more).toEqual([]);
    expect(mail?.subject).toContain("Ruth");
    expect(mail?.subject).toContain(window);
    expect(mail?.text).toContain("Ruth");
    expect(mail?.text).not.toContain("Miller");
    expect(mail?.text).toContain(window);
    const link = `${siteOrigin(createDeps(env))}/dashboard?view=my-call-backs`;
    expect(link).toMatch(/^https?:\/\/[^/]+\/dashboard\?view=my-call-backs$/);
    expect(mail?.text).toContain(link);
  });

  it("reminds the buyer once, within 15 minutes of the window, even when two runs overlap", async () => {
    const buyer = await createUser();
    await createCallbackOrder(testDb(), { userId: buyer.id });
    const { windowStart } = await take(fakeQueue());
    const opens = Date.parse(windowStart);

    expect(await sendCallbackReminders(createDeps(env, opens - 16 * MINUTE))).toBe(0);
    expect(await reminders(buyer.email)).toEqual([]);

    const sent = await Promise.all([
      sendCallbackReminders(createDeps(env, opens - 14 * MINUTE)),
      sendCallbackReminders(createDeps(env, opens - 14 * MINUTE)),
    ]);
    expect(sent.reduce((sum, count) => sum + count, 0)).toBe(1);
    expect(await sendCallbackReminders(createDeps(env, opens - 9 * MINUTE))).toBe(0);
    const [reminder, ...more] = await reminders(buyer.email);
    expect(more).toEqual([]);
    expect(reminder?.subject).toContain("Ruth");
    expect(reminder?.text).toContain("/dashboard?view=my-call-backs");
  });

  it("sends no reminder for a call-back still unplaced, nor for one whose window has opened", async () => {
    const waiting = await take(fakeQueue());
    const opens = Date.parse(waiting.windowStart);
    expect(await sendCallbackReminders(createDeps(env, opens - 10 * MINUTE))).toBe(0);

    const buyer = await createUser();
    await createCallbackOrder(testDb(), { userId: buyer.id });
    expect(await fillCallbackOrders(createDeps(env))).toBe(1);
    expect(await sendCallbackReminders(createDeps(env, opens + MINUTE))).toBe(0);
    expect(await sendCallbackReminders(createDeps(env, opens + 3 * 60 * MINUTE))).toBe(0);
    expect(await reminders(buyer.email)).toEqual([]);
  });

  it("the five-minute cron sends due reminders; the every-minute webhook sweep does not", async () => {
    const buyer = await createUser();
    await createCallbackOrder(testDb(), { userId: buyer.id });
    const { callbackId } = await take(fakeQueue());
    // The window moved to open 10 minutes from the real clock the cron reads.
    await testDb()
      .update(callbackOpportunities)
      .set({ windowStart: new Date(Date.now() + 10 * MINUTE), windowEnd: new Date(Date.now() + 70 * MINUTE) })
      .where(eq(callbackOpportunities.id, callbackId));
    const run = (cron: string) =>
      scheduled({ cron, scheduledTime: Date.now(), noRetry() {} } as ScheduledController, env, {} as ExecutionContext);
    await run("* * * * *");
    expect(await reminders(buyer.email)).toEqual([]);
    await run("*/5 * * * *");
    expect(await reminders(buyer.email)).toHaveLength(1);
  });
});
