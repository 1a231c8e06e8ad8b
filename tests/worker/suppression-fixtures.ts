/** Suppression list uploads driven as the browser drives them, leads in states of their own, and lists read back. */
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import type { SuppressionListView, SuppressionUploadView } from "../../src/features/do-not-call/schemas/suppression";
import type { SuppressionFileKind } from "../../src/features/do-not-call/suppression-file";
import { agedLeads } from "../../worker/db/schema";
import { createLeads, testDb } from "./factories";
import { callApi, deliverToQueue } from "./helpers";

export const today = () => new Date().toISOString().slice(0, 10);
export const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

let stateCount = 0;
/** A made-up state code no other test uses, so a marketplace filter sees only this test's leads. */
export const uniqueState = () => `Q${(Date.now() % 1000).toString(36)}${(++stateCount).toString(36)}`.toUpperCase();

let phoneCount = 0;
/** A fresh 10-digit US phone (area codes 4xx: no other test file uses them). */
export function freshPhone(): string {
  phoneCount += 1;
  return `4${String((Date.now() % 100_000) * 1000 + (phoneCount % 1000)).padStart(9, "0")}`;
}

/** Unsold leads, ten days old, one per phone; answers their ids in order. */
export function insertLeads(state: string, phones: string[]): Promise<string[]> {
  const formFillTime = new Date(Date.now() - 10 * 86_400_000);
  return createLeads(testDb(), phones.length, (i) => ({
    phone: phones[i],
    state,
    name: "Dana Lead",
    email: "dana@example.com",
    formFillTime,
  }));
}

export const emptyReport = (accepted: number) => ({
  lines: accepted,
  header: false,
  blank: 0,
  accepted,
  added: accepted,
  removed: 0,
  duplicates: 0,
  rejected: 0,
  rejections: [],
});

export interface UploadOptions {
  cookie: string;
  /** Admin routes (shared lists) or a buyer's own (My Account). */
  as?: "admin" | "buyer";
  /** The one kind an admin still uploads to D1 (national and state lists are registry copies: docs/decisions/0084). */
  kind?: "litigator";
  name?: string;
  listId?: number;
  contents?: SuppressionFileKind;
  refreshedOn?: string;
  add?: number[];
  remove?: number[];
  /** Numbers per batch (the browser sends up to 10,000). */
  batchSize?: number;
}

const base = (as: "admin" | "buyer") =>
  as === "admin" ? "/api/admin/suppression-uploads" : "/api/my-suppression-uploads";

/**
 * Uploads a list as the browser does (start, batches, finish) and runs the Queue's messages the finish
 * sent (each batch, then the finish until it is done); answers the upload as its status route reports it.
 */
export async function uploadList(options: UploadOptions): Promise<SuppressionUploadView & { listId: number }> {
  const as = options.as ?? "admin";
  const add = options.add ?? [];
  const remove = options.remove ?? [];
  const start = await callApi(base(as), {
    cookie: options.cookie,
    json: {
      ...(options.listId
        ? { listId: options.listId }
        : { name: options.name ?? "Test list", ...(as === "admin" ? { kind: options.kind ?? "litigator" } : {}) }),
      contents: options.contents ?? "full",
      refreshedOn: options.refreshedOn ?? today(),
      fileName: "list.txt",
      report: emptyReport(add.length + remove.length),
    },
  });
  expect(start.status, await start.clone().text()).toBe(201);
  const { uploadId } = await start.json<{ uploadId: number; listId: number }>();
  const size = options.batchSize ?? 10_000;
  const batches: { add: number[]; remove: number[] }[] = [];
  for (let i = 0; i < Math.max(add.length, remove.length); i += size) {
    batches.push({ add: add.slice(i, i + size), remove: remove.slice(i, i + size) });
  }
  for (const [i, batch] of batches.entries()) {
    const sent = await callApi(`${base(as)}/${uploadId}/batches`, {
      cookie: options.cookie,
      json: { batchNumber: i + 1, ...batch },
    });
    expect(sent.status, await sent.clone().text()).toBe(200);
  }
  const finish = await callApi(`${base(as)}/${uploadId}/finish`, {
    cookie: options.cookie,
    json: { batches: batches.length },
  });
  expect(finish.status, await finish.clone().text()).toBe(200);
  // The finish announces the batches (nothing is applied before it): the Queue delivers them.
  const batchMessages = batches.map((_, i) => ({ kind: "suppression-batch", uploadId, batchNumber: i + 1 }));
  await deliverToQueue(batchMessages);
  for (let round = 0; round < 40; round++) {
    const status = await uploadStatus(options.cookie, uploadId, as);
    if (status.status !== "applying") return status;
    // A private batch longer than one message sends its message again (the Queue's next delivery, played
    // here); a batch already applied changes nothing when delivered again.
    await deliverToQueue([...batchMessages, { kind: "suppression-finish", uploadId }]);
  }
  throw new Error(`upload ${uploadId} did not finish`);
}

export async function uploadStatus(cookie: string, uploadId: number, as: "admin" | "buyer" = "admin") {
  const response = await callApi(`${base(as)}/${uploadId}`, { cookie });
  expect(response.status).toBe(200);
  return response.json<SuppressionUploadView & { listId: number }>();
}

export async function sharedLists(cookie: string): Promise<SuppressionListView[]> {
  const response = await callApi("/api/admin/suppression-lists", { cookie });
  expect(response.status).toBe(200);
  return (await response.json<{ lists: SuppressionListView[] }>()).lists;
}

/** The ids the marketplace shows the buyer for a location filter, and its total. */
export async function marketplace(cookie: string, location: string) {
  const response = await callApi(`/api/aged-leads?location=${encodeURIComponent(location)}`, { cookie });
  expect(response.status).toBe(200);
  const page = await response.json<{ items: { id: string }[]; total: number }>();
  return { ids: page.items.map((item) => item.id), total: page.total };
}

/** A Do Not Call request from the public page's API. */
export function requestDoNotCall(phone: string, extra: { email?: string; reason?: string } = {}) {
  return callApi("/api/do-not-call", { json: { phone, ...extra } });
}

/** A lead's sale and suppression columns, times in ms, as the tests compare them. */
export async function leadRow(id: string) {
  const [row] = await testDb()
    .select({
      soldAt: agedLeads.soldAt,
      suppressedAt: agedLeads.suppressedAt,
      phoneKey: agedLeads.phoneKey,
      soldToUserId: agedLeads.soldToUserId,
    })
    .from(agedLeads)
    .where(eq(agedLeads.id, id));
  if (!row) return null;
  return {
    sold_at: row.soldAt?.getTime() ?? null,
    suppressed_at: row.suppressedAt?.getTime() ?? null,
    phone_key: row.phoneKey,
    sold_to_user_id: row.soldToUserId,
  };
}
