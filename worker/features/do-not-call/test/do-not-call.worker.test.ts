/**
 * The public /do-not-call request suppresses a number everywhere at once
 * (marketplace, purchases, pings), is validated by the form's own schema and rate-limited by the one
 * limiter; and an import counts the suppressed rows in its report, storing them until the number leaves.
 */

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { LEAD_MESSAGES } from "../../../../src/features/aged-leads/schemas/admin-leads";
import { DO_NOT_CALL_MESSAGES, doNotCallConfirmation } from "../../../../src/features/do-not-call/suppression";
import { testDb } from "../../../../tests/worker/factories";
import { bulkRow, callApi, deliverToQueue, signedIn } from "../../../../tests/worker/helpers";
import { buyLeads } from "../../../../tests/worker/payment-fixtures";
import {
  freshPhone,
  insertLeads,
  leadRow,
  marketplace,
  requestDoNotCall,
  uniqueState,
  uploadList,
} from "../../../../tests/worker/suppression-fixtures";
import {
  createOpenOrder,
  createPartner,
  pingBody,
  routeAtCallingHours,
} from "../../../../tests/worker/transfer-fixtures";
import { doNotCallRequests, suppressionLists, suppressionNumbers } from "../../../db/schema";
import { ADDRESS_RULE } from "../../../services/rate-limiter";

// Pings route only inside the prospect's legal calling hours (docs/decisions/0064).
routeAtCallingHours();

describe("POST /api/do-not-call", () => {
  it("suppresses the number at once: gone from the marketplace, refused for purchase and for pings", async () => {
    const { cookie } = await signedIn();
    const state = uniqueState();
    const phone = freshPhone();
    const [id] = await insertLeads(state, [phone]);
    expect((await marketplace(cookie, state)).ids).toEqual([id]);

    const formatted = `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`;
    const response = await requestDoNotCall(`+1 ${formatted}`, { email: "me@example.com", reason: "Stop calling me" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ phone: formatted, message: doNotCallConfirmation(formatted) });

    // The very next requests, with no queue or cron in between.
    expect((await marketplace(cookie, state)).ids).toEqual([]);
    expect((await buyLeads(cookie, [id ?? ""])).status).toBe(409);
    const partner = await createPartner();
    await createOpenOrder();
    const ping = await callApi("/api/v1/transfers", { headers: partner.auth, json: pingBody({ phone }) });
    expect(ping.status).toBe(409);
    expect(await ping.json()).toMatchObject({ reason: "suppressed" });

    const [stored] = await testDb()
      .select({ email: doNotCallRequests.email, reason: doNotCallRequests.reason })
      .from(doNotCallRequests)
      .where(eq(doNotCallRequests.number, Number(phone)));
    expect(stored).toEqual({ email: "me@example.com", reason: "Stop calling me" });
  });

  it("counts a number asked for twice once on the shop's list", async () => {
    const phone = freshPhone();
    const count = async () => {
      const db = testDb();
      const [list] = await db
        .select({ id: suppressionLists.id, numbers: suppressionLists.numbers })
        .from(suppressionLists)
        .where(eq(suppressionLists.kind, "internal_dnc"));
      if (!list) return null;
      return {
        numbers: list.numbers,
        stored: await db.$count(suppressionNumbers, eq(suppressionNumbers.listId, list.id)),
      };
    };
    const before = await count();
    expect((await requestDoNotCall(phone)).status).toBe(200);
    expect((await requestDoNotCall(phone)).status).toBe(200);
    const after = await count();
    expect((after?.numbers ?? 0) - (before?.numbers ?? 0)).toBe(1);
    expect(after?.numbers).toBe(after?.stored);
  });

  it.each([
    ["no phone", {}, "phone", DO_NOT_CALL_MESSAGES.phone],
    ["a short phone", { phone: "555-0100" }, "phone", DO_NOT_CALL_MESSAGES.phone],
    ["a non-US phone", { phone: "+44 20 7946 0958" }, "phone", DO_NOT_CALL_MESSAGES.phone],
    ["a bad e-mail", { phone: "3055550100", email: "me@" }, "email", DO_NOT_CALL_MESSAGES.email],
    ["a reason too long", { phone: "3055550100", reason: "x".repeat(501) }, "reason", DO_NOT_CALL_MESSAGES.reason],
  ])("refuses %s with the form's message, suppressing nothing", async (_, body, field, message) => {
    const before = await testDb().$count(doNotCallRequests);
    const response = await callApi("/api/do-not-call", { json: body });
    expect(response.status).toBe(400);
    expect((await response.json<{ errors: Record<string, string> }>()).errors[field]).toBe(message);
    expect(await testDb().$count(doNotCallRequests)).toBe(before);
  });

  it(`is rate-limited: at most ${ADDRESS_RULE.limit} requests a minute from one address`, async () => {
    const headers = { "CF-Connecting-IP": `10.77.${Math.floor(Math.random() * 250)}.9` };
    const statuses: number[] = [];
    for (let i = 0; i <= ADDRESS_RULE.limit; i++) {
      statuses.push((await callApi("/api/do-not-call", { headers, json: { phone: freshPhone() } })).status);
    }
    expect(statuses.slice(0, ADDRESS_RULE.limit).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe("an import counts suppressed rows", () => {
  it("reports them, stores them, and lists them once their number leaves the list", async () => {
    const { cookie: admin } = await signedIn({ isAdmin: true });
    const { cookie } = await signedIn();
    const state = uniqueState();
    const [onList, clean] = [freshPhone(), freshPhone()];
    const list = await uploadList({ cookie: admin, kind: "litigator", add: [Number(onList)] });

    const upload = await callApi("/api/bulk-upload-aged-leads", {
      cookie: admin,
      json: {
        batchNumber: 1,
        fileName: "leads.csv",
        leads: [bulkRow(onList, { rowNumber: 2, state }), bulkRow(clean, { rowNumber: 3, state })],
      },
    });
    const { importId } = await upload.json<{ importId: string }>();
    await deliverToQueue([{ kind: "import-batch", importId, batchNumber: 1 }]);
    const status = await (await callApi(`/api/imports/${importId}`, { cookie: admin })).json();
    expect(status).toMatchObject({ rowsReceived: 2, rowsInserted: 2, rowsSuppressed: 1, rowsRejected: 0, done: true });
    const report = await (await callApi(`/api/imports/${importId}/report.csv`, { cookie: admin })).text();
    expect(report).toContain('"Of which suppressed (on a Do Not Call list: stored, not for sale)",1');
    expect((await marketplace(cookie, state)).total).toBe(1);

    await uploadList({ cookie: admin, listId: list.listId, contents: "deletions", remove: [Number(onList)] });
    expect((await marketplace(cookie, state)).total).toBe(2);
  });

  it("refuses a row whose phone is no US number: it could not be checked against any list", async () => {
    const { cookie: admin } = await signedIn({ isAdmin: true });
    const upload = await callApi("/api/bulk-upload-aged-leads", {
      cookie: admin,
      json: { batchNumber: 1, leads: [bulkRow("+44 20 7946 0958", { rowNumber: 2 })] },
    });
    const { importId } = await upload.json<{ importId: string }>();
    const status = await (await callApi(`/api/imports/${importId}`, { cookie: admin })).json();
    expect(status).toMatchObject({ rowsRejected: 1, rejections: [{ rowNumber: 2, reason: LEAD_MESSAGES.phoneUs }] });
  });

  it("a lead stored with a phone that is no US number is never listed (fail closed)", async () => {
    const { cookie } = await signedIn();
    const state = uniqueState();
    const [id] = await insertLeads(state, ["+44 20 7946 0958"]);
    expect(await leadRow(id ?? "")).toMatchObject({ phone_key: null, suppressed_at: expect.any(Number) });
    expect((await marketplace(cookie, state)).total).toBe(0);
  });
});
