/** One transaction per payment event, automatic refunds, refunds and disputes. */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { endLeadHold, testDb } from "../../../../tests/worker/factories";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import {
  buyLeads,
  createLeads,
  orderRow,
  payWithCard,
  type Started,
  sendStripeEvent,
  simulatedIntentOf,
  succeededIntent,
} from "../../../../tests/worker/payment-fixtures";
import { agedLeads, orders, paymentEvents } from "../../../db/schema";

async function eventRow(id: string) {
  const [row] = await testDb().select({ id: paymentEvents.id }).from(paymentEvents).where(eq(paymentEvents.id, id));
  return row ?? null;
}

async function soldTo(leadId: string) {
  const [row] = await testDb()
    .select({ soldOrderId: agedLeads.soldOrderId })
    .from(agedLeads)
    .where(eq(agedLeads.id, leadId));
  return row?.soldOrderId;
}

async function startPackage(): Promise<Started & { intentId: string }> {
  const start = await (
    await callApi("/api/create-payment-intent", { json: { amount: 39, callCount: 1, email: "events@example.com" } })
  ).json<Started>();
  return { ...start, intentId: String((await orderRow(start.orderId))?.payment_intent_id) };
}

describe("a payment event commits in one transaction", () => {
  afterEach(async () => {
    // raw SQL: drops the trigger that fails the payment's batch, the failure under test
    await env.DB.prepare("DROP TRIGGER IF EXISTS fail_lead_sale").run();
  });

  it("a failing lead sale leaves no event row and a pending order; the provider's retry completes it", async () => {
    const { cookie } = await signedIn();
    const leads = await createLeads(2);
    const start = await (await buyLeads(cookie, leads)).json<Started>();
    const intentId = String((await orderRow(start.orderId))?.payment_intent_id);
    // The sale statement (and only it) fails, as a D1 error in the middle of the batch would.
    // raw SQL: a trigger that fails the payment's batch, the failure under test
    await env.DB.prepare(
      `CREATE TRIGGER fail_lead_sale BEFORE UPDATE OF sold_at ON aged_leads WHEN NEW.sold_at IS NOT NULL
       BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
    ).run();
    const eventId = `evt_${crypto.randomUUID()}`;
    const failed = await sendStripeEvent(
      "payment_intent.succeeded",
      succeededIntent(intentId, start.amountCents),
      eventId,
    );
    expect(failed.status).toBe(500);
    expect(await eventRow(eventId)).toBeNull();
    expect(await orderRow(start.orderId)).toMatchObject({ status: "pending", paid_at: null });
    expect(await soldTo(leads[0] as string)).toBeNull();

    // raw SQL: drops the trigger that failed the batch, so the retry can succeed
    await env.DB.prepare("DROP TRIGGER fail_lead_sale").run();
    const retried = await sendStripeEvent(
      "payment_intent.succeeded",
      succeededIntent(intentId, start.amountCents),
      eventId,
    );
    expect(retried.status).toBe(200);
    expect(await retried.json()).toEqual({ received: true, duplicate: false });
    expect(await eventRow(eventId)).not.toBeNull();
    expect(await orderRow(start.orderId)).toMatchObject({ status: "paid" });
    for (const lead of leads) expect(await soldTo(lead)).toBe(start.orderId);
  });

  it("a paid order whose leads were sold meanwhile is refunded through the provider and shows refunded", async () => {
    const late = await signedIn();
    const quick = await signedIn();
    const [lead] = (await createLeads(1)) as [string];
    const lateStart = await (await buyLeads(late.cookie, [lead])).json<Started>();
    // The late buyer's reservation runs out; another buyer takes and pays for the lead.
    await endLeadHold(testDb(), lead);
    const quickStart = await (await buyLeads(quick.cookie, [lead])).json<Started>();
    expect((await payWithCard(quickStart.clientSecret)).status).toBe(200);

    expect((await payWithCard(lateStart.clientSecret)).status).toBe(200);
    expect(await orderRow(lateStart.orderId)).toMatchObject({
      status: "refunded",
      refunded_at: expect.any(Number),
      payment_error: expect.stringContaining("refunded"),
    });
    expect(await simulatedIntentOf(lateStart.orderId)).toMatchObject({ refunded_cents: lateStart.amountCents });
    expect(await soldTo(lead)).toBe(quickStart.orderId);

    const mine = await (await callApi("/api/my-orders", { cookie: late.cookie })).json<
      { id: string; status: string }[]
    >();
    expect(mine).toEqual([expect.objectContaining({ id: lateStart.orderId, status: "refunded" })]);
    const status = await callApi(`/api/orders/${lateStart.orderId}/status`, { cookie: late.cookie });
    expect(await status.json()).toMatchObject({ status: "refunded" });
    expect(await (await callApi("/api/my-leads", { cookie: late.cookie })).json()).toMatchObject({
      items: [],
      total: 0,
    });
  });
});

describe("a payment for a cancelled order", () => {
  it("is refunded rather than kept", async () => {
    const { cookie } = await signedIn();
    const [lead] = (await createLeads(1)) as [string];
    const start = await (await buyLeads(cookie, [lead])).json<Started>();
    const intentId = String((await orderRow(start.orderId))?.payment_intent_id);
    // The reservation ended and the sweep cancelled the order while the card payment was under way.
    await testDb().update(orders).set({ status: "cancelled" }).where(eq(orders.id, start.orderId));
    const response = await sendStripeEvent("payment_intent.succeeded", succeededIntent(intentId, start.amountCents));
    expect(response.status).toBe(200);
    expect(await orderRow(start.orderId)).toMatchObject({
      status: "refunded",
      payment_error: "Paid after the order was cancelled; refunded",
    });
    expect(await soldTo(lead)).toBeNull();
  });
});

describe("the webhook checks what was paid and follows refunds and disputes", () => {
  it.each([
    ["a smaller amount", 100, "usd"],
    ["another currency", 3900, "eur"],
  ])("does not mark an order paid for %s", async (_name, amount, currency) => {
    const { orderId, intentId } = await startPackage();
    const response = await sendStripeEvent("payment_intent.succeeded", succeededIntent(intentId, amount, currency));
    expect(response.status).toBe(200);
    expect(await orderRow(orderId)).toMatchObject({
      status: "pending",
      paid_at: null,
      payment_error: expect.stringContaining("does not match the order ($39.00 USD)"),
    });
  });

  it("charge.refunded marks a paid order refunded; a partial refund only notes it", async () => {
    const { orderId, intentId } = await startPackage();
    await sendStripeEvent("payment_intent.succeeded", succeededIntent(intentId, 3900));
    const charge = { id: "ch_1", object: "charge", payment_intent: intentId, amount: 3900 };
    await sendStripeEvent("charge.refunded", { ...charge, amount_refunded: 1000, refunded: false });
    expect(await orderRow(orderId)).toMatchObject({ status: "paid", payment_error: "Partly refunded: $10.00" });
    const full = await sendStripeEvent("charge.refunded", { ...charge, amount_refunded: 3900, refunded: true });
    expect(full.status).toBe(200);
    expect(await orderRow(orderId)).toMatchObject({ status: "refunded", refunded_at: expect.any(Number) });
  });

  it("charge.dispute.created flags the order, and /admin-orders shows the flag", async () => {
    const { orderId, intentId } = await startPackage();
    await sendStripeEvent("payment_intent.succeeded", succeededIntent(intentId, 3900));
    const response = await sendStripeEvent("charge.dispute.created", {
      id: "dp_1",
      object: "dispute",
      payment_intent: intentId,
      charge: "ch_1",
      amount: 3900,
      reason: "fraudulent",
    });
    expect(response.status).toBe(200);
    expect(await orderRow(orderId)).toMatchObject({ status: "paid", dispute_reason: "fraudulent" });

    const admin = await signedIn({ isAdmin: true });
    const list = await (await callApi("/api/transfer-orders", { cookie: admin.cookie })).json<
      { id: string; disputedAt: string | null; disputeReason: string | null }[]
    >();
    expect(list.find((order) => order.id === orderId)).toMatchObject({
      disputedAt: expect.any(String),
      disputeReason: "fraudulent",
    });
  });
});
