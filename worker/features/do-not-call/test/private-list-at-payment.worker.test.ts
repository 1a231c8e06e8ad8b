/**
 * A buyer's own private Do Not Call list reveals nothing about a masked aged lead before payment
 * (product rule 40, docs/decisions/0049): the listing, its counts and filters and a reservation's answer are
 * the same whatever the list holds; when the order is paid its leads on the list are left out of the sale,
 * their price goes back at once, and only then is the buyer told how many.
 */

import { and, asc, eq, inArray, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { notChargedMessage } from "../../../../src/features/do-not-call/private-lists";
import { createCredit, testDb } from "../../../../tests/worker/factories";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import { buyLeads, orderRow, payWithCard, simulatedIntentOf } from "../../../../tests/worker/payment-fixtures";
import {
  freshPhone,
  insertLeads,
  leadRow,
  marketplace,
  uniqueState,
  uploadList,
} from "../../../../tests/worker/suppression-fixtures";
import { agedLeads, balanceLedger, rateLimitWindows, suppressionNumbers, suppressionUploads } from "../../../db/schema";

/** The listing exactly as the buyer reads it, for a query string. */
async function listing(cookie: string, query: string) {
  const response = await callApi(`/api/aged-leads?${query}`, { cookie });
  expect(response.status).toBe(200);
  return response.json<{ items: { id: string }[]; total: number; pageCount: number }>();
}

/** A reservation's answer without what differs between two orders anyway (their ids and secrets). */
async function reservationAnswer(cookie: string, leadIds: string[]) {
  const response = await buyLeads(cookie, leadIds);
  const { orderId: _orderId, clientSecret: _secret, ...body } = await response.json<Record<string, unknown>>();
  return { status: response.status, body };
}

/**
 * Lets the buyer's reservations run out, so the next reading sees the leads listed again, and their
 * reservation limit's minute pass (an attacker spreads the readings out; the test need not wait).
 */
async function endReservations(userId: string) {
  const db = testDb();
  await db.batch([
    db
      .update(agedLeads)
      .set({ reservedUntil: new Date(1) })
      .where(eq(agedLeads.reservedByUserId, userId)),
    db.delete(rateLimitWindows).where(like(rateLimitWindows.key, `%reservation:${userId}`)),
  ]);
}

async function myOrder(cookie: string, orderId: string) {
  const orders = await (await callApi("/api/my-orders", { cookie })).json<
    { id: string; status: string; quantity: number; totalCents: number; notCharged: number; notice: string | null }[]
  >();
  return orders.find((order) => order.id === orderId);
}

async function orderStatus(cookie: string, orderId: string) {
  const response = await callApi(`/api/orders/${orderId}/status`, { cookie });
  expect(response.status).toBe(200);
  return response.json<{
    status: string;
    quantity: number;
    totalCents: number;
    notCharged: number;
    notice: string | null;
  }>();
}

describe("the reproduction: private lists with bit k set, read back after each upload", () => {
  it("recovers nothing: listing, counts, filters and the reservation's answer are identical after every upload", async () => {
    const attacker = await signedIn(); // a plain buyer account, as /survey makes one
    const state = uniqueState();
    const target = freshPhone();
    const number = Number(target);
    // A 2^14 block of numbers of the target's area code, the target somewhere inside it (not at its start).
    const base = number - (number % 16_384);
    expect(number).toBeGreaterThan(base);
    const area = target.slice(0, 3);
    const [targetId, neighbour] = await insertLeads(state, [target, freshPhone()]);
    const ids = [targetId ?? "", neighbour ?? ""];

    const observe = async () => {
      const views = [];
      for (const query of [
        `location=${area}`,
        `location=${area}&certified=true`,
        `location=${state}`,
        `location=${encodeURIComponent(`${state},${area}`)}`,
        "page=1",
      ]) {
        views.push(await listing(attacker.cookie, query));
      }
      const reservations = [
        await reservationAnswer(attacker.cookie, [targetId ?? ""]),
        await reservationAnswer(attacker.cookie, ids),
      ];
      await endReservations(attacker.user.id);
      return { views, reservations };
    };

    const before = await observe();
    expect(before.views[0]?.items.map((item) => item.id)).toContain(targetId);
    expect(before.reservations[0]?.status).toBe(200);

    let listId: number | undefined;
    const recovered: number[] = [];
    for (let k = 0; k < 14; k++) {
      const numbers = Array.from({ length: 16_384 }, (_, i) => i)
        .filter((i) => (i >> k) & 1)
        .map((i) => base + i);
      // At most 10 uploads a day (docs/decisions/0051): the attacker spreads them over days, so the
      // earlier uploads are moved a day back; the oracle must stay closed however slowly it is asked.
      if (listId !== undefined)
        for (const upload of await testDb()
          .select({ id: suppressionUploads.id, createdAt: suppressionUploads.createdAt })
          .from(suppressionUploads)
          .where(eq(suppressionUploads.listId, listId))) {
          await testDb()
            .update(suppressionUploads)
            .set({ createdAt: new Date(upload.createdAt.getTime() - 86_400_000) })
            .where(eq(suppressionUploads.id, upload.id));
        }
      const upload = await uploadList({
        cookie: attacker.cookie,
        as: "buyer",
        name: "Bit list", // a buyer has one private list: each upload replaces it (a full file)
        contents: "full",
        add: numbers,
      });
      expect(listId === undefined || upload.listId === listId).toBe(true);
      listId = upload.listId;
      // The list does hold the target exactly when bit k of it is set: the experiment is real.
      const held = await testDb().$count(
        suppressionNumbers,
        and(eq(suppressionNumbers.listId, listId), eq(suppressionNumbers.number, number)),
      );
      expect(held).toBe(((number - base) >> k) & 1);

      const after = await observe();
      expect(after).toEqual(before);
      // The attack's own reading: did the target leave the listing?
      if (!after.views[0]?.items.some((item) => item.id === targetId)) recovered.push(k);
    }
    expect(recovered).toEqual([]);
  }, 120_000);
});

describe("a listed lead on the buyer's private list is never charged", () => {
  it("paying sells the others, refunds that lead's price at once, keeps it listed for others and tells the count", async () => {
    const buyer = await signedIn();
    const other = await signedIn();
    const state = uniqueState();
    const listed = [freshPhone(), freshPhone()];
    const [onList1, onList2, clean1, clean2] = await insertLeads(state, [...listed, freshPhone(), freshPhone()]);
    const all = [onList1, onList2, clean1, clean2].map((id) => id ?? "");
    const withoutList = await buyLeads(buyer.cookie, all);
    const priceOfAll = (await withoutList.json<{ amountCents: number }>()).amountCents;
    await endReservations(buyer.user.id);

    await uploadList({ cookie: buyer.cookie, as: "buyer", name: "My customers", add: listed.map(Number) });
    // Before payment nothing says so: the buyer's listing, and the amount, are what they were.
    expect((await marketplace(buyer.cookie, state)).total).toBe(4);
    const reserved = await buyLeads(buyer.cookie, all);
    expect(reserved.status).toBe(200);
    const started = await reserved.json<{
      clientSecret: string;
      orderId: string;
      amountCents: number;
      count: number;
    }>();
    expect(started).toMatchObject({ amountCents: priceOfAll, count: 4 });
    const pending = await orderStatus(buyer.cookie, started.orderId);
    expect(pending).toMatchObject({ status: "pending", notCharged: 0, notice: null });

    expect((await payWithCard(started.clientSecret)).status).toBe(200);
    const order = await orderRow(started.orderId);
    const perLead = priceOfAll / 4; // ten-day-old leads share one price
    expect(order).toMatchObject({ status: "paid", quantity: 2, total_cents: 2 * perLead });
    // The two leads' price went back to the card at once.
    expect((await simulatedIntentOf(started.orderId))?.refunded_cents).toBe(2 * perLead);
    for (const id of [clean1, clean2])
      expect(await leadRow(id ?? "")).toMatchObject({ sold_to_user_id: buyer.user.id });
    for (const id of [onList1, onList2]) expect(await leadRow(id ?? "")).toMatchObject({ sold_at: null });
    // Still listed (and no longer reserved) for everyone else.
    const othersView = await marketplace(other.cookie, state);
    expect(othersView.ids.sort()).toEqual([onList1, onList2].sort());
    const bought = await buyLeads(other.cookie, [onList1 ?? ""]);
    expect(bought.status).toBe(200);

    const message = notChargedMessage(2);
    expect(message).toBe("2 leads were on your Do Not Call list and were not charged.");
    expect(await orderStatus(buyer.cookie, started.orderId)).toMatchObject({
      status: "paid",
      notCharged: 2,
      notice: message,
    });
    expect(await myOrder(buyer.cookie, started.orderId)).toMatchObject({
      quantity: 2,
      totalCents: 2 * perLead,
      notCharged: 2,
      notice: message,
    });
    // My Leads holds the two sold, not the two left out.
    const myLeads = await (await callApi("/api/my-leads", { cookie: buyer.cookie })).json<{
      items: { id: string }[];
    }>();
    expect(myLeads.items.map((lead) => lead.id).sort()).toEqual([clean1, clean2].sort());
  });

  it("the balance part of a left-out lead is not taken from the balance", async () => {
    const buyer = await signedIn();
    const phone = freshPhone();
    const [onList, clean] = await insertLeads(uniqueState(), [phone, freshPhone()]);
    await uploadList({ cookie: buyer.cookie, as: "buyer", name: "Mine", add: [Number(phone)] });
    // A balance that pays the whole order: nothing goes to a card.
    await createCredit(testDb(), buyer.user.id, 100000);
    const response = await buyLeads(buyer.cookie, [onList ?? "", clean ?? ""]);
    expect(response.status).toBe(200);
    const started = await response.json<{ orderId: string; paidWithBalance: boolean; balanceAppliedCents: number }>();
    expect(started.paidWithBalance).toBe(true);
    const order = await orderRow(started.orderId);
    expect(order).toMatchObject({
      status: "paid",
      quantity: 1,
      balance_applied_cents: started.balanceAppliedCents / 2,
    });
    const entries = await testDb()
      .select({ amountCents: balanceLedger.amountCents })
      .from(balanceLedger)
      .where(eq(balanceLedger.userId, buyer.user.id));
    expect(entries.reduce((cents, entry) => cents + entry.amountCents, 0)).toBe(
      100_000 - started.balanceAppliedCents / 2,
    );
    expect(await leadRow(onList ?? "")).toMatchObject({ sold_at: null });
    expect((await orderStatus(buyer.cookie, started.orderId)).notice).toBe(notChargedMessage(1));
  });

  it("an order whose every lead is on the list sells nothing and is refunded whole, with the message", async () => {
    const buyer = await signedIn();
    const phone = freshPhone();
    const [id] = await insertLeads(uniqueState(), [phone]);
    await uploadList({ cookie: buyer.cookie, as: "buyer", name: "Mine", add: [Number(phone)] });
    const started = await (await buyLeads(buyer.cookie, [id ?? ""])).json<{
      clientSecret: string;
      orderId: string;
      amountCents: number;
    }>();
    await payWithCard(started.clientSecret);
    const order = await orderRow(started.orderId);
    expect(order).toMatchObject({ status: "refunded", payment_error: notChargedMessage(1) });
    expect((await simulatedIntentOf(started.orderId))?.refunded_cents).toBe(started.amountCents);
    expect(await leadRow(id ?? "")).toMatchObject({ sold_at: null });
    expect(await orderStatus(buyer.cookie, started.orderId)).toMatchObject({
      notCharged: 1,
      notice: notChargedMessage(1),
    });
  });
});

describe("bad input with a private list in place", () => {
  it("a reservation naming an unknown id is a 400 with a message and changes nothing", async () => {
    const buyer = await signedIn();
    const phone = freshPhone();
    const [onList, clean] = await insertLeads(uniqueState(), [phone, freshPhone()]);
    await uploadList({ cookie: buyer.cookie, as: "buyer", name: "Mine", add: [Number(phone)] });
    const kept = await buyLeads(buyer.cookie, [clean ?? ""]);
    expect(kept.status).toBe(200);
    const unknown = crypto.randomUUID();
    const refused = await buyLeads(buyer.cookie, [onList ?? "", unknown]);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ message: `Unknown leads: ${unknown}`, unavailable: [unknown] });
    const rows = await testDb()
      .select({ id: agedLeads.id, holder: agedLeads.reservedByUserId })
      .from(agedLeads)
      .where(inArray(agedLeads.id, [onList ?? "", clean ?? ""]))
      .orderBy(asc(agedLeads.id));
    // The earlier reservation stands; the list's lead was not reserved.
    expect(Object.fromEntries(rows.map((row) => [row.id, row.holder]))).toEqual({
      [onList ?? ""]: null,
      [clean ?? ""]: buyer.user.id,
    });
  });
});
