/**
 * docs/decisions/0051: an upload changes its list all at once, at its finish, or not at all (an upload never
 * finished expires after a day and leaves the list as it was); a buyer's private list is bounded (size,
 * uploads a day, batches a minute); batches are bounded by the file's declared size; a full replacement
 * reads only its own list's rows.
 */

import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { PRIVATE_LIST_LIMITS, SUPPRESSION_UPLOAD_REFUSALS } from "../../../../src/features/do-not-call/private-lists";
import { watchD1 } from "../../../../tests/worker/d1-usage";
import { testDb } from "../../../../tests/worker/factories";
import { callApi, deliverToQueue, signedIn } from "../../../../tests/worker/helpers";
import {
  emptyReport,
  freshPhone,
  insertLeads,
  marketplace,
  today,
  uniqueState,
  uploadList,
  uploadStatus,
} from "../../../../tests/worker/suppression-fixtures";
import { rateLimitWindows, suppressionLists, suppressionNumbers, suppressionUploads } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { expireSuppressionUploads } from "../suppression-resend";

const ADMIN = "/api/admin/suppression-uploads";
const BUYER = "/api/my-suppression-uploads";
const DAY_MS = 86_400_000;

async function start(
  cookie: string,
  path: string,
  json: { contents?: string; listId?: number; added?: number; removed?: number },
) {
  const report = { ...emptyReport((json.added ?? 1) + (json.removed ?? 0)), added: json.added ?? 1 };
  return callApi(path, {
    cookie,
    json: {
      ...(json.listId ? { listId: json.listId } : { name: "Limits", ...(path === ADMIN ? { kind: "litigator" } : {}) }),
      contents: json.contents ?? "full",
      refreshedOn: today(),
      fileName: "l.txt",
      report: { ...report, removed: json.removed ?? 0 },
    },
  });
}

async function started(cookie: string, path: string, json: Parameters<typeof start>[2] = {}) {
  const response = await start(cookie, path, json);
  expect(response.status, await response.clone().text()).toBe(201);
  return response.json<{ uploadId: number; listId: number }>();
}

const batch = (cookie: string, path: string, uploadId: number, json: object) =>
  callApi(`${path}/${uploadId}/batches`, { cookie, json });
const finish = (cookie: string, path: string, uploadId: number, batches: number) =>
  callApi(`${path}/${uploadId}/finish`, { cookie, json: { batches } });

async function listSize(listId: number) {
  const db = testDb();
  const [list] = await db
    .select({ numbers: suppressionLists.numbers })
    .from(suppressionLists)
    .where(eq(suppressionLists.id, listId));
  if (!list) return null;
  return { numbers: list.numbers, rows: await db.$count(suppressionNumbers, eq(suppressionNumbers.listId, listId)) };
}

async function expectRefused(response: Response, status: number, message: string) {
  expect(response.status).toBe(status);
  expect(await response.json()).toEqual({ message });
}

describe("an upload changes its list at its finish, all at once", () => {
  it("a deletions upload never finished changes nothing: the number stays listed, its lead unsellable", async () => {
    const { cookie: admin } = await signedIn({ isAdmin: true });
    const { cookie: buyer } = await signedIn();
    const state = uniqueState();
    const phone = freshPhone();
    await insertLeads(state, [phone]);
    const list = await uploadList({ cookie: admin, kind: "litigator", add: [Number(phone)] });
    expect((await marketplace(buyer, state)).total).toBe(0);

    const { uploadId } = await started(admin, ADMIN, {
      listId: list.listId,
      contents: "deletions",
      added: 0,
      removed: 1,
    });
    expect((await batch(admin, ADMIN, uploadId, { batchNumber: 1, add: [], remove: [Number(phone)] })).status).toBe(
      200,
    );
    // Even a message for the batch (a stale or forged one) applies nothing before the finish.
    await deliverToQueue([{ kind: "suppression-batch", uploadId, batchNumber: 1 }]);
    expect(await listSize(list.listId)).toEqual({ numbers: 1, rows: 1 });
    expect((await marketplace(buyer, state)).total).toBe(0);

    // A day later the cron gives it up; the list is as it was, the batch's numbers gone from R2.
    expect(await expireSuppressionUploads(createDeps(env, Date.now() + DAY_MS + 60_000))).toBeGreaterThanOrEqual(1);
    expect(await uploadStatus(admin, uploadId)).toMatchObject({
      status: "failed",
      error: SUPPRESSION_UPLOAD_REFUSALS.expired,
    });
    expect(await env.DOCUMENTS.get(`suppression/${uploadId}/1.json`)).toBeNull();
    expect(await listSize(list.listId)).toEqual({ numbers: 1, rows: 1 });
    expect((await marketplace(buyer, state)).total).toBe(0);
  });

  it("expires only after 24 hours; then batches and the finish are refused with a message", async () => {
    const { cookie } = await signedIn();
    const { uploadId } = await started(cookie, BUYER, { added: 1 });
    expect(
      (await batch(cookie, BUYER, uploadId, { batchNumber: 1, add: [Number(freshPhone())], remove: [] })).status,
    ).toBe(200);
    await expireSuppressionUploads(createDeps(env, Date.now() + DAY_MS - 60_000));
    expect((await uploadStatus(cookie, uploadId, "buyer")).status).toBe("receiving");
    await expireSuppressionUploads(createDeps(env, Date.now() + DAY_MS + 60_000));
    expect((await uploadStatus(cookie, uploadId, "buyer")).status).toBe("failed");
    await expectRefused(
      await batch(cookie, BUYER, uploadId, { batchNumber: 1, add: [Number(freshPhone())], remove: [] }),
      409,
      SUPPRESSION_UPLOAD_REFUSALS.expired,
    );
    await expectRefused(await finish(cookie, BUYER, uploadId, 1), 409, SUPPRESSION_UPLOAD_REFUSALS.expired);
    const list = await callApi("/api/my-suppression-list", { cookie });
    expect((await list.json<{ list: { numbers: number } }>()).list.numbers).toBe(0);
  });

  it("a batch sent twice is applied once; finishing twice is harmless", async () => {
    const { cookie } = await signedIn();
    const add = [Number(freshPhone()), Number(freshPhone())];
    const { uploadId, listId } = await started(cookie, BUYER, { contents: "additions", added: 2 });
    for (let i = 0; i < 2; i++)
      expect((await batch(cookie, BUYER, uploadId, { batchNumber: 1, add, remove: [] })).status).toBe(200);
    expect((await uploadStatus(cookie, uploadId, "buyer")).numbersReceived).toBe(2);
    expect((await finish(cookie, BUYER, uploadId, 1)).status).toBe(200);
    const again = await finish(cookie, BUYER, uploadId, 1);
    expect(again.status).toBe(200);
    expect((await again.json<{ status: string }>()).status).toBe("applying");
    const message = { kind: "suppression-batch", uploadId, batchNumber: 1 };
    await deliverToQueue([message, message]);
    await deliverToQueue([{ kind: "suppression-finish", uploadId }]);
    expect((await finish(cookie, BUYER, uploadId, 1)).status).toBe(200);
    expect(await uploadStatus(cookie, uploadId, "buyer")).toMatchObject({ status: "done", numbersAdded: 2 });
    expect(await listSize(listId)).toEqual({ numbers: 2, rows: 2 });
  });
});

describe("bad input is refused with a message, and changes nothing", () => {
  it("batch numbers beyond the declared file, more numbers than declared, batches after the finish, unknown uploads", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const { uploadId, listId } = await started(cookie, ADMIN, { added: 2 });
    const two = [Number(freshPhone()), Number(freshPhone())];
    await expectRefused(
      await batch(cookie, ADMIN, uploadId, { batchNumber: 2, add: two, remove: [] }),
      400,
      SUPPRESSION_UPLOAD_REFUSALS.batchOutOfRange,
    );
    await expectRefused(
      await batch(cookie, ADMIN, uploadId, { batchNumber: 100_000, add: two, remove: [] }),
      400,
      SUPPRESSION_UPLOAD_REFUSALS.batchOutOfRange,
    );
    await expectRefused(
      await batch(cookie, ADMIN, uploadId, { batchNumber: 1, add: [...two, Number(freshPhone())], remove: [] }),
      400,
      SUPPRESSION_UPLOAD_REFUSALS.numbersBeyondFile,
    );
    expect((await uploadStatus(cookie, uploadId)).batchesReceived).toBe(0);
    expect(await env.DOCUMENTS.get(`suppression/${uploadId}/2.json`)).toBeNull();

    expect((await batch(cookie, ADMIN, uploadId, { batchNumber: 1, add: two, remove: [] })).status).toBe(200);
    expect((await finish(cookie, ADMIN, uploadId, 1)).status).toBe(200);
    const late = await batch(cookie, ADMIN, uploadId, { batchNumber: 1, add: two, remove: [] });
    expect(late.status).toBe(409);
    expect(await late.json()).toEqual({ message: "This upload is applying: it takes no more numbers." });

    expect((await finish(cookie, ADMIN, 999_999_999, 1)).status).toBe(404);
    expect(await listSize(listId)).toEqual({ numbers: 0, rows: 0 });
  });
});

describe("a buyer's private list is bounded", () => {
  it(`holds at most ${PRIVATE_LIST_LIMITS.numbers.toLocaleString("en-US")} numbers: a larger file is refused at its start, a batch past the limit too`, async () => {
    const { cookie } = await signedIn();
    await expectRefused(
      await start(cookie, BUYER, { added: PRIVATE_LIST_LIMITS.numbers + 1 }),
      400,
      SUPPRESSION_UPLOAD_REFUSALS.privateListFull,
    );
    const first = await uploadList({ cookie, as: "buyer", name: "Mine", add: [Number(freshPhone())] });
    // As if it held all but one of its numbers (a million rows would slow the test, not change the rule).
    await testDb()
      .update(suppressionLists)
      .set({ numbers: PRIVATE_LIST_LIMITS.numbers - 1 })
      .where(eq(suppressionLists.id, first.listId));
    await expectRefused(
      await start(cookie, BUYER, { contents: "additions", added: 2 }),
      400,
      SUPPRESSION_UPLOAD_REFUSALS.privateListFull,
    );
    const { uploadId } = await started(cookie, BUYER, { contents: "additions", added: 1 });
    await testDb()
      .update(suppressionLists)
      .set({ numbers: PRIVATE_LIST_LIMITS.numbers })
      .where(eq(suppressionLists.id, first.listId));
    await expectRefused(
      await batch(cookie, BUYER, uploadId, { batchNumber: 1, add: [Number(freshPhone())], remove: [] }),
      400,
      SUPPRESSION_UPLOAD_REFUSALS.privateListFull,
    );
    // A full file replaces the list: it may bring up to the limit whatever the list holds now.
    expect((await start(cookie, BUYER, { contents: "full", added: PRIVATE_LIST_LIMITS.numbers })).status).toBe(201);
  });

  it(`takes at most ${PRIVATE_LIST_LIMITS.uploadsPerDay} uploads a day and ${PRIVATE_LIST_LIMITS.batchesPerMinute} batches a minute`, async () => {
    const { cookie, user } = await signedIn();
    const { uploadId } = await started(cookie, BUYER, { added: 1 });
    for (let i = 1; i < PRIVATE_LIST_LIMITS.uploadsPerDay; i++) await started(cookie, BUYER, { added: 1 });
    await expectRefused(await start(cookie, BUYER, { added: 1 }), 429, SUPPRESSION_UPLOAD_REFUSALS.uploadsPerDay);
    // The earlier uploads were given up by the later ones: the last is the one receiving.
    expect((await uploadStatus(cookie, uploadId, "buyer")).status).toBe("failed");
    const results = await testDb()
      .select({ id: suppressionUploads.id })
      .from(suppressionUploads)
      .innerJoin(suppressionLists, eq(suppressionLists.id, suppressionUploads.listId))
      .where(and(eq(suppressionLists.ownerUserId, user.id), eq(suppressionUploads.status, "receiving")));
    const receiving = results[0]?.id ?? 0;
    // This minute's batches used up (as if sent a moment ago).
    await createDeps(env)
      .db.insert(rateLimitWindows)
      .values({
        key: `suppression-batches:${user.id}`,
        windowStart: Date.now(),
        hits: PRIVATE_LIST_LIMITS.batchesPerMinute,
      });
    await expectRefused(
      await batch(cookie, BUYER, receiving, { batchNumber: 1, add: [Number(freshPhone())], remove: [] }),
      429,
      SUPPRESSION_UPLOAD_REFUSALS.batchesPerMinute,
    );
  });

  it("a full re-upload reads only its own list's rows (by the list's index), whatever the shared lists hold", async () => {
    const { cookie } = await signedIn();
    await uploadList({ cookie, as: "buyer", name: "Mine", add: [Number(freshPhone()), Number(freshPhone())] });
    const { uploadId } = await started(cookie, BUYER, { added: 1 });
    expect(
      (await batch(cookie, BUYER, uploadId, { batchNumber: 1, add: [Number(freshPhone())], remove: [] })).status,
    ).toBe(200);
    expect((await finish(cookie, BUYER, uploadId, 1)).status).toBe(200);
    await deliverToQueue([{ kind: "suppression-batch", uploadId, batchNumber: 1 }]);
    const watched = watchD1(env.DB);
    for (let round = 0; round < 20 && (await uploadStatus(cookie, uploadId, "buyer")).status === "applying"; round++) {
      await deliverToQueue([{ kind: "suppression-finish", uploadId }], {
        env: { ...env, DB: watched.db } as Cloudflare.Env,
      });
    }
    expect(await uploadStatus(cookie, uploadId, "buyer")).toMatchObject({ status: "done", numbersRemoved: 2 });
    const sweeping = watched.usage.statements.filter((s) => /FROM suppression_numbers INDEXED BY/.test(s.sql));
    expect(sweeping.length).toBeGreaterThan(0);
    // The statements of one range (every range's are the same but for its bounds).
    for (const statement of sweeping.slice(0, 3)) {
      // raw SQL: the query plan itself is under test
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
        .bind(...Array.from({ length: statement.params }, () => null))
        .all<{ detail: string }>();
      const reads = results.filter((row) => / suppression_numbers\b/.test(row.detail));
      expect(reads.length).toBeGreaterThan(0);
      for (const row of reads)
        expect(row.detail).toMatch(
          /^SEARCH suppression_numbers USING (COVERING )?INDEX suppression_numbers_list_idx \(list_id=\? AND number>\? AND number<\?\)$/,
        );
    }
  });
});
