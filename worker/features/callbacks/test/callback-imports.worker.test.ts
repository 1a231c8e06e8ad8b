/**
 * Call-backs and appointments by CSV (docs/decisions/0069): a `callbacks` import goes through the import
 * pipeline (R2 batch, Queue, progress, report), and each row through the call-back service's rules: taken
 * in and placed in a fitting paid order (or left waiting), or rejected with its reason in the report.
 */
import { env } from "cloudflare:workers";
import { asc, eq } from "drizzle-orm";
import Papa from "papaparse";
import { beforeEach, describe, expect, it } from "vitest";
import { localTime } from "../../../../src/domain/time-zones";
import type { ImportStatus } from "../../../../src/features/aged-leads/schemas/admin-leads";
import {
  CALLBACK_IMPORT_BATCH_SIZE,
  mapCallbackHeaders,
} from "../../../../src/features/callbacks/schemas/callback-import";
import { paidCallbackOrder } from "../../../../tests/worker/callback-fixtures";
import { brokenD1Limits, watchD1 } from "../../../../tests/worker/d1-usage";
import { closePaidCallbackOrders, testDb } from "../../../../tests/worker/factories";
import { callApi, createUser, deliverToQueue, signedIn } from "../../../../tests/worker/helpers";
import { newPhone } from "../../../../tests/worker/transfer-fixtures";
import { D1_LIMITS } from "../../../db/limits";
import { callbackOpportunities, importBatches } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { resendStalledBatches } from "../../aged-leads/import-sweep";
import { type ImportBatchMessage, STALLED_BATCH_MS } from "../../aged-leads/imports";
import { MAX_QUERIES_PER_CALLBACK_MESSAGE } from "../callback-imports";

const DAY = 86_400_000;
const dayIn = (days: number, zone = "America/Chicago") => localTime(Date.now() + days * DAY, zone).day;

/** One CSV row as the upload screen sends it: a good TX call-back tomorrow, `overrides` aside. */
function row(rowNumber: number, overrides: Record<string, unknown> = {}) {
  return {
    rowNumber,
    name: "Ruth Miller",
    email: "ruth@example.com",
    phone: newPhone(),
    state: "TX",
    price: "12.50",
    zip: "",
    kind: "callback",
    date: dayIn(1),
    from: "09:00",
    to: "11:00",
    timeZone: "",
    optInAt: new Date(Date.now() - 3_600_000).toISOString(),
    optInUrl: "https://example.com/quote",
    ...overrides,
  };
}

async function upload(cookie: string, body: Record<string, unknown>) {
  return callApi("/api/bulk-upload-aged-leads", { json: { kind: "callbacks", ...body }, cookie });
}

async function status(importId: string, cookie: string) {
  return (await callApi(`/api/imports/${importId}`, { cookie })).json<ImportStatus>();
}

const imported = (importId: string) =>
  testDb()
    .select({
      id: callbackOpportunities.id,
      name: callbackOpportunities.name,
      phone: callbackOpportunities.phone,
      source: callbackOpportunities.source,
      orderId: callbackOpportunities.orderId,
      timeZone: callbackOpportunities.timeZone,
      kind: callbackOpportunities.kind,
      priceCents: callbackOpportunities.priceCents,
      createdBy: callbackOpportunities.createdBy,
    })
    .from(callbackOpportunities)
    .where(eq(callbackOpportunities.importId, importId))
    .orderBy(asc(callbackOpportunities.name));

describe("a CSV of call-backs and appointments (decision 0069)", () => {
  beforeEach(async () => {
    // No open call-back order and no waiting call-back from another test.
    const db = testDb();
    await db.delete(callbackOpportunities);
    await closePaidCallbackOrders(db);
  });

  it("takes the good rows in (placed, or waiting when the order is full) and reports each bad row with its reason", async () => {
    const { cookie, user } = await signedIn({ isAdmin: true });
    const buyer = await createUser();
    const orderId = await paidCallbackOrder(buyer.id, 1);
    const listed = newPhone();
    expect((await callApi("/api/do-not-call", { json: { phone: listed } })).status).toBeLessThan(300);
    const rows = [
      row(2, { name: "A placed" }),
      row(3, { name: "B waiting" }),
      row(4, { date: dayIn(-2) }),
      row(5, { from: "15:00", to: "10:00" }),
      row(6, { timeZone: "Europe/Paris" }),
      row(7, { phone: "555-12" }),
      row(8, { phone: listed }),
      row(9, { optInAt: "" }),
      row(10, {
        name: "C appointment",
        kind: "appointment",
        to: "",
        from: "14:30",
        zip: "80202",
        date: dayIn(2, "America/Denver"),
      }),
    ];
    const response = await upload(cookie, { batchNumber: 1, fileName: "callbacks.csv", leads: rows });
    expect(response.status).toBe(200);
    const { importId } = await response.json<{ importId: string }>();
    expect((await status(importId, cookie)).done).toBe(false);
    await deliverToQueue([{ kind: "import-batch", importId, batchNumber: 1, callbacks: true }]);

    const done = await status(importId, cookie);
    expect(done).toMatchObject({
      kind: "callbacks",
      rowsReceived: 9,
      rowsInserted: 3,
      rowsPlaced: 1,
      rowsRejected: 6,
      rowsDuplicate: 0,
      done: true,
    });
    const reasons = Object.fromEntries(done.rejections.map((r) => [r.rowNumber, r.reason]));
    expect(Object.keys(reasons).map(Number)).toEqual([4, 5, 6, 7, 8, 9]);
    expect(reasons[4]).toContain("The window has already passed");
    expect(reasons[5]).toContain("To must be a time after From");
    expect(reasons[6]).toContain("Time zone must be one of");
    expect(reasons[7]).toContain("Phone number");
    expect(reasons[8]).toContain("Do Not Call list");
    expect(reasons[9]).toContain("Opt-in time is required");

    const taken = await imported(importId);
    expect(taken).toMatchObject([
      { name: "A placed", source: "import", orderId, timeZone: "America/Chicago", priceCents: 1250 },
      { name: "B waiting", orderId: null },
      // The ZIP's zone (Denver), though Texas's main zone is Chicago's.
      { name: "C appointment", kind: "appointment", orderId: null, timeZone: "America/Denver" },
    ]);
    for (const callback of taken) expect(callback.createdBy).toBe(user.id);

    const report = Papa.parse<string[]>(
      await (await callApi(`/api/imports/${importId}/report.csv`, { cookie })).text(),
      { skipEmptyLines: true },
    ).data;
    expect(report.filter((line) => line[1] === "rejected").map((line) => line[0])).toEqual([
      "4",
      "5",
      "6",
      "7",
      "8",
      "9",
    ]);
    expect(report).toContainEqual(["Of which placed in an order", "1"]);
    expect(report).toContainEqual(["Of which waiting for an order", "2"]);
  });

  it("takes each row once when a batch is delivered twice, or again after a crash half-way", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const buyer = await createUser();
    await paidCallbackOrder(buyer.id, 5);
    const rows = [row(2), row(3), row(4, { date: dayIn(-3) }), row(5, { optInAt: "" }), row(6)];
    const { importId } = await (await upload(cookie, { batchNumber: 1, leads: rows })).json<{ importId: string }>();
    const key = `imports/${importId}/1.json`;
    const stored = await (await env.DOCUMENTS.get(key))?.text();
    expect(stored).toBeTruthy();
    const message = { kind: "import-batch", importId, batchNumber: 1, callbacks: true };
    await deliverToQueue([message, message]);
    await deliverToQueue([message]);
    const once = await status(importId, cookie);
    expect(once).toMatchObject({ rowsReceived: 5, rowsInserted: 3, rowsPlaced: 3, rowsRejected: 2, done: true });

    // A crash after the rows were taken but before the batch was marked done: its message comes again,
    // after a taken row's number went on a Do Not Call list. The row stays taken, and is not also rejected.
    expect((await callApi("/api/do-not-call", { json: { phone: rows[0]?.phone } })).status).toBeLessThan(300);
    await env.DOCUMENTS.put(key, stored ?? "");
    await testDb().update(importBatches).set({ status: "queued" }).where(eq(importBatches.importId, importId));
    await deliverToQueue([message]);
    expect(await status(importId, cookie)).toMatchObject({
      rowsReceived: 5,
      rowsInserted: 3,
      rowsPlaced: 3,
      rowsRejected: 2,
      done: true,
    });
    expect(await imported(importId)).toHaveLength(3);
  });

  it("keeps a full batch's consumer within D1's queries per invocation", async () => {
    expect(MAX_QUERIES_PER_CALLBACK_MESSAGE).toBeLessThanOrEqual(D1_LIMITS.queriesPerInvocation);
    const { cookie } = await signedIn({ isAdmin: true });
    const buyer = await createUser();
    await paidCallbackOrder(buyer.id, CALLBACK_IMPORT_BATCH_SIZE);
    const rows = Array.from({ length: CALLBACK_IMPORT_BATCH_SIZE }, (_, index) => row(2 + index));
    const { importId } = await (await upload(cookie, { batchNumber: 1, leads: rows })).json<{ importId: string }>();
    const { db, usage } = watchD1(env.DB);
    await deliverToQueue([{ kind: "import-batch", importId, batchNumber: 1, callbacks: true }], {
      env: { ...env, DB: db } as Cloudflare.Env,
    });
    expect(await status(importId, cookie)).toMatchObject({ rowsInserted: CALLBACK_IMPORT_BATCH_SIZE, done: true });
    expect(brokenD1Limits(usage)).toEqual([]);
    expect(usage.statements.length).toBeLessThanOrEqual(MAX_QUERIES_PER_CALLBACK_MESSAGE);
  }, 60_000);

  it("announces a call-back batch as such, at upload and when the sweep sends a stalled one again", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const sent: ImportBatchMessage[] = [];
    const queue = {
      send: async (body: ImportBatchMessage) => void sent.push(body),
      sendBatch: async (messages: { body: ImportBatchMessage }[]) => void sent.push(...messages.map((m) => m.body)),
    };
    const response = await callApi("/api/bulk-upload-aged-leads", {
      json: { kind: "callbacks", batchNumber: 1, leads: [row(2)] },
      cookie,
      env: { IMPORT_QUEUE: queue },
    });
    const { importId } = await response.json<{ importId: string }>();
    const expected = { kind: "import-batch", importId, batchNumber: 1, callbacks: true };
    expect(sent).toEqual([expected]);
    await testDb()
      .update(importBatches)
      .set({ queuedAt: Date.now() - STALLED_BATCH_MS - 1000 })
      .where(eq(importBatches.importId, importId));
    await resendStalledBatches(createDeps({ ...env, IMPORT_QUEUE: queue as unknown as Queue }));
    expect(sent.filter((message) => message.importId === importId)).toEqual([expected, expected]);
  });

  it("refuses a batch too big for call-backs (400) and a batch of another kind than its import (404)", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const tooMany = Array.from({ length: CALLBACK_IMPORT_BATCH_SIZE + 1 }, (_, index) => row(2 + index));
    expect((await upload(cookie, { batchNumber: 1, leads: tooMany })).status).toBe(400);
    const { importId } = await (await upload(cookie, { batchNumber: 1, leads: [row(2)] })).json<{ importId: string }>();
    const asLeads = await callApi("/api/bulk-upload-aged-leads", {
      json: { importId, batchNumber: 2, leads: [{ rowNumber: 3, name: "Ann", phone: newPhone(), state: "TX" }] },
      cookie,
    });
    expect(asLeads.status).toBe(404);
  });

  it("maps a file's headers to the call-back fields, the consent ones also by their form labels", () => {
    const mapping = mapCallbackHeaders([
      "Full Name",
      "E-mail",
      "Phone Number",
      "State",
      "Price",
      "ZIP code",
      "Type",
      "Appointment date",
      "Appointment time",
      "Time zone",
      "Opt-in time",
      "TrustedForm certificate URL",
      "Jornaya LeadiD",
    ]);
    expect(mapping).toMatchObject({
      name: 0,
      email: 1,
      phone: 2,
      state: 3,
      price: 4,
      zip: 5,
      kind: 6,
      date: 7,
      from: 8,
      timeZone: 9,
      optInAt: 10,
      trustedFormUrl: 11,
      jornayaLeadId: 12,
    });
    expect(mapping.to).toBeUndefined();
  });
});
