/**
 * Suppression lists uploaded through the import pipeline (R2 + Queue), each with a name,
 * kind and refreshed-on day; a full file replaces the list, additions and deletions change it; a list
 * older than 31 days is flagged; a buyer's private list is theirs alone; bad batches change nothing.
 */

import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SUPPRESSION_BATCH_MESSAGES } from "../../../../src/features/do-not-call/schemas/suppression";
import { dayNumber } from "../../../../src/features/do-not-call/suppression";
import { type D1Usage, watchD1 } from "../../../../tests/worker/d1-usage";
import { testDb } from "../../../../tests/worker/factories";
import {
  bulkRow,
  callApi,
  deliverToQueue,
  expectAdminOnly,
  expectSignedInOnly,
  signedIn,
} from "../../../../tests/worker/helpers";
import {
  daysAgo,
  emptyReport,
  freshPhone,
  insertLeads,
  marketplace,
  sharedLists,
  today,
  uniqueState,
  uploadList,
  uploadStatus,
} from "../../../../tests/worker/suppression-fixtures";
import worker from "../../../app";
import { suppressionNumbers } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { resendStalledSuppression } from "../suppression-resend";

const numbers = (count: number) => Array.from({ length: count }, () => Number(freshPhone()));

async function listNumbers(listId: number) {
  const rows = await testDb()
    .select({ number: suppressionNumbers.number, addedOn: suppressionNumbers.addedOn })
    .from(suppressionNumbers)
    .where(eq(suppressionNumbers.listId, listId))
    .orderBy(asc(suppressionNumbers.number));
  return rows.map(({ number, addedOn }) => ({ number, added_on: addedOn }));
}

describe("who may upload", () => {
  it("shared lists are for admins only; a buyer's own list needs a session", async () => {
    await expectAdminOnly("/api/admin/suppression-lists");
    await expectAdminOnly("/api/admin/suppression-uploads", { json: {} });
    await expectAdminOnly("/api/admin/suppression-uploads/1");
    await expectAdminOnly("/api/admin/suppression-uploads/1/batches", { json: {} });
    await expectSignedInOnly("/api/my-suppression-list");
    await expectSignedInOnly("/api/my-suppression-uploads", { json: {} });
  });

  it("an admin never reaches a buyer's upload, nor a buyer an admin's or another buyer's", async () => {
    const { cookie: admin } = await signedIn({ isAdmin: true });
    const buyer = await signedIn();
    const stranger = await signedIn();
    const shared = await uploadList({ cookie: admin, add: numbers(2) });
    const own = await uploadList({ cookie: buyer.cookie, as: "buyer", name: "Mine", add: numbers(2) });
    expect((await callApi(`/api/admin/suppression-uploads/${own.id}`, { cookie: admin })).status).toBe(404);
    expect((await callApi(`/api/my-suppression-uploads/${shared.id}`, { cookie: buyer.cookie })).status).toBe(404);
    expect((await callApi(`/api/my-suppression-uploads/${own.id}`, { cookie: stranger.cookie })).status).toBe(404);
    const batch = await callApi(`/api/my-suppression-uploads/${shared.id}/batches`, {
      cookie: buyer.cookie,
      json: { batchNumber: 9, add: numbers(1), remove: [] },
    });
    expect(batch.status).toBe(404);
    // The admin's list of lists shows shared lists only.
    expect((await sharedLists(admin)).some((list) => list.id === own.listId)).toBe(false);
  });
});

describe("an upload through the Queue", () => {
  it("stores every number once, keyed by number, and reports what the file added", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    // Three batches as the browser cuts them (10,000 numbers each, the last the rest): a batch number is
    // bounded by the file's declared size (docs/decisions/0051), so smaller batches would not do.
    const first = 4_900_000_000 + (Date.now() % 1000) * 100_000; // area codes 49x: freshPhone's stop at 40x
    const file = Array.from({ length: 20_005 }, (_, i) => first + i);
    const upload = await uploadList({ cookie, kind: "litigator", name: "Registry 305", add: file });
    expect(upload).toMatchObject({
      status: "done",
      batchesExpected: 3,
      batchesDone: 3,
      numbersReceived: 20_005,
      numbersAdded: 20_005,
      numbersUnchanged: 0,
      refreshedOn: today(),
      fileReport: expect.objectContaining({ accepted: 20_005 }),
    });
    const stored = await listNumbers(upload.listId);
    expect(stored.map((row) => row.number)).toEqual([...file].sort((a, b) => a - b));
    expect(new Set(stored.map((row) => row.added_on))).toEqual(new Set([dayNumber(Date.now())]));
    const list = (await sharedLists(cookie)).find((row) => row.id === upload.listId);
    expect(list).toMatchObject({
      kind: "litigator",
      name: "Registry 305",
      numbers: 20_005,
      refreshedOn: today(),
      stale: false,
    });
  });

  it("a batch sent twice and a message delivered twice are applied once", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const add = numbers(3);
    const start = await callApi("/api/admin/suppression-uploads", {
      cookie,
      json: {
        kind: "litigator",
        name: "Twice",
        contents: "additions",
        refreshedOn: today(),
        fileName: "l.txt",
        report: emptyReport(3),
      },
    });
    const { uploadId, listId } = await start.json<{ uploadId: number; listId: number }>();
    for (let i = 0; i < 2; i++) {
      const sent = await callApi(`/api/admin/suppression-uploads/${uploadId}/batches`, {
        cookie,
        json: { batchNumber: 1, add, remove: [] },
      });
      expect(sent.status).toBe(200);
    }
    const message = { kind: "suppression-batch", uploadId, batchNumber: 1 };
    // Before the finish a message changes nothing (docs/decisions/0051); after it, the batch applies once.
    await deliverToQueue([message]);
    expect((await sharedLists(cookie)).find((list) => list.id === listId)?.numbers).toBe(0);
    await callApi(`/api/admin/suppression-uploads/${uploadId}/finish`, { cookie, json: { batches: 1 } });
    await deliverToQueue([message]);
    await deliverToQueue([message, message]);
    await deliverToQueue([{ kind: "suppression-finish", uploadId }]);
    expect(await uploadStatus(cookie, uploadId)).toMatchObject({ status: "done", numbersReceived: 3, numbersAdded: 3 });
    expect((await sharedLists(cookie)).find((list) => list.id === listId)?.numbers).toBe(3);
  });

  it("a full file replaces the list: numbers it no longer holds leave (their leads sellable), the rest keep their day", async () => {
    const { cookie: admin } = await signedIn({ isAdmin: true });
    const { cookie } = await signedIn();
    const state = uniqueState();
    const [kept, dropped] = [freshPhone(), freshPhone()];
    const [keptLead, droppedLead] = await insertLeads(state, [kept, dropped]);
    const first = await uploadList({ cookie: admin, kind: "litigator", add: [Number(kept), Number(dropped)] });
    for (const { number, added_on } of await listNumbers(first.listId)) {
      await testDb()
        .update(suppressionNumbers)
        .set({ addedOn: added_on - 40 })
        .where(and(eq(suppressionNumbers.listId, first.listId), eq(suppressionNumbers.number, number)));
    }
    expect((await marketplace(cookie, state)).total).toBe(0);

    const added = Number(freshPhone());
    const second = await uploadList({
      cookie: admin,
      listId: first.listId,
      add: [Number(kept), added],
      refreshedOn: today(),
    });
    expect(second).toMatchObject({ status: "done", numbersAdded: 1, numbersUnchanged: 1, numbersRemoved: 1 });
    const stored = await listNumbers(first.listId);
    expect(stored.map((row) => row.number)).toEqual([Number(kept), added].sort((a, b) => a - b));
    expect(stored.find((row) => row.number === Number(kept))?.added_on).toBe(dayNumber(Date.now()) - 40);
    expect((await marketplace(cookie, state)).ids).toEqual([droppedLead]);
    expect(keptLead).toBeTruthy();
    expect((await sharedLists(admin)).find((list) => list.id === first.listId)?.numbers).toBe(2);
  });

  it("a change list adds the A lines and removes the D lines", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const [a, b, c] = numbers(3) as [number, number, number];
    const first = await uploadList({ cookie, kind: "litigator", add: [a, b] });
    await uploadList({ cookie, listId: first.listId, contents: "changes", add: [c], remove: [a] });
    expect((await listNumbers(first.listId)).map((row) => row.number)).toEqual([b, c].sort((x, y) => x - y));
  });
});

describe("freshness: sellers re-scrub at least every 31 days", () => {
  it("flags a list refreshed more than 31 days ago, and not one refreshed 31 days ago", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const old = await uploadList({
      cookie,
      kind: "litigator",
      name: "Old copy",
      add: numbers(1),
      refreshedOn: daysAgo(32),
    });
    const fresh = await uploadList({
      cookie,
      kind: "litigator",
      name: "Fresh copy",
      add: numbers(1),
      refreshedOn: daysAgo(31),
    });
    const lists = await sharedLists(cookie);
    expect(lists.find((list) => list.id === old.listId)).toMatchObject({ stale: true, refreshedOn: daysAgo(32) });
    expect(lists.find((list) => list.id === fresh.listId)).toMatchObject({ stale: false });
    // The shop's own list is live: never stale.
    expect(lists.find((list) => list.kind === "internal_dnc")).toMatchObject({ stale: false });
  });
});

describe("bad input changes nothing", () => {
  async function started(cookie: string) {
    const start = await callApi("/api/admin/suppression-uploads", {
      cookie,
      json: {
        kind: "litigator",
        name: "Bad",
        contents: "full",
        refreshedOn: today(),
        fileName: "b.txt",
        report: emptyReport(1),
      },
    });
    return start.json<{ uploadId: number; listId: number }>();
  }

  it.each([
    ["a number that is no US phone", { add: [1_234_567_890] }, SUPPRESSION_BATCH_MESSAGES.number],
    ["a number as text with a formula", { add: ["=SUM(A1)"] }, SUPPRESSION_BATCH_MESSAGES.number],
    ["an empty batch", { add: [] }, SUPPRESSION_BATCH_MESSAGES.size],
    [
      "more than 10,000 numbers",
      { add: Array.from({ length: 10_001 }, (_, i) => 3_055_550_000 + i) },
      SUPPRESSION_BATCH_MESSAGES.size,
    ],
  ])("refuses %s with a message", async (_, batch, message) => {
    const { cookie } = await signedIn({ isAdmin: true });
    const { uploadId, listId } = await started(cookie);
    const response = await callApi(`/api/admin/suppression-uploads/${uploadId}/batches`, {
      cookie,
      json: { batchNumber: 1, remove: [], ...batch },
    });
    expect(response.status).toBe(400);
    expect((await response.json<{ message: string }>()).message).toBe(message);
    expect(await listNumbers(listId)).toEqual([]);
    expect(await uploadStatus(cookie, uploadId)).toMatchObject({ batchesReceived: 0, numbersReceived: 0 });
  });

  it("refuses to finish while batches are missing, and a start without a valid refreshed-on day", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const { uploadId } = await started(cookie);
    const finish = await callApi(`/api/admin/suppression-uploads/${uploadId}/finish`, { cookie, json: { batches: 2 } });
    expect(finish.status).toBe(400);
    expect((await finish.json<{ message: string }>()).message).toContain("0 of the file's 2 batches");
    const future = await callApi("/api/admin/suppression-uploads", {
      cookie,
      json: {
        kind: "litigator",
        name: "X",
        contents: "full",
        refreshedOn: "2999-01-01",
        fileName: "x.txt",
        report: emptyReport(1),
      },
    });
    expect(future.status).toBe(400);
  });
});

describe("a buyer's own list (My Account)", () => {
  it("is made on the first upload, named, and read back with its last upload", async () => {
    const buyer = await signedIn();
    expect(await (await callApi("/api/my-suppression-list", { cookie: buyer.cookie })).json()).toEqual({ list: null });
    await uploadList({ cookie: buyer.cookie, as: "buyer", name: "Customers", add: numbers(4) });
    const { list } = await (await callApi("/api/my-suppression-list", { cookie: buyer.cookie })).json<{
      list: { kind: string; name: string; numbers: number; lastUpload: { status: string } };
    }>();
    expect(list).toMatchObject({
      kind: "buyer_private",
      name: "Customers",
      numbers: 4,
      lastUpload: { status: "done" },
    });
  });
});

describe("nothing of an upload is lost on a crash", () => {
  it("a batch whose Queue message was lost is sent again by the cron, and the upload finishes", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const sent: unknown[] = [];
    const losing = {
      send: async (body: unknown) => void sent.push(body),
      sendBatch: async (messages: { body: unknown }[]) => void sent.push(...messages.map((m) => m.body)),
    };
    const add = numbers(3);
    const start = await callApi("/api/admin/suppression-uploads", {
      cookie,
      json: {
        kind: "litigator",
        name: "Crash",
        contents: "full",
        refreshedOn: today(),
        fileName: "c.txt",
        report: emptyReport(3),
      },
    });
    const { uploadId, listId } = await start.json<{ uploadId: number; listId: number }>();
    const batch = await callApi(`/api/admin/suppression-uploads/${uploadId}/batches`, {
      cookie,
      json: { batchNumber: 1, add, remove: [] },
      env: { IMPORT_QUEUE: losing },
    });
    expect(batch.status).toBe(200);
    // A batch waits for the finish (docs/decisions/0051): nothing is sent, and nothing sent again before it.
    expect(sent).toEqual([]);
    const beforeFinish = createDeps({ ...env, IMPORT_QUEUE: losing as unknown as Queue }, Date.now() + 4 * 60_000);
    expect(await resendStalledSuppression(beforeFinish)).toBe(0);
    const finish = await callApi(`/api/admin/suppression-uploads/${uploadId}/finish`, {
      cookie,
      json: { batches: 1 },
      env: { IMPORT_QUEUE: losing },
    });
    expect(finish.status).toBe(200);
    sent.length = 0; // the crash: the finish's message never arrives

    // Too early: a batch queued a moment ago may still be on its way.
    const early = createDeps({ ...env, IMPORT_QUEUE: losing as unknown as Queue });
    expect(await resendStalledSuppression(early)).toBe(0);
    const later = createDeps({ ...env, IMPORT_QUEUE: losing as unknown as Queue }, Date.now() + 4 * 60_000);
    expect(await resendStalledSuppression(later)).toBe(1);
    expect(sent).toEqual([{ kind: "suppression-batch", uploadId, batchNumber: 1 }]);
    await deliverToQueue(sent);
    await deliverToQueue([{ kind: "suppression-finish", uploadId }]);
    expect(await uploadStatus(cookie, uploadId)).toMatchObject({ status: "done", numbersAdded: 3 });
    expect((await listNumbers(listId)).length).toBe(3);
  });

  it("the cron, an upload's end and an import's last batch run PRAGMA optimize (bulk changes)", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const optimized = (usage: D1Usage) =>
      usage.statements.filter((statement) => statement.sql === "PRAGMA optimize").length;

    const cron = watchD1(env.DB);
    const ctx = createExecutionContext();
    await worker.scheduled?.(
      createScheduledController({ cron: "*/5 * * * *", scheduledTime: Date.now() }),
      { ...env, DB: cron.db },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(optimized(cron.usage)).toBe(1);

    const start = await callApi("/api/admin/suppression-uploads", {
      cookie,
      json: {
        kind: "litigator",
        name: "Optimized",
        contents: "full",
        refreshedOn: today(),
        fileName: "o.txt",
        report: emptyReport(2),
      },
    });
    const { uploadId } = await start.json<{ uploadId: number }>();
    await callApi(`/api/admin/suppression-uploads/${uploadId}/batches`, {
      cookie,
      json: { batchNumber: 1, add: numbers(2), remove: [] },
    });
    await callApi(`/api/admin/suppression-uploads/${uploadId}/finish`, { cookie, json: { batches: 1 } });
    await deliverToQueue([{ kind: "suppression-batch", uploadId, batchNumber: 1 }]);
    const finish = watchD1(env.DB);
    await deliverToQueue([{ kind: "suppression-finish", uploadId }], {
      env: { ...env, DB: finish.db } as Cloudflare.Env,
    });
    expect(optimized(finish.usage)).toBe(1);

    const upload = await callApi("/api/bulk-upload-aged-leads", {
      cookie,
      json: { batchNumber: 1, leads: [bulkRow(freshPhone())] },
    });
    const { importId } = await upload.json<{ importId: string }>();
    const consumer = watchD1(env.DB);
    await deliverToQueue([{ kind: "import-batch", importId, batchNumber: 1 }], {
      env: { ...env, DB: consumer.db } as Cloudflare.Env,
    });
    expect(optimized(consumer.usage)).toBe(1);
  });
});
