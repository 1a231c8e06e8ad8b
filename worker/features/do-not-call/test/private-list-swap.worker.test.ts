/**
 * docs/decisions/0066: a buyer's full re-upload is written beside the private list and swapped in at once.
 * While its batches apply, the payment's check (`privateListHoldsSql`) and My Leads' flags
 * (`suppressedAfterPurchase`) read exactly the old list; from the swap, exactly the new one, while the old
 * version's rows are still being deleted; and after the paced deletion the table holds the new list only.
 */

import { env } from "cloudflare:workers";
import { and, asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { testDb } from "../../../../tests/worker/factories";
import { callApi, deliverToQueue, signedIn } from "../../../../tests/worker/helpers";
import {
  emptyReport,
  freshPhone,
  today,
  uploadList,
  uploadStatus,
} from "../../../../tests/worker/suppression-fixtures";
import { suppressionLists, suppressionNumbers, suppressionUploadBatches } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { MAX_BATCH_ATTEMPTS } from "../../aged-leads/imports";
import { batchKey } from "../suppression-apply";
import { suppressedAfterPurchase } from "../suppression-checks";
import { PRIVATE_CHUNK } from "../suppression-private";
import { privateListHoldsSql } from "../suppression-rules";
import { finishSuppressionUploadSending } from "../suppression-uploads";

const BUYER = "/api/my-suppression-uploads";
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

/** The Queue held back: the test delivers each message itself, in order, and reads between them. */
const heldBack = {
  ...env,
  IMPORT_QUEUE: { send: async () => {}, sendBatch: async () => {} } as unknown as Queue,
} as Cloudflare.Env;
const deliver = (message: object, attempts = 1) => deliverToQueue([message], { env: heldBack, attempts });
/** Delivers a batch's message again (as the Queue does with the message a batch sends itself) until it is applied. */
async function deliverUntilApplied(uploadId: number, batchNumber: number) {
  const status = async () =>
    (
      await testDb()
        .select({ status: suppressionUploadBatches.status })
        .from(suppressionUploadBatches)
        .where(
          and(eq(suppressionUploadBatches.uploadId, uploadId), eq(suppressionUploadBatches.batchNumber, batchNumber)),
        )
    )[0]?.status ?? null;
  for (let round = 0; round < 50 && (await status()) === "queued"; round++) {
    await deliver({ kind: "suppression-batch", uploadId, batchNumber });
  }
  expect(await status()).toBe("done");
}

/** Of the numbers `from` … `from + count - 1`, those the buyer's private list holds now, as the payment reads it. */
async function holds(userId: string, from: number, count: number): Promise<number[]> {
  // raw SQL: the payment's own private-list check (privateListHoldsSql) is under test
  const rows = await createDeps(env).db.all<{ value: number }>(sql`
    SELECT value FROM json_each(${JSON.stringify(range(from, count))})
    WHERE ${privateListHoldsSql(sql`value`, userId)} ORDER BY value`);
  return rows.map((row) => row.value);
}

/** Starts a buyer's full upload, sends `batches` and finishes it with the Queue held back. */
async function startHeldBack(cookie: string, userId: string, batches: number[][]) {
  const numbers = batches.reduce((sum, add) => sum + add.length, 0);
  const start = await callApi(BUYER, {
    cookie,
    json: { name: "Mine", contents: "full", refreshedOn: today(), fileName: "l.txt", report: emptyReport(numbers) },
  });
  expect(start.status, await start.clone().text()).toBe(201);
  const { uploadId } = await start.json<{ uploadId: number }>();
  for (const [i, add] of batches.entries()) {
    const sent = await callApi(`${BUYER}/${uploadId}/batches`, {
      cookie,
      json: { batchNumber: i + 1, add, remove: [] },
    });
    expect(sent.status, await sent.clone().text()).toBe(200);
  }
  const finished = await finishSuppressionUploadSending(
    createDeps(heldBack),
    { kind: "buyer", userId },
    uploadId,
    batches.length,
  );
  expect(finished.status).toBe("applying");
  return uploadId;
}

describe("a private list's full re-upload replaces it in one step", () => {
  it("readers see exactly the old list until the swap, then exactly the new one", async () => {
    const { cookie, user } = await signedIn();
    const base = Number(freshPhone());
    const old = range(base, 12_000);
    const next = range(base + 6_000, 12_000);
    const { listId } = await uploadList({ cookie, as: "buyer", name: "Mine", add: old });
    const deps = createDeps(env);

    /** Of every number either list holds, those the buyer's list holds now. */
    const held = () => holds(user.id, base, 18_000);
    /** My Leads' flags for a number only the old list holds and one only the new list holds. */
    const flagged = async () => {
      const flags = await suppressedAfterPurchase(deps, user.id, [
        { phone: String(base), purchasedAt: 0 },
        { phone: String(base + 17_999), purchasedAt: 0 },
      ]);
      return [...flags.keys()];
    };
    const stored = async () => {
      const db = testDb();
      const [list] = await db
        .select({ numbers: suppressionLists.numbers })
        .from(suppressionLists)
        .where(eq(suppressionLists.id, listId));
      if (!list) return { rows: 0, numbers: 0 };
      return {
        rows: await db.$count(suppressionNumbers, eq(suppressionNumbers.listId, listId)),
        numbers: list.numbers,
      };
    };
    expect(await held()).toEqual(old);

    // Sent, and finished as the route does, with the Queue held back.
    const uploadId = await startHeldBack(cookie, user.id, [next.slice(0, 10_000), next.slice(10_000)]);

    // Batch 1 applies in transactions of PRIVATE_CHUNK numbers, a few per message: one message applies
    // part of it (and sends itself again), the list still reads as the old one.
    expect(PRIVATE_CHUNK).toBeLessThan(10_000);
    await deliver({ kind: "suppression-batch", uploadId, batchNumber: 1 });
    expect((await stored()).rows).toBeLessThan(16_000);
    expect(await held()).toEqual(old);
    // The messages sent again carry on where the last one stopped: its 4,000 new numbers are stored, hidden.
    await deliverUntilApplied(uploadId, 1);
    expect(await stored()).toEqual({ rows: 16_000, numbers: 12_000 });
    expect(await held()).toEqual(old);
    expect(await flagged()).toEqual([String(base)]);

    // Batch 2: every new number is stored, the list still reads as the old one.
    await deliverUntilApplied(uploadId, 2);
    expect(await stored()).toEqual({ rows: 18_000, numbers: 12_000 });
    expect(await held()).toEqual(old);
    expect((await uploadStatus(cookie, uploadId, "buyer")).status).toBe("applying");

    // The swap: one message, one UPDATE. The old version's 6,000 rows are still there, and read as gone.
    await deliver({ kind: "suppression-finish", uploadId });
    expect(await stored()).toEqual({ rows: 18_000, numbers: 12_000 });
    expect(await held()).toEqual(next);
    expect(await flagged()).toEqual([String(base + 17_999)]);
    expect((await uploadStatus(cookie, uploadId, "buyer")).status).toBe("applying");

    // The deletion of the old version, in paced steps: the list reads the same throughout and after.
    for (let round = 0; round < 10 && (await uploadStatus(cookie, uploadId, "buyer")).status === "applying"; round++) {
      await deliver({ kind: "suppression-finish", uploadId });
      expect(await held()).toEqual(next);
    }
    expect(await uploadStatus(cookie, uploadId, "buyer")).toMatchObject({
      status: "done",
      numbersAdded: 6_000,
      numbersUnchanged: 6_000,
      numbersRemoved: 6_000,
    });
    expect(await stored()).toEqual({ rows: 12_000, numbers: 12_000 });
    expect(await held()).toEqual(next);
    expect(await flagged()).toEqual([String(base + 17_999)]);
  }, 60_000);

  it("a full upload that fails after staging leaves the list as it was; its rows stay hidden until the next full upload deletes them", async () => {
    const { cookie, user } = await signedIn();
    const base = Number(freshPhone());
    await uploadList({ cookie, as: "buyer", name: "Mine", add: range(base, 10) });
    const uploadId = await startHeldBack(cookie, user.id, [range(base + 100, 10_000), [base + 20_000]]);
    await deliver({ kind: "suppression-batch", uploadId, batchNumber: 1 });
    // The second batch's numbers are lost from storage: its last delivery fails the upload.
    await env.DOCUMENTS.delete(batchKey(uploadId, 2));
    await deliver({ kind: "suppression-batch", uploadId, batchNumber: 2 }, MAX_BATCH_ATTEMPTS);
    expect((await uploadStatus(cookie, uploadId, "buyer")).status).toBe("failed");
    expect(await holds(user.id, base, 20_001)).toEqual(range(base, 10));

    // An addition of one of the staged numbers puts it on the list; the other staged numbers stay off.
    await uploadList({ cookie, as: "buyer", name: "Mine", contents: "additions", add: [base + 100] });
    expect(await holds(user.id, base, 20_001)).toEqual([...range(base, 10), base + 100]);

    // The next full upload replaces all of it: the failed upload's rows are deleted with the old version.
    const { listId } = await uploadList({ cookie, as: "buyer", name: "Mine", add: [base + 5, base + 500] });
    expect(await holds(user.id, base, 20_001)).toEqual([base + 5, base + 500]);
    const rows = await testDb()
      .select({ number: suppressionNumbers.number })
      .from(suppressionNumbers)
      .where(eq(suppressionNumbers.listId, listId))
      .orderBy(asc(suppressionNumbers.number));
    expect(rows.map((row) => row.number)).toEqual([base + 5, base + 500]);
  }, 60_000);
});
