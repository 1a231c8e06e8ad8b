/**
 * An accepted import batch is always inserted, even after a crash. A batch whose Queue
 * message was lost stays `queued`; the sweep (cron, and the local server's start) sends it again, and the
 * import completes exactly once. The import's status says when batches are stalled; a resumed upload asks
 * which batches the server already has.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { testDb } from "../../../../tests/worker/factories";
import { bulkRow, callApi, deliverToQueue, signedIn, uniquePhones } from "../../../../tests/worker/helpers";
import worker from "../../../app";
import { agedLeads, importBatches } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { STARTUP_CRON } from "../../../startup";
import { resendStalledBatches } from "../import-sweep";
import { type ImportBatchMessage, STALLED_BATCH_MS } from "../imports";

const uniquePhone = uniquePhones("6");

/** A Queue that keeps what it is given and delivers nothing: the messages a crash loses. */
function losingQueue() {
  const sent: ImportBatchMessage[] = [];
  const queue = {
    send: async (body: ImportBatchMessage) => {
      sent.push(body);
    },
    sendBatch: async (messages: { body: ImportBatchMessage }[]) => {
      for (const message of messages) sent.push(message.body);
    },
  };
  return { sent, queue, env: { ...env, IMPORT_QUEUE: queue as unknown as Queue } };
}

/** Uploads `batches` batches of `rows` valid rows each, their messages going to `queue`. */
async function upload(cookie: string, queue: unknown, batches: number, rows = 3) {
  let importId: string | undefined;
  for (let batchNumber = 1; batchNumber <= batches; batchNumber++) {
    const leads = Array.from({ length: rows }, (_, i) =>
      bulkRow(uniquePhone(), { rowNumber: 2 + (batchNumber - 1) * 1000 + i }),
    );
    const response = await callApi("/api/bulk-upload-aged-leads", {
      json: { ...(importId ? { importId } : { fileName: "crash.csv" }), batchNumber, leads },
      cookie,
      env: { IMPORT_QUEUE: queue },
    });
    expect(response.status).toBe(200);
    importId = (await response.json<{ importId: string }>()).importId;
  }
  return importId ?? "";
}

const status = async (cookie: string, importId: string) =>
  (await callApi(`/api/imports/${importId}`, { cookie })).json<{
    done: boolean;
    rowsReceived: number;
    rowsInserted: number;
    batchesDone: number;
    stalledBatches: number;
  }>();

const leadsOf = async (importId: string) => testDb().$count(agedLeads, eq(agedLeads.importId, importId));

/** Moves every queued batch of the import `minutes` into the past, as if it had waited that long. */
async function queuedAgo(importId: string, ms: number) {
  const db = testDb();
  const queued = and(eq(importBatches.importId, importId), eq(importBatches.status, "queued"));
  for (const batch of await db.select().from(importBatches).where(queued)) {
    await db
      .update(importBatches)
      .set({ queuedAt: batch.queuedAt - ms })
      .where(and(queued, eq(importBatches.batchNumber, batch.batchNumber)));
  }
}

describe("the sweep of stalled import batches", () => {
  it("sends a batch whose message was lost again, and the import completes exactly once", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const lost = losingQueue();
    const importId = await upload(cookie, lost.queue, 3);
    // The first two messages arrive; the third is lost in a crash.
    await deliverToQueue(lost.sent.filter((m) => m.importId === importId && m.batchNumber < 3));
    expect(await status(cookie, importId)).toMatchObject({ done: false, rowsInserted: 6, stalledBatches: 0 });

    // Nothing is sent again while the batch may still be on its way.
    const early = losingQueue();
    await resendStalledBatches(createDeps(early.env));
    expect(early.sent.filter((m) => m.importId === importId)).toEqual([]);

    await queuedAgo(importId, STALLED_BATCH_MS + 1000);
    expect(await status(cookie, importId)).toMatchObject({ done: false, stalledBatches: 1 });
    const swept = losingQueue();
    expect(await resendStalledBatches(createDeps(swept.env))).toBeGreaterThanOrEqual(1);
    const resent = swept.sent.filter((m) => m.importId === importId);
    expect(resent).toEqual([{ kind: "import-batch", importId, batchNumber: 3 }]);
    // Claimed: a second sweep right after sends nothing more.
    const again = losingQueue();
    await resendStalledBatches(createDeps(again.env));
    expect(again.sent.filter((m) => m.importId === importId)).toEqual([]);

    // Delivered, and delivered twice more (the lost message turning up after all): inserted once.
    await deliverToQueue(resent);
    await deliverToQueue([...resent, ...lost.sent.filter((m) => m.importId === importId)]);
    expect(await status(cookie, importId)).toMatchObject({
      done: true,
      rowsReceived: 9,
      rowsInserted: 9,
      batchesDone: 3,
      stalledBatches: 0,
    });
    expect(await leadsOf(importId)).toBe(9);
  });

  it("runs on the cron for stalled batches, and at the local server's start for every queued one", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const lost = losingQueue();
    const importId = await upload(cookie, lost.queue, 2);
    const scheduled = async (cron: string) => {
      const queue = losingQueue();
      const ctx = createExecutionContext();
      await worker.scheduled(createScheduledController({ cron, scheduledTime: Date.now() }), queue.env, ctx);
      await waitOnExecutionContext(ctx);
      return queue.sent.filter((m) => m.importId === importId).map((m) => m.batchNumber);
    };
    // Just queued: the cron leaves them; the start of a server (whose Queue is new) sends them all.
    expect(await scheduled("*/5 * * * *")).toEqual([]);
    expect((await scheduled(STARTUP_CRON)).sort()).toEqual([1, 2]);
    await queuedAgo(importId, STALLED_BATCH_MS + 1000);
    expect((await scheduled("*/5 * * * *")).sort()).toEqual([1, 2]);
  });

  it("announces a batch uploaded again while queued as newly queued", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const lost = losingQueue();
    const importId = await upload(cookie, lost.queue, 1);
    await queuedAgo(importId, STALLED_BATCH_MS + 1000);
    expect((await status(cookie, importId)).stalledBatches).toBe(1);
    const leads = [bulkRow(uniquePhone(), { rowNumber: 2 })];
    const retried = await callApi("/api/bulk-upload-aged-leads", {
      json: { importId, batchNumber: 1, leads },
      cookie,
      env: { IMPORT_QUEUE: lost.queue },
    });
    expect(retried.status).toBe(200);
    expect((await status(cookie, importId)).stalledBatches).toBe(0);
  });
});

describe("GET /api/imports/:id/batches", () => {
  it("lists the batch numbers the server has, so a resumed upload sends only the others", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const lost = losingQueue();
    const importId = await upload(cookie, lost.queue, 2);
    const response = await callApi(`/api/imports/${importId}/batches`, { cookie });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: [1, 2] });
    expect((await callApi(`/api/imports/${crypto.randomUUID()}/batches`, { cookie })).status).toBe(404);
    const buyer = await signedIn();
    expect((await callApi(`/api/imports/${importId}/batches`, { cookie: buyer.cookie })).status).toBe(403);
  });
});
