/**
 * docs/decisions/0066: a buyer's full re-upload is written beside the private list and swapped in at once.
 * While its batches apply, the payment's check (`privateListHoldsSql`) and My Leads' flags
 * (`suppressedAfterPurchase`) read exactly the old list; from the swap, exactly the new one, while the old
 * version's rows are still being deleted; and after the paced deletion the table holds the new list only.
 */
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDeps } from "../../worker/deps";
import { suppressedAfterPurchase } from "../../worker/services/suppression-checks";
import { PRIVATE_CHUNK } from "../../worker/services/suppression-private";
import { privateListHoldsSql } from "../../worker/services/suppression-rules";
import { finishSuppressionUploadSending } from "../../worker/services/suppression-uploads";
import { callApi, deliverToQueue, signedIn } from "./helpers";
import { emptyReport, freshPhone, today, uploadList, uploadStatus } from "./suppression-fixtures";

const BUYER = "/api/my-suppression-uploads";
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

/** The Queue held back: the test delivers each message itself, in order, and reads between them. */
const heldBack = {
  ...env,
  IMPORT_QUEUE: { send: async () => {}, sendBatch: async () => {} } as unknown as Queue,
} as Cloudflare.Env;
const deliver = (message: object) => deliverToQueue([message], { env: heldBack });

describe("a private list's full re-upload replaces it in one step", () => {
  it("readers see exactly the old list until the swap, then exactly the new one", async () => {
    const { cookie, user } = await signedIn();
    const base = Number(freshPhone());
    const old = range(base, 12_000);
    const next = range(base + 6_000, 12_000);
    const { listId } = await uploadList({ cookie, as: "buyer", name: "Mine", add: old });
    const deps = createDeps(env);

    /** Of every number either list holds, those the buyer's list holds now, as the payment reads it. */
    const held = async () => {
      const rows = await deps.db.all<{ value: number }>(sql`
        SELECT value FROM json_each(${JSON.stringify(range(base, 18_000))})
        WHERE ${privateListHoldsSql(sql`value`, user.id)} ORDER BY value`);
      return rows.map((row) => row.value);
    };
    /** My Leads' flags for a number only the old list holds and one only the new list holds. */
    const flagged = async () => {
      const flags = await suppressedAfterPurchase(deps, user.id, [
        { phone: String(base), purchasedAt: 0 },
        { phone: String(base + 17_999), purchasedAt: 0 },
      ]);
      return [...flags.keys()];
    };
    const stored = async () =>
      (await env.DB.prepare(
        "SELECT (SELECT count(*) FROM suppression_numbers WHERE list_id = ?1) AS rows, numbers FROM suppression_lists WHERE id = ?1",
      )
        .bind(listId)
        .first<{ rows: number; numbers: number }>()) ?? { rows: 0, numbers: 0 };
    expect(await held()).toEqual(old);

    const start = await callApi(BUYER, {
      cookie,
      json: { name: "Mine", contents: "full", refreshedOn: today(), fileName: "l.txt", report: emptyReport(12_000) },
    });
    expect(start.status, await start.clone().text()).toBe(201);
    const { uploadId } = await start.json<{ uploadId: number }>();
    for (const [i, add] of [next.slice(0, 10_000), next.slice(10_000)].entries()) {
      const sent = await callApi(`${BUYER}/${uploadId}/batches`, {
        cookie,
        json: { batchNumber: i + 1, add, remove: [] },
      });
      expect(sent.status).toBe(200);
    }
    // The finish as its route calls it, with the Queue held back.
    const finished = await finishSuppressionUploadSending(
      createDeps(heldBack),
      { kind: "buyer", userId: user.id },
      uploadId,
      2,
    );
    expect(finished.status).toBe("applying");

    // Batch 1 applies (in transactions of PRIVATE_CHUNK numbers): its 4,000 new numbers are stored, hidden.
    expect(PRIVATE_CHUNK).toBeLessThan(10_000);
    await deliver({ kind: "suppression-batch", uploadId, batchNumber: 1 });
    expect(await stored()).toEqual({ rows: 16_000, numbers: 12_000 });
    expect(await held()).toEqual(old);
    expect(await flagged()).toEqual([String(base)]);

    // Batch 2: every new number is stored, the list still reads as the old one.
    await deliver({ kind: "suppression-batch", uploadId, batchNumber: 2 });
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
});
