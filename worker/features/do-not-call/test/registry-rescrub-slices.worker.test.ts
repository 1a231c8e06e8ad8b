/**
 * docs/decisions/0084 (its amendment): a swap's re-scrub runs as bounded Queue slices, each within its
 * declared D1 cost, each handing the next slice its cursor; a slice that fails is retried and loses
 * nothing; a slice delivered twice flags and revokes once.
 */
import { env } from "cloudflare:workers";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { RegistryUploadView } from "../../../../src/features/do-not-call/schemas/registry-upload";
import { watchD1 } from "../../../../tests/worker/d1-usage";
import { createLead, testDb } from "../../../../tests/worker/factories";
import { callApi, deliverToQueue, signedIn } from "../../../../tests/worker/helpers";
import { agedLeads, suppressionRevocations } from "../../../db/schema";
import { createDeps } from "../../../deps";
import {
  firstRescrubMessage,
  type RegistryRescrubMessage,
  type RescrubLimits,
  rescrubSlice,
  rescrubSliceQueries,
} from "../registry-rescrub";
import { storeRegistryFullList } from "../registry-store";
import { BASE, partOf, sendPart, start, status } from "./registry-upload-fixtures";

const lines = (numbers: string[]) => numbers.map((number) => `${number}\n`).join("");
let counter = 0;
/** A fresh number of `areaCode`. */
const phoneIn = (areaCode: number) => String(areaCode * 1e7 + 4_440_000 + ++counter);

/** `count` unsold leads and one sold lead of `areaCode`, every number on the national copy. */
async function listedArea(areaCode: number, count: number) {
  const buyer = await signedIn();
  const phones = Array.from({ length: count }, () => phoneIn(areaCode));
  const ids: string[] = [];
  for (const phone of phones) ids.push((await createLead(testDb(), { phone, state: "NM" })).id);
  const soldPhone = phoneIn(areaCode);
  const sold = await createLead(testDb(), {
    phone: soldPhone,
    state: "NM",
    soldToUserId: buyer.user.id,
    soldAt: new Date(Date.now() - 86_400_000),
  });
  // Stored without a re-scrub: the slices below do it.
  await storeRegistryFullList(createDeps(env), "national", areaCode, lines([...phones, soldPhone]));
  return { ids: [...ids, sold.id], unsold: ids, soldId: sold.id, buyerId: buyer.user.id };
}

async function flaggedOf(ids: string[]) {
  const rows = await testDb()
    .select({ id: agedLeads.id, listed: agedLeads.registryListedAt, suppressed: agedLeads.suppressedAt })
    .from(agedLeads)
    .where(inArray(agedLeads.id, ids));
  return rows.filter((row) => row.listed !== null).length;
}

const revocationsOf = (userId: string) =>
  testDb().select().from(suppressionRevocations).where(eq(suppressionRevocations.userId, userId));

/** A Queue that keeps what is sent to it. */
function keptQueue() {
  const sent: unknown[] = [];
  const queue = {
    send: async (body: unknown) => {
      sent.push(body);
    },
    sendBatch: async (messages: { body: unknown }[]) => {
      for (const message of messages) sent.push(message.body);
    },
  };
  return { sent, queue: queue as unknown as Queue };
}

describe("a registry swap's re-scrub in bounded slices", () => {
  it("an area code with more leads than one slice is flagged through a chain of slices, each within its D1 cost", async () => {
    const area = await listedArea(505, 9);
    const limits: RescrubLimits = { page: 2, pages: 2 };
    const declared = rescrubSliceQueries(limits.pages);
    const chain: Pick<RegistryRescrubMessage, "table" | "after">[] = [];
    let message: RegistryRescrubMessage | null = firstRescrubMessage("national", 505);
    while (message) {
      chain.push({ table: message.table, after: message.after });
      const { db, usage } = watchD1(env.DB);
      const { next } = await rescrubSlice(createDeps({ ...env, DB: db } as Cloudflare.Env), message, limits);
      expect(usage.statements.length).toBeGreaterThan(0);
      expect(usage.statements.length).toBeLessThanOrEqual(declared);
      message = next;
    }
    // Ten leads, four a slice: three slices of leads, then the call-backs and the transfers.
    expect(chain.map((one) => one.table)).toEqual(["lead", "lead", "lead", "callback", "transfer"]);
    const afters = chain.slice(0, 3).map((one) => one.after);
    expect(afters[0]).toBe(505 * 1e7 - 1);
    expect(afters[1]).toBeGreaterThan(afters[0] as number);
    expect(afters[2]).toBeGreaterThan(afters[1] as number);
    expect(await flaggedOf(area.ids)).toBe(10);
    expect(await revocationsOf(area.buyerId)).toHaveLength(1);
  });

  it("a slice that fails is retried by the Queue and the area code still ends fully flagged", async () => {
    const area = await listedArea(575, 5);
    const kept = keptQueue();
    const { db } = watchD1(env.DB, { refuse: /^UPDATE aged_leads SET registry_listed_at = \?2/ });
    const first = firstRescrubMessage("national", 575);
    const failed = await deliverToQueue([first], { env: { ...env, DB: db, IMPORT_QUEUE: kept.queue } });
    expect(failed.retryMessages).toHaveLength(1);
    expect(failed.explicitAcks).toHaveLength(0);
    expect(await flaggedOf(area.ids)).toBe(0);
    expect(kept.sent).toEqual([]);

    // Delivered again (the Queue's retry): the slice runs whole, then its successors.
    let pending: unknown[] = [first];
    while (pending.length > 0) {
      const next = keptQueue();
      const delivered = await deliverToQueue(pending, { attempts: 2, env: { ...env, IMPORT_QUEUE: next.queue } });
      expect(delivered.retryMessages).toHaveLength(0);
      pending = next.sent;
    }
    expect(await flaggedOf(area.ids)).toBe(6);
    expect(await revocationsOf(area.buyerId)).toHaveLength(1);
  });

  it("a slice delivered twice flags and revokes once", async () => {
    const area = await listedArea(530, 3);
    const deps = createDeps(env);
    const message = firstRescrubMessage("national", 530);
    const once = await rescrubSlice(deps, message);
    const twice = await rescrubSlice(deps, message);
    // Sold or not, every lead carries the verdict.
    expect(once.result.flagged).toBe(4);
    expect(twice.result).toEqual({ flagged: 0, cleared: 0 });
    expect(twice.next).toEqual(once.next);
    expect(await flaggedOf(area.ids)).toBe(4);
    const [lead] = await testDb()
      .select({ listed: agedLeads.registryListedAt })
      .from(agedLeads)
      .where(eq(agedLeads.id, area.unsold[0] as string));
    // The second delivery left the first's flag as it was.
    expect(lead?.listed).not.toBeNull();
    expect(await revocationsOf(area.buyerId)).toHaveLength(1);
  });

  it("an upload's area code whose first re-scrub fails stays unapplied, and its retry swaps and re-scrubs again", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const phone = phoneIn(580);
    const lead = await createLead(testDb(), { phone, state: "OK" });
    const files = [{ areaCode: 580, kind: "full" as const, text: lines([phone]) }];
    const started = await (await start(cookie, files)).json<RegistryUploadView>();
    const file = started.files[0];
    expect((await sendPart(cookie, started.id, file?.id ?? 0, 1, partOf(files[0]?.text ?? "", 1))).status).toBe(200);
    expect((await callApi(`${BASE}/${started.id}/finish`, { method: "POST", cookie })).status).toBe(200);
    const message = { kind: "registry-apply", uploadId: started.id, areaCode: 580 };
    const { db } = watchD1(env.DB, { refuse: /^UPDATE aged_leads SET registry_listed_at = \?2/ });
    const failed = await deliverToQueue([message], { env: { ...env, DB: db } });
    expect(failed.retryMessages).toHaveLength(1);
    expect((await status(cookie, started.id)).files[0]?.status).toBe("received");
    expect(await flaggedOf([lead.id])).toBe(0);
    await deliverToQueue([message], { attempts: 2 });
    expect((await status(cookie, started.id)).files[0]?.status).toBe("applied");
    expect(await flaggedOf([lead.id])).toBe(1);
  });
});
