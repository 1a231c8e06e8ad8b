/**
 * Revocations (docs/decisions/0082): a number sold in the last 5 years that becomes new on a shared Do Not
 * Call list (a list upload's batch, a /do-not-call request) is written down once per (item, list) in the
 * transaction that lists it; the minute cron records one signed `lead.suppressed` webhook per buyer and
 * item through the outbox; the daily digest e-mails each buyer once. A buyer's private list tells nobody.
 */

import { env } from "cloudflare:workers";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { phoneKey } from "../../../../src/features/do-not-call/suppression";
import { webhookEventIdFor } from "../../../../src/features/webhook-outbox/events";
import { webhookEventSchema } from "../../../../src/features/webhooks/schemas/webhooks";
import {
  createAgedLeadOrder,
  createCallback,
  createCallbackOrder,
  createLead,
  createTransfer,
  testDb,
} from "../../../../tests/worker/factories";
import { uniquePhone } from "../../../../tests/worker/factories/db";
import { latestMailTo, signedIn } from "../../../../tests/worker/helpers";
import { requestDoNotCall, uploadList } from "../../../../tests/worker/suppression-fixtures";
import { addEndpoint, eventsOf, fakeNetwork, fakeQueue, runQueue } from "../../../../tests/worker/webhook-fixtures";
import { outbox, suppressionLists, suppressionRevocations } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { recordRevocationEvents, revocationsSql, sendRevocationDigests } from "../revocations";

const DAY = 86_400_000;
const YEAR = 365 * DAY;

interface RevocationRow {
  user_id: string;
  item_type: string;
  item_id: string;
  list_kind: string;
  phone: string;
}

async function revocationsOf(userId: string): Promise<RevocationRow[]> {
  const rows = await testDb()
    .select({
      user_id: suppressionRevocations.userId,
      item_type: suppressionRevocations.itemType,
      item_id: suppressionRevocations.itemId,
      list_kind: suppressionRevocations.listKind,
      phone: suppressionRevocations.phone,
    })
    .from(suppressionRevocations)
    .where(eq(suppressionRevocations.userId, userId))
    .orderBy(asc(suppressionRevocations.itemType), asc(suppressionRevocations.itemId));
  return rows;
}

/** A lead `userId` bought `ago` ms ago, on a fresh phone (or `overrides`). */
async function soldLead(userId: string, ago = DAY, overrides: Parameters<typeof createLead>[1] = {}) {
  const db = testDb();
  const order = await createAgedLeadOrder(db, { userId });
  return createLead(db, {
    soldToUserId: userId,
    soldOrderId: order.id,
    soldAt: new Date(Date.now() - ago),
    ...overrides,
  });
}

/** A call-back delivered to `userId` a day ago. */
async function deliveredCallback(userId: string) {
  const db = testDb();
  const order = await createCallbackOrder(db, { userId });
  return createCallback(db, { buyerUserId: userId, orderId: order.id, deliveredAt: new Date(Date.now() - DAY) });
}

describe("a shared list's new numbers revoke what was sold with them", () => {
  it("records one revocation per buyer and sold item (a lead, a billed transfer, a delivered call-back), once", async () => {
    const { cookie: admin } = await signedIn({ isAdmin: true });
    const ann = await signedIn();
    const bob = await signedIn();
    const lead = await soldLead(ann.user.id);
    const transfer = await createTransfer(testDb(), { buyerUserId: bob.user.id });
    const callback = await deliveredCallback(ann.user.id);
    // Not told: a lead sold 6 years ago, a transfer not billed, a lead returned, an unsold lead.
    const old = await soldLead(ann.user.id, 6 * YEAR);
    const notBilled = await createTransfer(testDb(), { buyerUserId: bob.user.id, billable: false });
    const returned = await soldLead(ann.user.id, DAY, { returnedAt: new Date() });
    const unsold = await createLead(testDb());
    const numbers = [lead, transfer, callback, old, notBilled, returned, unsold].map((item) =>
      Number(phoneKey(item.phone)),
    );

    // The lead's number twice in the file.
    const upload = await uploadList({
      cookie: admin,
      kind: "litigator",
      add: [...numbers, numbers[0] ?? 0],
    });
    expect(upload.status).toBe("done");
    expect(await revocationsOf(ann.user.id)).toEqual([
      {
        user_id: ann.user.id,
        item_type: "callback",
        item_id: callback.id,
        list_kind: "litigator",
        phone: callback.phone,
      },
      { user_id: ann.user.id, item_type: "lead", item_id: lead.id, list_kind: "litigator", phone: lead.phone },
    ]);
    expect(await revocationsOf(bob.user.id)).toEqual([
      {
        user_id: bob.user.id,
        item_type: "transfer",
        item_id: transfer.id,
        list_kind: "litigator",
        phone: transfer.phone,
      },
    ]);

    // The same numbers sent to the list again: already on it, so nothing new.
    await uploadList({ cookie: admin, listId: upload.listId, contents: "additions", add: numbers });
    expect(await revocationsOf(ann.user.id)).toHaveLength(2);
    expect(await revocationsOf(bob.user.id)).toHaveLength(1);
  });

  it("a /do-not-call request revokes once; a second request for the number records nothing", async () => {
    const ann = await signedIn();
    const lead = await soldLead(ann.user.id);
    expect((await requestDoNotCall(lead.phone)).status).toBe(200);
    expect((await requestDoNotCall(lead.phone)).status).toBe(200);
    expect(await revocationsOf(ann.user.id)).toEqual([
      { user_id: ann.user.id, item_type: "lead", item_id: lead.id, list_kind: "internal_dnc", phone: lead.phone },
    ]);
  });

  it("a buyer's private list revokes nothing (the buyer uploaded it)", async () => {
    const ann = await signedIn();
    const lead = await soldLead(ann.user.id);
    await uploadList({ cookie: ann.cookie, as: "buyer", add: [Number(phoneKey(lead.phone))] });
    expect(await revocationsOf(ann.user.id)).toEqual([]);
  });

  it("a batch of 2,000 numbers finds the few sold among them, in the one transaction that lists them", async () => {
    const { cookie: admin } = await signedIn({ isAdmin: true });
    const ann = await signedIn();
    const sold = await Promise.all(Array.from({ length: 10 }, () => soldLead(ann.user.id)));
    const soldKeys = sold.map((lead) => Number(phoneKey(lead.phone)));
    const filler = Array.from({ length: 1990 }, (_, i) => 3_125_550_000 + i);
    const upload = await uploadList({ cookie: admin, kind: "litigator", add: [...filler, ...soldKeys].sort() });
    expect(upload.status).toBe("done");
    const rows = await revocationsOf(ann.user.id);
    expect(rows.map((row) => row.item_id).sort()).toEqual(sold.map((lead) => lead.id).sort());
    expect(new Set(rows.map((row) => row.list_kind))).toEqual(new Set(["litigator"]));
  });

  it("finds a batch's sold items by index, never by scanning a table", async () => {
    for (const list of [{ id: 1 }, "internal"] as const) {
      // raw SQL: the query plan itself is under test
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${revocationsSql(list)}`)
        .bind(JSON.stringify([2145550100]), Date.now(), Date.now() - 5 * YEAR)
        .all<{ detail: string }>();
      const details = results.map((row) => row.detail);
      expect(details.some((d) => /SEARCH a USING INDEX aged_leads_phone_key_idx \(phone_key=\?\)/.test(d))).toBe(true);
      expect(
        details.some((d) => /SEARCH t USING INDEX transfers_phone_routed_idx \(phone=\? AND routed_at>\?\)/.test(d)),
      ).toBe(true);
      expect(
        details.some((d) =>
          /SEARCH c USING INDEX callback_opportunities_phone_delivered_idx \(phone_key=\? AND delivered_at>\?\)/.test(
            d,
          ),
        ),
      ).toBe(true);
      expect(details.filter((d) => /^SCAN (a|t|c|aged_leads|transfers|callback_opportunities)\b/.test(d))).toEqual([]);
    }
  });
});

describe("the buyer is told", () => {
  it("by one signed lead.suppressed webhook per item, recorded by the minute cron and delivered by the outbox", async () => {
    const ann = await signedIn();
    const endpoint = await addEndpoint(ann.cookie, { events: ["lead.suppressed"] });
    const lead = await soldLead(ann.user.id);
    await requestDoNotCall(lead.phone);
    const queue = fakeQueue();
    const at = Date.now();
    expect(await recordRevocationEvents(createDeps(queue.env, at))).toBeGreaterThanOrEqual(1);
    // A second run finds nothing left to tell.
    expect(await recordRevocationEvents(createDeps(queue.env, at + 60_000))).toBe(0);

    const events = (await eventsOf(ann.user.id)).filter((event) => event.type === "lead.suppressed");
    const [internal] = await testDb()
      .select({ id: suppressionLists.id })
      .from(suppressionLists)
      .where(eq(suppressionLists.kind, "internal_dnc"));
    expect(events.map((event) => event.id)).toEqual([
      await webhookEventIdFor("lead.suppressed", "lead", lead.id, String(internal?.id)),
    ]);
    expect(queue.sent.map((message) => message.endpointId)).toEqual([endpoint.id]);

    const network = fakeNetwork();
    await runQueue(queue, network, { from: at });
    expect(network.received).toHaveLength(1);
    const [request] = network.received;
    expect(request?.headers.get("Webhook-Signature")).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const event = webhookEventSchema.parse(JSON.parse(request?.body ?? "{}"));
    expect(event).toMatchObject({
      type: "lead.suppressed",
      data: {
        item: { type: "lead", id: lead.id },
        phone: `(${lead.phone.slice(0, 3)}) ***-****`,
        list: { kind: "internal_dnc" },
      },
    });
  });

  it("all of them within one minute's run, however many: 1,200 revocations, three rounds, each told once", async () => {
    const ann = await signedIn();
    await addEndpoint(ann.cookie, { events: ["lead.suppressed"] });
    const internal = await env.DB.prepare("SELECT id FROM suppression_lists WHERE kind = 'internal_dnc'").first<{
      id: number;
    }>();
    const at = Date.now();
    const rows = Array.from({ length: 1_200 }, (_, i) => ({
      id: `bulk-revocation-${i}`,
      userId: ann.user.id,
      itemType: "lead" as const,
      itemId: `bulk-lead-${i}`,
      phone: uniquePhone(),
      listId: internal?.id ?? 0,
      listKind: "internal_dnc" as const,
      soldAt: new Date(at - DAY),
      // Four listing times, so the rows fall into several buyers' groups as a long upload's batches do.
      createdAt: new Date(at - (i % 4) * 1_000),
    }));
    const db = testDb();
    // Nine rows per statement: D1 binds at most 100 values.
    for (let start = 0; start < rows.length; start += 9) {
      await db.insert(suppressionRevocations).values(rows.slice(start, start + 9));
    }
    const queue = fakeQueue();
    expect(await recordRevocationEvents(createDeps(queue.env, at))).toBe(1_200);
    expect(await recordRevocationEvents(createDeps(queue.env, at + 60_000))).toBe(0);
    const events = (await eventsOf(ann.user.id)).filter((event) => event.type === "lead.suppressed");
    expect(events).toHaveLength(1_200);
    expect(new Set(events.map((event) => event.id)).size).toBe(1_200);
    expect(queue.sent).toHaveLength(1_200);
  });

  it("by one digest e-mail a day listing that day's revocations, masked, sent once", async () => {
    const ann = await signedIn();
    const phone = uniquePhone();
    const lead = await soldLead(ann.user.id, DAY, { phone });
    const callback = await deliveredCallback(ann.user.id);
    await requestDoNotCall(lead.phone);
    await requestDoNotCall(callback.phone);
    const tomorrow = Date.now() + DAY;
    expect(await sendRevocationDigests(createDeps(env, tomorrow))).toBeGreaterThanOrEqual(1);
    const mail = await latestMailTo(ann.user.email);
    const day = new Date().toISOString().slice(0, 10);
    expect(mail?.subject).toBe(`Numbers you bought added to Do Not Call on ${day}`);
    expect(mail?.text).toContain("2 numbers you bought reached a Do Not Call list");
    expect(mail?.text).toContain(
      `Lead ${lead.id.slice(0, 8)}, (${phone.slice(0, 3)}) ***-****: Do Not Call requests to us`,
    );
    expect(mail?.text).toContain(`Call-back ${callback.id.slice(0, 8)}`);
    expect(mail?.text).not.toContain(phone);
    // Sent once: the next run finds the day's revocations claimed.
    const mails = () => testDb().$count(outbox, eq(outbox.to, ann.user.email));
    const sent = await mails();
    await sendRevocationDigests(createDeps(env, tomorrow + 5 * 60_000));
    expect(await mails()).toBe(sent);
  });
});
