/**
 * Product rule 40: a number on a suppression list never passes the marketplace
 * list, a reservation, a sale or a ping; a buyer's private list applies to that buyer only, at payment
 * (docs/decisions/0049; its leads are left out of the sale, worker/features/do-not-call/test/private-list-at-payment.worker.test.ts); each sale and
 * routed transfer records the lists it was checked against; a number suppressed after purchase is flagged.
 */

import { and, count, eq, isNotNull, ne } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { SUPPRESSED_LEAD_MESSAGE, SUPPRESSED_MESSAGE } from "../../../../src/features/do-not-call/suppression";
import { testDb } from "../../../../tests/worker/factories";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import { buyLeads, orderRow, payWithCard } from "../../../../tests/worker/payment-fixtures";
import {
  daysAgo,
  freshPhone,
  insertLeads,
  leadRow,
  marketplace,
  requestDoNotCall,
  today,
  uniqueState,
  uploadList,
} from "../../../../tests/worker/suppression-fixtures";
import {
  clearTransfers,
  createOpenOrder,
  createPartner,
  pingBody,
  routeAtCallingHours,
} from "../../../../tests/worker/transfer-fixtures";
import { suppressionChecks, suppressionLists, transfers } from "../../../db/schema";

// Pings route only inside the prospect's legal calling hours (docs/decisions/0064).
routeAtCallingHours();

const ping = (auth: Record<string, string>, phone: string) =>
  callApi("/api/v1/transfers", { headers: auth, json: pingBody({ phone }) });

describe("a number on a shared list (national, state, litigator, the shop's own)", () => {
  it("is never listed: the marketplace leaves its lead out of the page and the total", async () => {
    const { cookie: admin } = await signedIn({ isAdmin: true });
    const { cookie } = await signedIn();
    const state = uniqueState();
    const phones = [freshPhone(), freshPhone(), freshPhone()];
    const [listed, onList, alsoListed] = await insertLeads(state, phones);
    expect((await marketplace(cookie, state)).total).toBe(3);

    await uploadList({ cookie: admin, kind: "litigator", add: [Number(phones[1])] });
    const after = await marketplace(cookie, state);
    expect(after.total).toBe(2);
    expect(after.ids.sort()).toEqual([listed, alsoListed].sort());
    expect(after.ids).not.toContain(onList);
    // Stored, not deleted: it waits for its number to leave the list.
    expect(await leadRow(onList ?? "")).toMatchObject({ sold_at: null, suppressed_at: expect.any(Number) });
  });

  it("cannot be reserved: a lead suppressed after it was shown is refused with the Do Not Call message", async () => {
    const { cookie } = await signedIn();
    const phone = freshPhone();
    const [id] = await insertLeads(uniqueState(), [phone]);
    expect((await requestDoNotCall(phone)).status).toBe(200);
    const response = await buyLeads(cookie, [id ?? ""]);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ message: SUPPRESSED_LEAD_MESSAGE, unavailable: [id] });
  });

  it("is not sold when suppressed between reservation and payment: the order is refunded, the lead stays unsold", async () => {
    const { cookie } = await signedIn();
    const phone = freshPhone();
    const [id, other] = await insertLeads(uniqueState(), [phone, freshPhone()]);
    const reserved = await buyLeads(cookie, [id ?? "", other ?? ""]);
    expect(reserved.status).toBe(200);
    const { clientSecret, orderId } = await reserved.json<{ clientSecret: string; orderId: string }>();

    await requestDoNotCall(phone);
    await payWithCard(clientSecret);
    const order = await orderRow(orderId);
    expect(order).toMatchObject({ status: "refunded" });
    expect(String(order?.payment_error)).toContain(SUPPRESSED_LEAD_MESSAGE);
    // All or nothing: neither lead was sold.
    expect(await leadRow(id ?? "")).toMatchObject({ sold_at: null });
    expect(await leadRow(other ?? "")).toMatchObject({ sold_at: null });
    expect(await testDb().$count(suppressionChecks, eq(suppressionChecks.subjectId, orderId))).toBe(0);
  });

  it("is never routed: a ping answers 409 with reason `suppressed`", async () => {
    await clearTransfers();
    const partner = await createPartner();
    await createOpenOrder();
    const phone = freshPhone();
    await requestDoNotCall(phone);
    const refused = await ping(partner.auth, phone);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ message: SUPPRESSED_MESSAGE, reason: "suppressed" });
    expect((await ping(partner.auth, freshPhone())).status).toBe(201);
    expect(await testDb().$count(transfers, eq(transfers.phone, phone))).toBe(0);
  });

  it("the partner API's OpenAPI document names `suppressed` among the 409 reasons", async () => {
    const document = await (await callApi("/api/v1/openapi.json")).json<{
      components: { schemas: { NoRoute: { properties: { reason: { enum: string[]; description: string } } } } };
    }>();
    const reason = document.components.schemas.NoRoute.properties.reason;
    expect(reason.enum).toContain("suppressed");
    expect(reason.description).toContain(`\`suppressed\`: ${SUPPRESSED_MESSAGE}`);
  });

  it("is sellable again once its number leaves the list (a deletions file)", async () => {
    const { cookie: admin } = await signedIn({ isAdmin: true });
    const { cookie } = await signedIn();
    const state = uniqueState();
    const phone = freshPhone();
    const [id] = await insertLeads(state, [phone]);
    const added = await uploadList({ cookie: admin, kind: "litigator", add: [Number(phone)] });
    expect((await marketplace(cookie, state)).ids).toEqual([]);
    await uploadList({ cookie: admin, listId: added.listId, contents: "deletions", remove: [Number(phone)] });
    expect((await marketplace(cookie, state)).ids).toEqual([id]);
    expect((await buyLeads(cookie, [id ?? ""])).status).toBe(200);
  });
});

describe("a buyer's private list applies to that buyer only, when the order is paid", () => {
  beforeEach(clearTransfers);

  // Product rule 40 changed (docs/decisions/0049): the list no longer hides the lead from its owner before
  // payment (that told a masked number bit by bit); it is left out of the owner's sale when paid.
  it("changes nothing its owner sees before payment; when paid the lead is left out for its owner only", async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const state = uniqueState();
    const phone = freshPhone();
    const [scrubbed, kept] = await insertLeads(state, [phone, freshPhone()]);
    await uploadList({ cookie: owner.cookie, as: "buyer", name: "My customers", add: [Number(phone)] });

    const ownerView = await marketplace(owner.cookie, state);
    expect(ownerView.total).toBe(2);
    expect(ownerView.ids.sort()).toEqual([scrubbed, kept].sort());
    const otherView = await marketplace(other.cookie, state);
    expect(otherView.total).toBe(2);
    expect(otherView.ids).toContain(scrubbed);

    const reserved = await buyLeads(owner.cookie, [scrubbed ?? "", kept ?? ""]);
    expect(reserved.status).toBe(200);
    const started = await reserved.json<{ clientSecret: string; orderId: string }>();
    expect((await payWithCard(started.clientSecret)).status).toBe(200);
    expect(await leadRow(kept ?? "")).toMatchObject({ sold_to_user_id: owner.user.id });
    expect(await leadRow(scrubbed ?? "")).toMatchObject({ sold_at: null });
    expect(await orderRow(started.orderId)).toMatchObject({ status: "paid", quantity: 1 });
    const bought = await buyLeads(other.cookie, [scrubbed ?? ""]);
    expect(bought.status).toBe(200);
    expect((await payWithCard((await bought.json<{ clientSecret: string }>()).clientSecret)).status).toBe(200);
    expect(await leadRow(scrubbed ?? "")).toMatchObject({ sold_to_user_id: other.user.id });
  });

  it("a lead imported later is listed to its owner as to everyone, and left out of the owner's sale", async () => {
    const owner = await signedIn();
    const state = uniqueState();
    const phone = freshPhone();
    await uploadList({ cookie: owner.cookie, as: "buyer", name: "Internal DNC", add: [Number(phone)] });
    const [id] = await insertLeads(state, [phone]);
    expect((await marketplace(owner.cookie, state)).total).toBe(1);
    expect((await marketplace((await signedIn()).cookie, state)).total).toBe(1);
    const started = await (await buyLeads(owner.cookie, [id ?? ""])).json<{ clientSecret: string; orderId: string }>();
    await payWithCard(started.clientSecret);
    expect(await orderRow(started.orderId)).toMatchObject({ status: "refunded" });
    expect(await leadRow(id ?? "")).toMatchObject({ sold_at: null });
  });

  it("a ping skips the owner's order and routes to another buyer's; with only the owner's, no order takes it (never `suppressed`)", async () => {
    const partner = await createPartner();
    const owner = await signedIn();
    const phone = freshPhone();
    await uploadList({ cookie: owner.cookie, as: "buyer", name: "My customers", add: [Number(phone)] });
    await createOpenOrder({ buyerId: owner.user.id, paidAt: Date.now() - 60_000 });
    const alone = await ping(partner.auth, phone);
    expect(alone.status).toBe(409);
    // A private list is nobody else's business: the answer of a state without orders (docs/decisions/0050).
    expect(await alone.json()).toMatchObject({ reason: "no_open_order" });

    const otherOrder = await createOpenOrder();
    const routed = await ping(partner.auth, phone);
    expect(routed.status).toBe(201);
    const [transfer] = await testDb()
      .select({ orderId: transfers.orderId })
      .from(transfers)
      .where(eq(transfers.phone, phone));
    expect(transfer?.orderId).toBe(otherOrder.id);
  });
});

describe("what each sale and transfer was checked against", () => {
  it("a sale records every active shared list and the buyer's own, with their refreshed-on days", async () => {
    const { cookie: admin } = await signedIn({ isAdmin: true });
    const buyer = await signedIn();
    const national = await uploadList({
      cookie: admin,
      kind: "litigator",
      add: [Number(freshPhone())],
      // Within 31 days: a stale national copy would stop the sale (docs/decisions/0085).
      refreshedOn: daysAgo(20),
    });
    const own = await uploadList({ cookie: buyer.cookie, as: "buyer", name: "Mine", add: [Number(freshPhone())] });
    const [id] = await insertLeads(uniqueState(), [freshPhone()]);
    const started = await (await buyLeads(buyer.cookie, [id ?? ""])).json<{ clientSecret: string; orderId: string }>();
    await payWithCard(started.clientSecret);

    const results = await testDb()
      .select({
        listId: suppressionChecks.listId,
        listKind: suppressionChecks.listKind,
        refreshedOn: suppressionChecks.refreshedOn,
      })
      .from(suppressionChecks)
      .where(and(eq(suppressionChecks.subjectType, "order"), eq(suppressionChecks.subjectId, started.orderId)));
    const byList = new Map(results.map((row) => [row.listId, row]));
    expect(byList.get(national.listId)).toMatchObject({ listKind: "litigator", refreshedOn: daysAgo(20) });
    expect(byList.get(own.listId)).toMatchObject({ listKind: "buyer_private", refreshedOn: today() });
    expect(results.some((row) => row.listKind === "internal_dnc")).toBe(true);
    // Another buyer's private list is none of this sale's business.
    const [others] = await testDb()
      .select({ n: count() })
      .from(suppressionChecks)
      .innerJoin(suppressionLists, eq(suppressionLists.id, suppressionChecks.listId))
      .where(
        and(
          eq(suppressionChecks.subjectId, started.orderId),
          isNotNull(suppressionLists.ownerUserId),
          ne(suppressionLists.ownerUserId, buyer.user.id),
        ),
      );
    expect(others?.n).toBe(0);
  });

  it("a routed transfer records the lists it was checked against; a refused ping records nothing", async () => {
    await clearTransfers();
    const partner = await createPartner();
    const order = await createOpenOrder();
    const routed = await ping(partner.auth, freshPhone());
    const { transferId } = await routed.json<{ transferId: string }>();
    const results = await testDb()
      .select({ listKind: suppressionChecks.listKind })
      .from(suppressionChecks)
      .where(and(eq(suppressionChecks.subjectType, "transfer"), eq(suppressionChecks.subjectId, transferId)));
    expect(results.map((row) => row.listKind)).toContain("internal_dnc");
    expect(order.id).toBeTruthy();
  });
});

describe("a number suppressed after purchase is flagged", () => {
  it("in My Leads: 'added to Do Not Call on' the day it was", async () => {
    const buyer = await signedIn();
    const phone = freshPhone();
    const [id, clean] = await insertLeads(uniqueState(), [phone, freshPhone()]);
    const started = await (await buyLeads(buyer.cookie, [id ?? "", clean ?? ""])).json<{ clientSecret: string }>();
    await payWithCard(started.clientSecret);
    const before = await (await callApi("/api/my-leads", { cookie: buyer.cookie })).json<{
      items: { id: string; suppressedOn: string | null }[];
    }>();
    expect(before.items.every((lead) => lead.suppressedOn === null)).toBe(true);

    await requestDoNotCall(phone);
    const after = await (await callApi("/api/my-leads", { cookie: buyer.cookie })).json<{
      items: { id: string; suppressedOn: string | null }[];
    }>();
    expect(after.items.find((lead) => lead.id === id)?.suppressedOn).toBe(today());
    expect(after.items.find((lead) => lead.id === clean)?.suppressedOn).toBeNull();
  });

  it("in the Lead Tracker, for a delivered caller", async () => {
    await clearTransfers();
    const partner = await createPartner();
    const buyer = await signedIn();
    await createOpenOrder({ buyerId: buyer.user.id });
    const phone = freshPhone();
    const { transferId } = await (await ping(partner.auth, phone)).json<{ transferId: string }>();
    await callApi(`/api/v1/transfers/${transferId}/events`, { headers: partner.auth, json: { type: "connected" } });
    await requestDoNotCall(phone);
    const page = await (await callApi("/api/tracker/transfers", { cookie: buyer.cookie })).json<{
      items: { id: string; suppressedOn: string | null }[];
    }>();
    expect(page.items.find((item) => item.id === transferId)?.suppressedOn).toBe(today());
  });
});
