/**
 * The CSV import at scale: every Worker invocation of the pipeline, upload route and
 * Queue consumer, stays within D1's real limits, which local D1 does not enforce. The D1 binding is
 * wrapped to count statements per invocation and bound parameters per statement.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BULK_BATCH_SIZE, type BulkLeadRow } from "../../../../src/features/aged-leads/csv-mapping";
import { type ImportStatus, STATUS_REJECTIONS } from "../../../../src/features/aged-leads/schemas/admin-leads";
import { brokenD1Limits, watchD1 } from "../../../../tests/worker/d1-usage";
import { callApi, deliverToQueue, signedIn } from "../../../../tests/worker/helpers";
import { D1_LIMITS } from "../../../db/limits";
import { IMPORT_MESSAGES_PER_INVOCATION } from "../../../queue";
import { type ImportBatchMessage, MAX_QUERIES_PER_IMPORT_MESSAGE } from "../imports";

let seq = 0;
const run = Date.now().toString().slice(-5);

function leads(count: number, firstRow: number, refuseEvery = 0): BulkLeadRow[] {
  return Array.from({ length: count }, (_, i) => {
    seq += 1;
    return {
      rowNumber: firstRow + i,
      name: refuseEvery && i % refuseEvery === 0 ? "" : `Scale Lead ${seq}`,
      email: `scale${seq}@example.com`,
      phone: `7${run.slice(-3)}${String(seq).padStart(6, "0")}`,
      state: "TX",
      ageRange: "",
      price: 0,
      formFillTime: "2026-07-01 09:30:00",
    };
  });
}

/** A wrapped D1 binding and the environment that uses it, for one invocation. */
function watched() {
  const { db, usage } = watchD1(env.DB);
  return { env: { ...env, DB: db } as Cloudflare.Env, usage };
}

async function upload(cookie: string, body: Record<string, unknown>, bindings?: Cloudflare.Env) {
  const response = await callApi("/api/bulk-upload-aged-leads", { json: body, cookie, env: bindings });
  expect(response.status).toBe(200);
  return response.json<{ importId: string; batchNumber: number }>();
}

/** Uploads `batches` batches of `size` rows (one call each) and answers the messages they queued. */
async function uploadBatches(cookie: string, batches: number, size: number) {
  const first = await upload(cookie, { batchNumber: 1, fileName: "scale.csv", leads: leads(size, 2) });
  for (let n = 2; n <= batches; n++)
    await upload(cookie, { importId: first.importId, batchNumber: n, leads: leads(size, 2 + (n - 1) * size) });
  const messages: ImportBatchMessage[] = Array.from({ length: batches }, (_, i) => ({
    kind: "import-batch",
    importId: first.importId,
    batchNumber: i + 1,
  }));
  return { importId: first.importId, messages };
}

async function status(importId: string, cookie: string) {
  return (await callApi(`/api/imports/${importId}`, { cookie })).json<ImportStatus>();
}

describe("CSV import within D1's limits (decision 0013)", () => {
  it("the upload route handles a full batch of 1,000 rows within the limits, the rows bound as one value", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const first = watched();
    const created = await upload(
      cookie,
      { batchNumber: 1, fileName: "full.csv", leads: leads(BULK_BATCH_SIZE, 2, 10) },
      first.env,
    );
    const next = watched();
    await upload(
      cookie,
      { importId: created.importId, batchNumber: 2, leads: leads(BULK_BATCH_SIZE, 2 + BULK_BATCH_SIZE, 10) },
      next.env,
    );
    for (const { usage } of [first, next]) {
      expect(usage.statements.length).toBeGreaterThan(0);
      expect(brokenD1Limits(usage)).toEqual([]);
      // The 100 refused rows of the batch went to D1 as one JSON value, not one parameter per row.
      expect(Math.max(...usage.statements.map((s) => s.largestValueBytes))).toBeGreaterThan(100 * 30);
    }
    expect(await status(created.importId, cookie)).toMatchObject({ rowsReceived: 2000, rowsRejected: 200 });
  });

  it("the consumer inserts full batches with a fixed handful of statements each", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const { importId, messages } = await uploadBatches(cookie, 3, BULK_BATCH_SIZE);
    const { env: bindings, usage } = watched();
    const result = await deliverToQueue(messages, { env: bindings });
    expect(result.explicitAcks).toHaveLength(3);
    expect(brokenD1Limits(usage)).toEqual([]);
    expect(usage.statements.length).toBeLessThanOrEqual(3 * MAX_QUERIES_PER_IMPORT_MESSAGE);
    expect(Math.max(...usage.statements.map((s) => s.params))).toBeLessThanOrEqual(D1_LIMITS.paramsPerStatement);
    expect(await status(importId, cookie)).toMatchObject({ rowsReceived: 3000, rowsInserted: 3000, done: true });
  }, 60_000);

  it("gives imported leads ids that grow batch after batch, so a million-row import appends to the id index", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const { importId, messages } = await uploadBatches(cookie, 2, 50);
    for (const message of messages) {
      await deliverToQueue([message]);
      // Ids start with the insert's millisecond: the next batch lands strictly after this one.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const { results } = await env.DB.prepare(
      "SELECT id, import_batch AS batch FROM aged_leads WHERE import_id = ? ORDER BY rowid",
    )
      .bind(importId)
      .all<{ id: string; batch: number }>();
    expect(results).toHaveLength(100);
    for (const { id } of results) expect(id).toMatch(/^[0-9a-f]{32}$/);
    const ids = (batch: number) => results.filter((row) => row.batch === batch).map((row) => row.id);
    // Every id of batch 1 sorts before every id of batch 2.
    expect([...ids(1), ...ids(2)].sort()).toEqual([...ids(1).sort(), ...ids(2).sort()]);
    // Unguessable all the same: 80 random bits after the time.
    expect(new Set(results.map(({ id }) => id.slice(12))).size).toBe(100);
  });

  it("one consumer invocation runs at most 1,000 queries even when every message fails on its last attempt; the rest go back to the Queue", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const extra = 15;
    const total = IMPORT_MESSAGES_PER_INVOCATION + extra;
    const { importId, messages } = await uploadBatches(cookie, total, 1);
    // The costliest path: every insert fails, so each message is looked up, tried and reported failed.
    await env.DB.exec(
      `CREATE TRIGGER IF NOT EXISTS fail_scale_insert BEFORE INSERT ON aged_leads WHEN NEW.import_id = '${importId}' BEGIN SELECT RAISE(ABORT, 'disk full'); END;`,
    );
    const first = watched();
    let result: Awaited<ReturnType<typeof deliverToQueue>>;
    try {
      result = await deliverToQueue(messages, { env: first.env, attempts: 6 });
    } finally {
      await env.DB.exec("DROP TRIGGER fail_scale_insert");
    }
    expect(first.usage.statements.length).toBeGreaterThan(IMPORT_MESSAGES_PER_INVOCATION * 4);
    expect(brokenD1Limits(first.usage)).toEqual([]);
    expect(result.explicitAcks).toHaveLength(IMPORT_MESSAGES_PER_INVOCATION);
    expect(result.retryMessages).toHaveLength(extra);

    const again = watched();
    const rest = await deliverToQueue(messages.slice(IMPORT_MESSAGES_PER_INVOCATION), { env: again.env, attempts: 2 });
    expect(rest.explicitAcks).toHaveLength(extra);
    expect(brokenD1Limits(again.usage)).toEqual([]);
    expect(await status(importId, cookie)).toMatchObject({
      rowsReceived: total,
      rowsRejected: IMPORT_MESSAGES_PER_INVOCATION,
      rowsInserted: extra,
      done: true,
    });
  }, 120_000);

  it("lists the first rejections in the status and every one, in order, in the streamed report", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const batches = 6;
    const first = await upload(cookie, { batchNumber: 1, fileName: "bad.csv", leads: leads(BULK_BATCH_SIZE, 2, 1) });
    for (let n = 2; n <= batches; n++)
      await upload(cookie, {
        importId: first.importId,
        batchNumber: n,
        leads: leads(BULK_BATCH_SIZE, 2 + (n - 1) * BULK_BATCH_SIZE, 1),
      });
    const summary = await status(first.importId, cookie);
    expect(summary).toMatchObject({ rowsReceived: 6000, rowsRejected: 6000, done: true });
    expect(summary.rejections).toHaveLength(STATUS_REJECTIONS);
    expect(summary.rejections[0]).toEqual({ rowNumber: 2, reason: "Name is required" });

    const { env: bindings, usage } = watched();
    const report = await callApi(`/api/imports/${first.importId}/report.csv`, { cookie, env: bindings });
    const lines = (await report.text()).split("\r\n");
    const rejected = lines.filter((line) => line.endsWith(',rejected,"Name is required"'));
    expect(rejected).toHaveLength(6000);
    expect(rejected.map((line) => Number(line.split(",")[0]))).toEqual(Array.from({ length: 6000 }, (_, i) => i + 2));
    expect(lines.slice(-3)).toEqual(["Rejected,6000", "With certificate,0", "Without certificate,0"]);
    expect(brokenD1Limits(usage)).toEqual([]);
  }, 60_000);

  it("a batch sent again is announced again while still queued, and is never counted twice", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const sent: ImportBatchMessage[] = [];
    const queue = { send: async (message: ImportBatchMessage) => void sent.push(message) } as unknown as Queue;
    const bindings = { ...env, IMPORT_QUEUE: queue } as Cloudflare.Env;
    const body = { batchNumber: 1, fileName: "again.csv", leads: leads(3, 2, 3) };
    const first = await upload(cookie, body, bindings);
    // As if the first answer never arrived (its Queue message lost): the page sends the batch again.
    await upload(cookie, { ...body, importId: first.importId }, bindings);
    expect(sent).toHaveLength(2);
    expect(await status(first.importId, cookie)).toMatchObject({
      rowsReceived: 3,
      rowsRejected: 1,
      batchesReceived: 1,
      done: false,
    });
    await deliverToQueue(sent);
    await upload(cookie, { ...body, importId: first.importId }, bindings);
    expect(sent).toHaveLength(2);
    expect(await env.DOCUMENTS.head(`imports/${first.importId}/1.json`)).toBeNull();
    expect(await status(first.importId, cookie)).toMatchObject({
      rowsReceived: 3,
      rowsInserted: 2,
      rowsRejected: 1,
      batchesReceived: 1,
      done: true,
    });
  });
});
