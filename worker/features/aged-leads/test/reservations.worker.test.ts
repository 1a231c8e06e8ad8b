/** One buyer cannot lock the marketplace; unpaid reservations lose their payment. */

import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, count, eq, gt, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { MAX_RESERVED_LEADS } from "../../../../src/features/orders/orders";
import { endLeadHold, testDb } from "../../../../tests/worker/factories";
import { signedIn } from "../../../../tests/worker/helpers";
import {
  buyLeads,
  createLeads,
  orderRow,
  payWithCard,
  type Started,
  simulatedIntentOf,
} from "../../../../tests/worker/payment-fixtures";
import worker from "../../../app";
import { agedLeads, orders } from "../../../db/schema";

async function liveReservations(userId: string) {
  return testDb()
    .select({ orderId: agedLeads.reservedByOrderId, leads: count() })
    .from(agedLeads)
    .where(
      and(eq(agedLeads.reservedByUserId, userId), gt(agedLeads.reservedUntil, new Date()), isNull(agedLeads.soldAt)),
    )
    .groupBy(agedLeads.reservedByOrderId);
}

describe("one open reservation per buyer (product rule 14)", () => {
  it("a new purchase releases the previous unpaid one and cancels its payment", async () => {
    const buyer = await signedIn();
    const other = await signedIn();
    const [first, second] = (await createLeads(2)) as [string, string];
    const old = await (await buyLeads(buyer.cookie, [first])).json<Started>();
    const current = await (await buyLeads(buyer.cookie, [second])).json<Started>();

    expect(await liveReservations(buyer.user.id)).toEqual([{ orderId: current.orderId, leads: 1 }]);
    expect(await orderRow(old.orderId)).toMatchObject({ status: "cancelled" });
    expect(await simulatedIntentOf(old.orderId)).toMatchObject({ status: "canceled" });
    const lateCard = await payWithCard(old.clientSecret);
    expect(lateCard.status).toBe(409);
    expect(await lateCard.json()).toEqual({ message: expect.stringContaining("cancelled") });
    // The released lead is on sale again.
    expect((await buyLeads(other.cookie, [first])).status).toBe(200);
    // The current purchase still pays.
    expect((await payWithCard(current.clientSecret)).status).toBe(200);
    expect(await orderRow(current.orderId)).toMatchObject({ status: "paid" });
  });

  it("a refused purchase keeps the buyer's current reservation", async () => {
    const buyer = await signedIn();
    const rival = await signedIn();
    const [mine, taken] = (await createLeads(2)) as [string, string];
    const kept = await (await buyLeads(buyer.cookie, [mine])).json<Started>();
    expect((await buyLeads(rival.cookie, [taken])).status).toBe(200);
    expect((await buyLeads(buyer.cookie, [mine, taken])).status).toBe(409);
    expect(await liveReservations(buyer.user.id)).toEqual([{ orderId: kept.orderId, leads: 1 }]);
    expect(await orderRow(kept.orderId)).toMatchObject({ status: "pending" });
  });

  it(`reserves at most ${MAX_RESERVED_LEADS} leads at once`, async () => {
    const { cookie, user } = await signedIn();
    const leads = await createLeads(MAX_RESERVED_LEADS + 1);
    const tooMany = await buyLeads(cookie, leads);
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({ message: `Select at most ${MAX_RESERVED_LEADS} leads at a time.` });
    const most = await buyLeads(cookie, leads.slice(0, MAX_RESERVED_LEADS));
    expect(most.status).toBe(200);
    expect(await most.json()).toMatchObject({ count: MAX_RESERVED_LEADS, amountCents: MAX_RESERVED_LEADS * 500 });
    expect(await liveReservations(user.id)).toEqual([{ orderId: expect.any(String), leads: MAX_RESERVED_LEADS }]);
  });

  it("allows 10 reservation requests a minute per buyer, then 429", async () => {
    const { cookie } = await signedIn();
    const leads = await createLeads(11);
    for (const lead of leads.slice(0, 10)) expect((await buyLeads(cookie, [lead])).status).toBe(200);
    const refused = await buyLeads(cookie, [leads[10] as string]);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ message: "Too many attempts. Please wait a minute and try again." });
    // Another buyer is not held back.
    expect((await buyLeads((await signedIn()).cookie, [leads[10] as string])).status).toBe(200);
  });

  it("holds under parallel purchases: one buyer ends with one reservation, one lead goes to one buyer", async () => {
    const buyer = await signedIn();
    const leads = await createLeads(5);
    const answers = await Promise.all(leads.map((lead) => buyLeads(buyer.cookie, [lead])));
    expect(answers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
    const held = await liveReservations(buyer.user.id);
    expect(held).toHaveLength(1);
    const winners = await Promise.all(
      answers.filter((answer) => answer.status === 200).map((answer) => answer.json<Started>()),
    );
    const statuses = await Promise.all(winners.map(async (start) => (await orderRow(start.orderId))?.status));
    expect(statuses.filter((status) => status === "pending")).toHaveLength(1);
    expect(winners.find((start) => start.orderId === held[0]?.orderId)).toBeDefined();

    const [contested] = (await createLeads(1)) as [string];
    const rivals = await Promise.all([signedIn(), signedIn(), signedIn(), signedIn()]);
    const races = await Promise.all(rivals.map((rival) => buyLeads(rival.cookie, [contested])));
    expect(races.map((race) => race.status).sort()).toEqual([200, 409, 409, 409]);
  });
});

describe("an expired reservation cancels its payment", () => {
  it("the cron sweep cancels the intent, the order and the reservation", async () => {
    const buyer = await signedIn();
    const [lead] = (await createLeads(1)) as [string];
    const start = await (await buyLeads(buyer.cookie, [lead])).json<Started>();
    // The reservation (15 minutes) ran out long ago.
    const db = testDb();
    await db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 16 * 60_000) })
      .where(eq(orders.id, start.orderId));
    await endLeadHold(db, lead, Date.now() - 60_000);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);

    expect(await orderRow(start.orderId)).toMatchObject({ status: "cancelled" });
    expect(await simulatedIntentOf(start.orderId)).toMatchObject({ status: "canceled" });
    const [released] = await db
      .select({ reservedByOrderId: agedLeads.reservedByOrderId })
      .from(agedLeads)
      .where(eq(agedLeads.id, lead));
    expect(released).toEqual({ reservedByOrderId: null });
    expect((await payWithCard(start.clientSecret)).status).toBe(409);
    expect(await orderRow(start.orderId)).toMatchObject({ status: "cancelled", paid_at: null });
  });

  it("a running reservation is left alone", async () => {
    const buyer = await signedIn();
    const [lead] = (await createLeads(1)) as [string];
    const start = await (await buyLeads(buyer.cookie, [lead])).json<Started>();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await orderRow(start.orderId)).toMatchObject({ status: "pending" });
    expect((await payWithCard(start.clientSecret)).status).toBe(200);
  });
});
