/**
 * The marketplace of unassigned call-backs and appointments (docs/decisions/0061): listed masked and the
 * same for every buyer, bought one at a time by card or balance through a reservation that one conditional
 * UPDATE takes (of 20 racing buyers exactly one), delivered into My Call-Backs with the delivery e-mail and
 * webhook, and an appointment's calendar invite for its buyer only.
 */
import { env } from "cloudflare:workers";
import { and, eq, gt } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { MARKET_MESSAGES } from "../../../../src/features/callbacks/callback-market";
import { notChargedMessage } from "../../../../src/features/do-not-call/private-lists";
import { createCallbackOrder, testDb } from "../../../../tests/worker/factories";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import { buy, credit, HOUR, listing, orderOf, row, stock } from "../../../../tests/worker/market-fixtures";
import { orderRow, payWithCard } from "../../../../tests/worker/payment-fixtures";
import { uploadList } from "../../../../tests/worker/suppression-fixtures";
import { deps } from "../../../../tests/worker/transfer-fixtures";
import { addEndpoint, eventsOf } from "../../../../tests/worker/webhook-fixtures";
import { callbackOpportunities, orders, outbox } from "../../../db/schema";
import { scheduled } from "../../../scheduled";
import { balanceOf } from "../../orders/balance";
import { expireReservations } from "../../orders/orders";
import { fillCallbackOrders } from "../callbacks";

/** The five-minute cron's run (worker/scheduled.ts). */
const runScheduled = () =>
  scheduled(
    { cron: "*/5 * * * *", scheduledTime: Date.now(), noRetry() {} } as ScheduledController,
    env,
    {} as ExecutionContext,
  );

beforeEach(async () => {
  await testDb().delete(callbackOpportunities);
});

/** A marketplace hold on call-back `id` that runs (or ran) until `at`. */
const holdUntil = (id: string, at: number) =>
  testDb()
    .update(callbackOpportunities)
    .set({ reservedUntil: new Date(at) })
    .where(eq(callbackOpportunities.id, id));

/** How many call-backs the buyer holds now. */
const heldBy = (userId: string) =>
  testDb().$count(
    callbackOpportunities,
    and(eq(callbackOpportunities.reservedByUserId, userId), gt(callbackOpportunities.reservedUntil, new Date())),
  );

describe("the listing", () => {
  it("lists unassigned ones of each kind masked, soonest first, and none whose window has started or that is taken", async () => {
    const { cookie, user } = await signedIn();
    const later = await stock({ startsIn: 48 * HOUR });
    const sooner = await stock({ startsIn: 2 * HOUR });
    const callback = await stock({ kind: "callback" });
    const started = await stock({ startsIn: -10 * 60_000 });
    const taken = await stock();
    await testDb()
      .update(callbackOpportunities)
      .set({ buyerUserId: user.id, deliveredAt: new Date() })
      .where(eq(callbackOpportunities.id, taken.id));

    const appointments = await listing(cookie, "appointment");
    expect(appointments.map((item) => item.id)).toEqual([sooner.id, later.id]);
    expect(appointments[0]).toEqual({
      id: sooner.id,
      kind: "appointment",
      name: "Ruth M.",
      phone: "(605) ***-****",
      state: "TX",
      timeZone: "America/Chicago",
      windowStart: new Date(sooner.start).toISOString(),
      windowEnd: new Date(sooner.start + 30 * 60_000).toISOString(),
      priceCents: 1500,
    });
    expect(JSON.stringify(appointments)).not.toContain(sooner.phone.slice(3));
    expect((await listing(cookie, "callback")).map((item) => item.id)).toEqual([callback.id]);
    expect(JSON.stringify(appointments)).not.toContain(started.id);
  });

  it("is the same whatever the buyer's own private Do Not Call list holds", async () => {
    const buyer = await signedIn();
    const item = await stock();
    const before = await listing(buyer.cookie, "appointment");
    await uploadList({ cookie: buyer.cookie, as: "buyer", add: [Number(item.phone)] });
    expect(await listing(buyer.cookie, "appointment")).toEqual(before);
    expect(before.map((listed) => listed.id)).toEqual([item.id]);
  });

  it("refuses an unknown kind and anonymous callers", async () => {
    const { cookie } = await signedIn();
    expect((await callApi("/api/callback-market?kind=lead", { cookie })).status).toBe(400);
    expect((await callApi("/api/callback-market?kind=callback")).status).toBe(401);
  });
});

describe("buying", () => {
  it("by card: reserved, then delivered to the buyer at payment, with the e-mail and the webhook", async () => {
    const buyer = await signedIn();
    await addEndpoint(buyer.cookie, { events: ["appointment.delivered"] });
    const item = await stock();
    const response = await buy(buyer.cookie, item.id);
    expect(response.status).toBe(200);
    const start = await response.json<{ clientSecret: string; orderId: string; amountCents: number; kind: string }>();
    expect(start).toMatchObject({ amountCents: 1500, kind: "appointment", callbackId: item.id });
    // Held for the payment: no longer listed, not yet delivered.
    expect(await listing(buyer.cookie, "appointment")).toEqual([]);
    expect(await row(item.id)).toMatchObject({ buyer_user_id: null, reserved_order_id: start.orderId });

    expect((await payWithCard(start.clientSecret)).status).toBe(200);
    expect(await orderRow(start.orderId)).toMatchObject({ status: "paid", kind: "callbacks", total_cents: 1500 });
    expect(await row(item.id)).toMatchObject({ buyer_user_id: buyer.user.id, order_id: start.orderId });
    const mine = await (await callApi("/api/my-callbacks", { cookie: buyer.cookie })).json<{
      callbacks: { id: string; phone: string }[];
    }>();
    expect(mine.callbacks.map((delivered) => [delivered.id, delivered.phone])).toEqual([[item.id, item.phone]]);
    const events = await eventsOf(buyer.user.id);
    expect(events.map((event) => [event.type, event.subject_id])).toEqual([["appointment.delivered", item.id]]);
    const mails = await testDb()
      .select({ subject: outbox.subject })
      .from(outbox)
      .where(eq(outbox.to, buyer.user.email));
    expect(mails.some((mail) => mail.subject.includes("Ruth"))).toBe(true);
  });

  it("by balance: paid at once and delivered", async () => {
    const buyer = await signedIn();
    await credit(buyer.user.id, 2000);
    const item = await stock({ kind: "callback" });
    const response = await buy(buyer.cookie, item.id);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ paidWithBalance: true, balanceAppliedCents: 1500, amountCents: 0 });
    expect(await row(item.id)).toMatchObject({ buyer_user_id: buyer.user.id });
    expect(await listing(buyer.cookie, "callback")).toEqual([]);
  });

  it("of 20 buyers racing for one, exactly one reserves it, and only that one gets it", async () => {
    const buyers = await Promise.all(Array.from({ length: 20 }, () => signedIn()));
    const item = await stock();
    const answers = await Promise.all(buyers.map((buyer) => buy(buyer.cookie, item.id)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    const winner = statuses.indexOf(200);
    const start = await answers[winner]?.json<{ clientSecret: string }>();
    for (const [i, answer] of answers.entries()) {
      if (i !== winner) expect(await answer.json()).toMatchObject({ message: MARKET_MESSAGES.reserved });
    }
    expect((await payWithCard(start?.clientSecret ?? "")).status).toBe(200);
    expect(await row(item.id)).toMatchObject({ buyer_user_id: buyers[winner]?.user.id });
    const allDetails = await testDb().select({ details: orders.details }).from(orders);
    expect(allDetails.filter((order) => order.details.callbackId === item.id)).toHaveLength(1);
  });

  it("lets a buyer hold one purchase at a time, so no buyer can keep the marketplace reserved", async () => {
    const hoarder = await signedIn();
    const other = await signedIn();
    const items = await Promise.all([stock(), stock(), stock()]);
    // One after another, and then all at once: each purchase ends the buyer's previous hold.
    for (const item of items) expect((await buy(hoarder.cookie, item.id)).status).toBe(200);
    await Promise.all(items.map((item) => buy(hoarder.cookie, item.id)));
    expect(await heldBy(hoarder.user.id)).toBe(1);
    const listed = (await listing(other.cookie, "appointment")).map((item) => item.id);
    expect(items.filter((item) => listed.includes(item.id))).toHaveLength(2);
    // A refused attempt (another buyer's hold) keeps the hold the buyer has.
    const taken = await stock();
    expect((await buy(other.cookie, taken.id)).status).toBe(200);
    expect((await buy(hoarder.cookie, taken.id)).status).toBe(409);
    expect(await heldBy(hoarder.user.id)).toBe(1);
  });

  it("refuses unknown, sold and started ones with a message, and changes nothing", async () => {
    const buyer = await signedIn();
    const other = await signedIn();
    await credit(other.user.id, 1500);
    const sold = await stock();
    expect((await buy(other.cookie, sold.id)).status).toBe(200);
    const started = await stock({ startsIn: -60_000 });
    const cases: [string, number, string][] = [
      [crypto.randomUUID(), 404, MARKET_MESSAGES.unknown],
      [sold.id, 409, MARKET_MESSAGES.sold],
      [started.id, 409, MARKET_MESSAGES.started],
    ];
    for (const [id, status, message] of cases) {
      const response = await buy(buyer.cookie, id);
      expect(response.status, id).toBe(status);
      expect(await response.json()).toMatchObject({ message });
    }
    const empty = await callApi("/api/callback-market/purchase", { cookie: buyer.cookie, json: {} });
    expect(empty.status).toBe(400);
    expect(await row(started.id)).toMatchObject({ buyer_user_id: null, reserved_order_id: null });
    expect(await row(sold.id)).toMatchObject({ buyer_user_id: other.user.id });
    expect(await testDb().$count(orders, eq(orders.userId, buyer.user.id))).toBe(0);
    expect((await callApi("/api/callback-market/purchase", { json: { callbackId: sold.id } })).status).toBe(401);
  });

  it("leaves one on the buyer's private list out at payment: refunded, not delivered, listed again", async () => {
    const buyer = await signedIn();
    const item = await stock();
    await uploadList({ cookie: buyer.cookie, as: "buyer", add: [Number(item.phone)] });
    const response = await buy(buyer.cookie, item.id);
    expect(response.status).toBe(200);
    const start = await response.json<{ clientSecret: string; orderId: string }>();
    expect((await payWithCard(start.clientSecret)).status).toBe(200);
    expect(await orderRow(start.orderId)).toMatchObject({
      status: "refunded",
      payment_error: notChargedMessage(1),
    });
    expect(await row(item.id)).toMatchObject({ buyer_user_id: null, order_id: null, reserved_order_id: null });
    const other = await signedIn();
    expect((await listing(other.cookie, "appointment")).map((listed) => listed.id)).toEqual([item.id]);
  });

  it("whose payment never came is cancelled by the reservation sweep: the balance comes back, it is listed again", async () => {
    const buyer = await signedIn();
    await credit(buyer.user.id, 500);
    const item = await stock();
    const response = await buy(buyer.cookie, item.id);
    expect(await response.json()).toMatchObject({ amountCents: 1000, balanceAppliedCents: 500 });
    const { orderId } = await orderOf(item.id);
    await testDb()
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 16 * 60_000) })
      .where(eq(orders.id, orderId));
    await holdUntil(item.id, Date.now() - 60_000);
    expect(await expireReservations(deps())).toBeGreaterThanOrEqual(1);
    expect(await orderRow(orderId)).toMatchObject({ status: "cancelled" });
    expect(await balanceOf(deps(), buyer.user.id)).toBe(500);
    expect((await listing(buyer.cookie, "appointment")).map((listed) => listed.id)).toEqual([item.id]);
  });

  it("is refused at payment and refunded once its number went on the Do Not Call list after the reservation", async () => {
    const buyer = await signedIn();
    const item = await stock();
    const response = await buy(buyer.cookie, item.id);
    const start = await response.json<{ clientSecret: string; orderId: string }>();
    expect((await callApi("/api/do-not-call", { json: { phone: item.phone } })).status).toBeLessThan(300);
    expect((await payWithCard(start.clientSecret)).status).toBe(200);
    expect(await orderRow(start.orderId)).toMatchObject({
      status: "refunded",
      payment_error: MARKET_MESSAGES.suppressed,
    });
    expect(await row(item.id)).toMatchObject({ buyer_user_id: null, order_id: null, reserved_order_id: null });
  });

  it("buying again what the buyer holds never extends the hold, and the sweep places it once the hold lapses", async () => {
    const buyer = await signedIn();
    const item = await stock({ kind: "callback" });
    expect((await buy(buyer.cookie, item.id)).status).toBe(200);
    const first = await row(item.id);
    await holdUntil(item.id, Date.now() + 60_000);
    expect((await buy(buyer.cookie, item.id)).status).toBe(200);
    const again = await row(item.id);
    expect(again?.reserved_order_id).not.toBe(first?.reserved_order_id);
    expect(Number(again?.reserved_until)).toBeLessThanOrEqual(Date.now() + 60_000);
    // A paid call-back order it fits is waiting; once the hold has lapsed, the sweep's run places it.
    const { id: orderId } = await createCallbackOrder(testDb(), { quantity: 1, userId: (await signedIn()).user.id });
    expect(await fillCallbackOrders(deps())).toBe(0);
    await holdUntil(item.id, Date.now() - 1);
    await runScheduled();
    expect(await row(item.id)).toMatchObject({ order_id: orderId });
    await testDb().update(orders).set({ status: "completed" }).where(eq(orders.id, orderId));
  });

  it("is not placed in a paid call-back order while a purchase holds it", async () => {
    const buyer = await signedIn();
    const item = await stock({ kind: "callback" });
    expect((await buy(buyer.cookie, item.id)).status).toBe(200);
    await createCallbackOrder(testDb(), { userId: (await signedIn()).user.id });
    expect(await fillCallbackOrders(deps())).toBe(0);
    expect(await row(item.id)).toMatchObject({ order_id: null });
    await testDb()
      .update(orders)
      .set({ status: "completed" })
      .where(and(eq(orders.kind, "survey"), eq(orders.status, "paid")));
  });
});

describe("the calendar invite", () => {
  it("is RFC 5545 text for the buyer who owns it, and unknown (404) to anyone else", async () => {
    const buyer = await signedIn();
    await credit(buyer.user.id, 1500);
    const item = await stock();
    expect((await buy(buyer.cookie, item.id)).status).toBe(200);
    const path = `/api/my-callbacks/${item.id}/invite.ics`;
    const response = await callApi(path, { cookie: buyer.cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/calendar");
    const text = await response.text();
    const stamp = (ms: number) =>
      new Date(ms)
        .toISOString()
        .replace(/[-:]/g, "")
        .replace(/\.\d{3}/, "");
    const unfolded = text.replace(/\r\n /g, "");
    expect(text.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(unfolded).toContain("BEGIN:VEVENT\r\n");
    expect(unfolded).toContain(`\r\nDTSTART:${stamp(item.start)}\r\n`);
    expect(unfolded).toContain(`\r\nDTEND:${stamp(item.start + 30 * 60_000)}\r\n`);
    expect(unfolded).toMatch(/\r\nSUMMARY:Appointment: call Ruth Miller\r\n/);
    expect(unfolded).toMatch(new RegExp(`\\r\\nDESCRIPTION:[^\\r]*${item.phone}`));
    expect(text.split("\r\n").every((line) => new TextEncoder().encode(line).length <= 75)).toBe(true);

    const other = await signedIn();
    expect((await callApi(path, { cookie: other.cookie })).status).toBe(404);
    expect(
      (await callApi(`/api/my-callbacks/${crypto.randomUUID()}/invite.ics`, { cookie: buyer.cookie })).status,
    ).toBe(404);
    expect((await callApi(path)).status).toBe(401);
  });
});
