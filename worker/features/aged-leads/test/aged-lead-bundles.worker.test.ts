/**
 * Aged-lead bundles (docs/decisions/0057-aged-lead-bundles.md; product rules 5, 14): a survey or
 * ringcloud order for N aged leads of a band reserves N listed leads at checkout, all or none, and sells
 * them to the buyer when the payment succeeds, through the marketplace's sale.
 */
import { and, count, eq, gt, isNull } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { BUNDLE_NEEDS_ACCOUNT, bundleStockMessage } from "../../../../src/features/aged-leads/aged-lead-bundles";
import { insertLeads } from "../../../../tests/worker/bundle-fixtures";
import { createSuppressionList, testDb } from "../../../../tests/worker/factories";
import { callApi, sessionCookie, signedIn } from "../../../../tests/worker/helpers";
import { orderRow, payWithCard, simulatedIntentOf } from "../../../../tests/worker/payment-fixtures";
import { ringcloudBody, submitSurvey, surveyBody } from "../../../../tests/worker/survey-fixtures";
import { agedLeads, orders, users } from "../../../db/schema";

/** Every test starts from an empty stock: the leads other tests left unsold are taken off sale. */
beforeEach(async () => {
  await testDb().update(agedLeads).set({ withheld: true }).where(isNull(agedLeads.soldAt));
});

/** The survey wizard's save for `count` aged leads of `band`: the new buyer's cookie and survey. */
async function surveyBuyer(count: number, band: string, unitCents: number) {
  const answers = surveyBody({
    leadType: "Aged Leads",
    totalTransfers: undefined,
    callsPerDay: undefined,
    transferHours: undefined,
    totalCallbacks: count,
    ageRange: band,
    totalPrice: count * unitCents,
  });
  const response = await submitSurvey("/api/survey", answers);
  const { surveyId } = await response.json<{ surveyId: string }>();
  return { cookie: sessionCookie(response), surveyId, email: answers.email };
}

function surveyCheckout(buyer: { cookie: string; surveyId: string }, count: number, band: string, unitCents: number) {
  return callApi("/api/create-payment-intent", {
    json: { amount: (count * unitCents) / 100, leadType: "Aged Leads", quantity: count, ageRange: band, ...buyer },
    cookie: buyer.cookie,
  });
}

interface Started {
  clientSecret: string;
  orderId: string;
  amountCents: number;
}

async function myLeadIds(cookie: string): Promise<string[]> {
  const response = await callApi("/api/my-leads", { cookie });
  expect(response.status).toBe(200);
  return (await response.json<{ items: { id: string }[] }>()).items.map((lead) => lead.id);
}

async function reservedCount() {
  const [row] = await testDb()
    .select({ n: count() })
    .from(agedLeads)
    .where(and(isNull(agedLeads.soldAt), gt(agedLeads.reservedUntil, new Date())));
  return row?.n ?? 0;
}

async function ordersOf(cookie: string) {
  const me = await (await callApi("/api/me", { cookie })).json<{ id?: string; user?: { id: string } }>();
  const userId = me.user?.id ?? me.id;
  const rows = await testDb()
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.userId, userId ?? ""));
  return rows.length;
}

describe("survey bundles fill at payment", () => {
  it("a paid survey bundle of N puts N leads of that band in My Leads at once", async () => {
    const oldLeads = await insertLeads(5, { ageDays: 120 });
    await insertLeads(3, { ageDays: 75 });
    await insertLeads(2, { ageDays: 10 });
    const buyer = await surveyBuyer(4, "90-180", 200);
    const started = await surveyCheckout(buyer, 4, "90-180", 200);
    expect(started.status).toBe(200);
    const start = await started.json<Started>();
    expect(start.amountCents).toBe(800);
    expect(await myLeadIds(buyer.cookie)).toEqual([]);

    expect((await payWithCard(start.clientSecret)).status).toBe(200);
    const mine = await myLeadIds(buyer.cookie);
    expect(mine).toHaveLength(4);
    for (const id of mine) expect(oldLeads).toContain(id);
    expect(await orderRow(start.orderId)).toMatchObject({ status: "paid", kind: "survey", quantity: 4 });
    expect((await simulatedIntentOf(start.orderId))?.refunded_cents).toBe(0);
  });

  it("a bundle lead on the buyer's private Do Not Call list is left out at payment and refunded at the unit price", async () => {
    const leads = await insertLeads(3, { ageDays: 120 });
    const buyer = await surveyBuyer(3, "90-180", 200);
    const start = await (await surveyCheckout(buyer, 3, "90-180", 200)).json<Started>();
    // The buyer keeps one of the three leads' numbers on a private list (decision 0049).
    const db = testDb();
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, buyer.email));
    const [listed] = await db
      .select({ phoneKey: agedLeads.phoneKey })
      .from(agedLeads)
      .where(eq(agedLeads.id, leads[0] ?? ""));
    await createSuppressionList(db, [listed?.phoneKey ?? 0], {
      kind: "buyer_private",
      name: "Mine",
      ownerUserId: user?.id,
    });

    expect((await payWithCard(start.clientSecret)).status).toBe(200);
    const mine = await myLeadIds(buyer.cookie);
    expect(mine).toHaveLength(2);
    expect(mine).not.toContain(leads[0]);
    expect((await simulatedIntentOf(start.orderId))?.refunded_cents).toBe(200);
    expect(await orderRow(start.orderId)).toMatchObject({ status: "paid", quantity: 2, total_cents: 400 });
  });

  it("refuses a count beyond stock with the message and creates nothing", async () => {
    await insertLeads(37, { ageDays: 120 });
    const buyer = await surveyBuyer(40, "90-180", 200);
    const ordersBefore = await ordersOf(buyer.cookie);
    const response = await surveyCheckout(buyer, 40, "90-180", 200);
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ message: "Only 37 leads of 90-180 days are available" });
    expect(bundleStockMessage(37, "90-180")).toBe("Only 37 leads of 90-180 days are available");
    expect(await ordersOf(buyer.cookie)).toBe(ordersBefore);
    expect(await reservedCount()).toBe(0);
  });

  it("a retried payment step of the same survey gives its earlier reservation back first", async () => {
    await insertLeads(3, { ageDays: 120 });
    const buyer = await surveyBuyer(3, "90-180", 200);
    const first = await (await surveyCheckout(buyer, 3, "90-180", 200)).json<Started>();
    const again = await surveyCheckout(buyer, 3, "90-180", 200);
    expect(again.status).toBe(200);
    const second = await again.json<Started>();
    expect(await orderRow(first.orderId)).toMatchObject({ status: "cancelled" });
    expect((await payWithCard(second.clientSecret)).status).toBe(200);
    expect(await myLeadIds(buyer.cookie)).toHaveLength(3);
  });

  it("never puts a suppressed or withheld lead in a bundle", async () => {
    const clean = await insertLeads(3, { ageDays: 75 });
    const withheld = await insertLeads(2, { ageDays: 75, withheld: true });
    const suppressed = await insertLeads(2, { ageDays: 75, suppressed: true });
    const buyer = await surveyBuyer(4, "60-90", 300);
    const refused = await surveyCheckout(buyer, 4, "60-90", 300);
    expect(await refused.json()).toEqual({ message: "Only 3 leads of 60-90 days are available" });

    const fitting = await surveyBuyer(3, "60-90", 300);
    const start = await (await surveyCheckout(fitting, 3, "60-90", 300)).json<Started>();
    expect((await payWithCard(start.clientSecret)).status).toBe(200);
    const mine = await myLeadIds(fitting.cookie);
    expect(mine.sort()).toEqual([...clean].sort());
    for (const id of [...withheld, ...suppressed]) expect(mine).not.toContain(id);
  });

  it("20 buyers racing for the last leads: no lead sold twice, no one charged for a lead not delivered", async () => {
    await insertLeads(10, { ageDays: 75 });
    const buyers = await Promise.all(Array.from({ length: 20 }, () => signedIn()));
    const answers = await Promise.all(
      buyers.map(({ cookie }) =>
        callApi("/api/create-payment-intent", {
          json: { amount: 9, leadType: "Aged Leads", quantity: 3, ageRange: "60-90" },
          cookie,
        }),
      ),
    );
    const won = answers.filter((answer) => answer.status === 200);
    expect(won).toHaveLength(3);
    for (const lost of answers.filter((answer) => answer.status !== 200)) {
      expect(lost.status).toBe(409);
      expect((await lost.json<{ message: string }>()).message).toMatch(
        /^Only [01] leads? of 60-90 days (is|are) available$/,
      );
    }
    const starts = await Promise.all(won.map((answer) => answer.json<Started>()));
    const payments = await Promise.all(starts.map((start) => payWithCard(start.clientSecret)));
    for (const payment of payments) expect(payment.status).toBe(200);

    const sold = new Map<string, string>();
    for (const { cookie } of buyers) {
      const mine = await myLeadIds(cookie);
      for (const id of mine) {
        expect(sold.has(id)).toBe(false);
        sold.set(id, cookie);
      }
    }
    expect(sold.size).toBe(9);
    for (const start of starts) {
      const order = await orderRow(start.orderId);
      const [delivered] = await testDb()
        .select({ n: count() })
        .from(agedLeads)
        .where(eq(agedLeads.soldOrderId, start.orderId));
      const refunded = (await simulatedIntentOf(start.orderId))?.refunded_cents ?? 0;
      expect(Number(order?.total_cents) - refunded).toBe((delivered?.n ?? 0) * 300);
    }
  }, 60_000);

  it("a reservation that ran out before payment sells what can be sold and refunds the rest at once", async () => {
    const leads = await insertLeads(4, { ageDays: 120 });
    const buyer = await surveyBuyer(4, "90-180", 200);
    const start = await (await surveyCheckout(buyer, 4, "90-180", 200)).json<Started>();
    // The reservation runs out and another buyer takes one of its leads meanwhile.
    const other = await signedIn();
    const db = testDb();
    await db
      .update(agedLeads)
      .set({ reservedUntil: new Date(Date.now() - 1000) })
      .where(eq(agedLeads.reservedByOrderId, start.orderId));
    await db
      .update(agedLeads)
      .set({ soldAt: new Date(), soldToUserId: other.user.id })
      .where(eq(agedLeads.id, leads[0] ?? ""));

    expect((await payWithCard(start.clientSecret)).status).toBe(200);
    const mine = await myLeadIds(buyer.cookie);
    expect(mine.sort()).toEqual(leads.slice(1).sort());
    expect(await orderRow(start.orderId)).toMatchObject({
      status: "paid",
      payment_error: "1 lead could not be delivered; $2.00 refunded",
    });
    expect((await simulatedIntentOf(start.orderId))?.refunded_cents).toBe(200);
  });

  it("a lost lead is replaced from the band's stock when it can be", async () => {
    const leads = await insertLeads(4, { ageDays: 120 });
    const buyer = await surveyBuyer(3, "90-180", 200);
    const start = await (await surveyCheckout(buyer, 3, "90-180", 200)).json<Started>();
    const db = testDb();
    const reserved = await db
      .select({ id: agedLeads.id })
      .from(agedLeads)
      .where(eq(agedLeads.reservedByOrderId, start.orderId));
    const taken = reserved[0]?.id ?? "";
    await db
      .update(agedLeads)
      .set({ reservedUntil: new Date(Date.now() - 1000) })
      .where(eq(agedLeads.reservedByOrderId, start.orderId));
    await db.update(agedLeads).set({ soldAt: new Date() }).where(eq(agedLeads.id, taken));

    expect((await payWithCard(start.clientSecret)).status).toBe(200);
    const mine = await myLeadIds(buyer.cookie);
    expect(mine).toHaveLength(3);
    expect(mine).not.toContain(taken);
    for (const id of mine) expect(leads).toContain(id);
    expect((await simulatedIntentOf(start.orderId))?.refunded_cents).toBe(0);
  });
});

describe("ringcloud bundles fill at payment", () => {
  async function ringcloudBuyer(count: number, band: string, workingStates: string) {
    const answers = ringcloudBody({ totalTransfers: count, ageRange: band, workingStates });
    const response = await submitSurvey("/api/ringcloud-survey", answers);
    const { checkout } = await response.json<{ checkout: { amount: number; survey: string } }>();
    const cookie = sessionCookie(response);
    const pay = () =>
      callApi("/api/create-payment-intent", {
        json: {
          amount: checkout.amount,
          tier: "ringcloud",
          packageType: "partial_apps",
          quantity: count,
          ageRange: band,
          surveyId: checkout.survey,
        },
        cookie,
      });
    return { cookie, pay };
  }

  it("sells N leads of the band in the buyer's working states, and refuses beyond that stock", async () => {
    const texas = await insertLeads(3, { state: "TX", ageDays: 75 });
    const oklahoma = await insertLeads(2, { state: "OK", ageDays: 75 });
    await insertLeads(5, { state: "FL", ageDays: 75 });
    await insertLeads(5, { state: "TX", ageDays: 10 });

    const greedy = await ringcloudBuyer(6, "60-90", "TX, Oklahoma");
    const refused = await greedy.pay();
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ message: "Only 5 leads of 60-90 days are available in TX, OK" });
    expect(await reservedCount()).toBe(0);

    const buyer = await ringcloudBuyer(5, "60-90", "TX, Oklahoma");
    const started = await buyer.pay();
    expect(started.status).toBe(200);
    const start = await started.json<Started>();
    expect(start.amountCents).toBe(2000);
    expect((await payWithCard(start.clientSecret)).status).toBe(200);
    expect((await myLeadIds(buyer.cookie)).sort()).toEqual([...texas, ...oklahoma].sort());
    expect(await orderRow(start.orderId)).toMatchObject({ status: "paid", kind: "ringcloud" });
  });
});

describe("bad bundle input is refused with a message and changes nothing", () => {
  it.each([
    ["an unknown band", { ageRange: "10-20" }, 400, "Please select an age range"],
    ["a count of zero", { quantity: 0, amount: 0 }, 400, "Quantity must be at least 1"],
    ["a count beyond stock", { quantity: 5, amount: 15 }, 409, "Only 2 leads of 60-90 days are available"],
    ["a foreign survey id", { surveyId: "not-a-survey-of-yours" }, 400, expect.any(String)],
  ])("%s", async (_name, overrides, status, message) => {
    await insertLeads(2, { ageDays: 75 });
    const { cookie } = await signedIn();
    const response = await callApi("/api/create-payment-intent", {
      json: { amount: 3, leadType: "Aged Leads", quantity: 1, ageRange: "60-90", ...overrides },
      cookie: "surveyId" in overrides ? undefined : cookie,
    });
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ message });
    expect(await ordersOf(cookie)).toBe(0);
    expect(await reservedCount()).toBe(0);
  });

  it("refuses an anonymous bundle: its leads go to an account's My Leads", async () => {
    await insertLeads(2, { ageDays: 75 });
    const response = await callApi("/api/create-payment-intent", {
      json: { amount: 3, leadType: "Aged Leads", quantity: 1, ageRange: "60-90", email: "anon@example.com" },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: BUNDLE_NEEDS_ACCOUNT });
    expect(await reservedCount()).toBe(0);
  });
});
