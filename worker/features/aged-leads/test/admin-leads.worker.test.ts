import { env } from "cloudflare:workers";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { BulkLeadRow } from "../../../../src/features/aged-leads/csv-mapping";
import type { ImportStatus } from "../../../../src/features/aged-leads/schemas/admin-leads";
import { testDb } from "../../../../tests/worker/factories";
import {
  bulkRow,
  callApi,
  deliverToQueue,
  expectAdminOnly,
  signedIn,
  uniquePhones,
} from "../../../../tests/worker/helpers";
import { agedLeads, importBatches, importRejections } from "../../../db/schema";
import type { ImportBatchMessage } from "../imports";

const DAY = 86_400_000;
const uniquePhone = uniquePhones("6");

const row = (overrides: Partial<BulkLeadRow> = {}) => bulkRow(uniquePhone(), overrides);

const deliver = (messages: ImportBatchMessage[], attempts = 1) => deliverToQueue(messages, { attempts });

async function status(importId: string, cookie: string) {
  return (await callApi(`/api/imports/${importId}`, { cookie })).json<ImportStatus>();
}

describe("POST /api/admin/aged-leads", () => {
  it("is for admins only", () => expectAdminOnly("/api/admin/aged-leads", { json: { name: "x" } }));

  it("stores a lead priced by age (product rule 5), and refuses the same phone and form fill time twice", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const phone = uniquePhone();
    const formFillTime = new Date(Date.now() - 75 * DAY).toISOString();
    const response = await callApi("/api/admin/aged-leads", {
      json: { name: "Lena Lead", phone, state: "OK", formFillTime, actualAge: 75 },
      cookie,
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({
      message: "Aged lead uploaded successfully",
      ageRange: "60-90",
      priceCents: 400,
    });
    const again = await callApi("/api/admin/aged-leads", {
      json: { name: "Lena Lead", phone, state: "OK", formFillTime },
      cookie,
    });
    expect(again.status).toBe(409);
    const listed = await (await callApi("/api/admin/aged-leads", { cookie })).json<{ phone: string }[]>();
    expect(listed.some((lead) => lead.phone === phone)).toBe(true);
  });

  it("takes an explicit price and an age range without a form fill time", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const priced = await callApi("/api/admin/aged-leads", {
      json: { name: "P", phone: uniquePhone(), state: "TX", price: 7.5 },
      cookie,
    });
    expect(await priced.json()).toMatchObject({ priceCents: 750 });
    const banded = await callApi("/api/admin/aged-leads", {
      json: { name: "B", phone: uniquePhone(), state: "TX", ageRange: "90-180" },
      cookie,
    });
    expect(await banded.json()).toMatchObject({ ageRange: "90-180", priceCents: 300 });
  });

  it.each([
    ["name", "", "Name is required"],
    ["email", "nope", "Valid email required"],
    ["phone", "12345", "Phone number required"],
    ["state", "T", "State is required"],
  ])("refuses %s = %j with '%s'", async (field, value, message) => {
    const { cookie } = await signedIn({ isAdmin: true });
    const response = await callApi("/api/admin/aged-leads", {
      json: { name: "Ok", phone: uniquePhone(), state: "TX", [field]: value },
      cookie,
    });
    expect(response.status).toBe(400);
    expect((await response.json<{ errors: Record<string, string> }>()).errors[field]).toBe(message);
  });
});

describe("POST /api/admin/callback-opportunities", () => {
  /** A call-back's window tomorrow (docs/decisions/0059; worker/features/callbacks/test/admin-callbacks.worker.test.ts covers it). */
  const window = { date: new Date(Date.now() + DAY).toISOString().slice(0, 10), from: "10:00", to: "12:00" };
  it("is for admins only", () => expectAdminOnly("/api/admin/callback-opportunities", { json: {} }));

  it("stores the opportunity and lists it", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const body = { name: "Cal Back", email: "cal@example.com", phone: "5557778888", state: "GA", price: 15, ...window };
    const response = await callApi("/api/admin/callback-opportunities", { json: body, cookie });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ message: "Callback opportunity uploaded successfully" });
    const list = await (await callApi("/api/admin/callback-opportunities", { cookie })).json<
      { name: string; priceCents: number }[]
    >();
    expect(list[0]).toMatchObject({ name: "Cal Back", priceCents: 1500 });
  });

  it.each([
    ["name", "", "Name is required"],
    ["email", "", "Valid email required"],
    ["phone", "555", "Phone number required"],
    ["state", "", "State is required"],
    ["price", "", "Price is required"],
  ])("refuses %s = %j with '%s'", async (field, value, message) => {
    const { cookie } = await signedIn({ isAdmin: true });
    const body = {
      name: "Cal",
      email: "cal@example.com",
      phone: "5557778888",
      state: "GA",
      price: 15,
      ...window,
      [field]: value,
    };
    const response = await callApi("/api/admin/callback-opportunities", { json: body, cookie });
    expect(response.status).toBe(400);
    expect((await response.json<{ errors: Record<string, string> }>()).errors[field]).toBe(message);
  });
});

describe("bulk import (product rule 15)", () => {
  it("is for admins only", async () => {
    await expectAdminOnly("/api/bulk-upload-aged-leads", { json: { batchNumber: 1, leads: [row()] } });
    await expectAdminOnly("/api/imports/anything");
  });

  it("accounts for every row: inserted, duplicate or rejected with its row number and reason", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const existingPhone = uniquePhone();
    await callApi("/api/admin/aged-leads", { json: { name: "Old", phone: existingPhone, state: "TX" }, cookie });
    const leads = [
      row({ rowNumber: 2, formFillTime: "2026-09-01 10:00:00" }),
      row({ rowNumber: 3, price: 6 }),
      row({ rowNumber: 4, phone: existingPhone }),
      row({ rowNumber: 5, name: "" }),
      row({ rowNumber: 6, email: "bad-email" }),
      row({ rowNumber: 7, formFillTime: "yesterday-ish" }),
    ];
    const upload = await callApi("/api/bulk-upload-aged-leads", {
      json: { batchNumber: 1, fileName: "leads.csv", leads },
      cookie,
    });
    expect(upload.status).toBe(200);
    const accepted = await upload.json<{ importId: string; count: number; queued: number; rejected: number }>();
    expect(accepted).toMatchObject({ count: 6, queued: 3, rejected: 3 });

    const before = await status(accepted.importId, cookie);
    expect(before).toMatchObject({ rowsReceived: 6, rowsRejected: 3, done: false });

    const result = await deliver([{ kind: "import-batch", importId: accepted.importId, batchNumber: 1 }]);
    expect(result.explicitAcks).toHaveLength(1);
    const after = await status(accepted.importId, cookie);
    expect(after).toMatchObject({
      rowsReceived: 6,
      rowsInserted: 2,
      rowsDuplicate: 1,
      rowsRejected: 3,
      batchesDone: 1,
      done: true,
    });
    expect(after.rejections).toEqual([
      { rowNumber: 5, reason: "Name is required" },
      { rowNumber: 6, reason: "Valid email required" },
      { rowNumber: 7, reason: "Form fill time is not a date (use YYYY-MM-DD HH:MM:SS)" },
    ]);

    const report = await callApi(`/api/imports/${accepted.importId}/report.csv`, { cookie });
    expect(report.headers.get("content-disposition")).toContain("attachment");
    expect(await report.text()).toContain('5,rejected,"Name is required"');
  });

  it("never duplicates rows when a batch is sent twice or its message is redelivered", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const leads = [row({ rowNumber: 2 }), row({ rowNumber: 3 })];
    const first = await (
      await callApi("/api/bulk-upload-aged-leads", { json: { batchNumber: 1, leads }, cookie })
    ).json<{ importId: string }>();
    const resend = await callApi("/api/bulk-upload-aged-leads", {
      json: { importId: first.importId, batchNumber: 1, leads },
      cookie,
    });
    expect(resend.status).toBe(200);
    const message: ImportBatchMessage = { kind: "import-batch", importId: first.importId, batchNumber: 1 };
    await deliver([message]);
    const redelivered = await deliver([message], 2);
    expect(redelivered.explicitAcks).toHaveLength(1);
    const final = await status(first.importId, cookie);
    expect(final).toMatchObject({ rowsReceived: 2, rowsInserted: 2, rowsDuplicate: 0, batchesReceived: 1, done: true });
    expect(await testDb().$count(agedLeads, eq(agedLeads.importId, first.importId))).toBe(2);
  });

  it("retries a failing batch and reports its rows when it keeps failing", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const upload = await (
      await callApi("/api/bulk-upload-aged-leads", {
        json: { batchNumber: 1, leads: [row({ rowNumber: 2 }), row({ rowNumber: 3 })] },
        cookie,
      })
    ).json<{ importId: string }>();
    await env.DOCUMENTS.put(`imports/${upload.importId}/1.json`, "not json");
    const message: ImportBatchMessage = { kind: "import-batch", importId: upload.importId, batchNumber: 1 };
    const early = await deliver([message], 1);
    expect(early.retryMessages).toHaveLength(1);
    // The stored rows are unreadable, so the final report cannot name them: restore them first.
    await env.DOCUMENTS.put(`imports/${upload.importId}/1.json`, JSON.stringify([{ rowNumber: 2 }, { rowNumber: 3 }]));
    await testDb().update(importBatches).set({ rowCount: 2 }).where(eq(importBatches.importId, upload.importId));
    // raw SQL: a trigger that fails the batch's inserts, the failure under test
    await env.DB.exec(
      `CREATE TRIGGER IF NOT EXISTS fail_import_insert BEFORE INSERT ON aged_leads WHEN NEW.import_id = '${upload.importId}' BEGIN SELECT RAISE(ABORT, 'disk full'); END;`,
    );
    const last = await deliver([message], 6);
    await env.DB.exec("DROP TRIGGER fail_import_insert");
    expect(last.explicitAcks).toHaveLength(1);
    const final = await status(upload.importId, cookie);
    expect(final).toMatchObject({ rowsReceived: 2, rowsRejected: 2, batchesFailed: 1, done: true });
    expect(final.rejections[0]?.reason).toContain("batch 1 failed");
  });

  it("refuses empty and oversized batches and unknown imports", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const empty = await callApi("/api/bulk-upload-aged-leads", { json: { batchNumber: 1, leads: [] }, cookie });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ message: "No Valid Data" });
    const tooBig = await callApi("/api/bulk-upload-aged-leads", {
      json: { batchNumber: 1, leads: Array.from({ length: 1001 }, () => row()) },
      cookie,
    });
    expect(tooBig.status).toBe(400);
    const unknown = await callApi("/api/bulk-upload-aged-leads", {
      json: { importId: "nope", batchNumber: 2, leads: [row()] },
      cookie,
    });
    expect(unknown.status).toBe(404);
    expect((await callApi("/api/imports/nope", { cookie })).status).toBe(404);
  });
});

describe("one lead rule for the single form and CSV rows", () => {
  it.each([
    ["phone", "phone-here", "Phone number required"],
    ["phone", "(214) 555-01", "Phone number required"],
    ["email", "ann@example", "Valid email required"],
    ["email", "a@b.c", "Valid email required"],
    ["ageRange", "45", "Age range must be 30-60, 60-90 or 90-180"],
    ["price", "4.505", "Price must be in whole cents"],
  ])("refuses %s = %j with the same message from the form and in the import report", async (field, value, message) => {
    const { cookie } = await signedIn({ isAdmin: true });
    const single = await callApi("/api/admin/aged-leads", {
      json: { name: "Ok", phone: uniquePhone(), state: "TX", [field]: value },
      cookie,
    });
    expect(single.status).toBe(400);
    expect((await single.json<{ errors: Record<string, string> }>()).errors[field]).toBe(message);

    const lead = { name: "Ok", phone: uniquePhone(), state: "TX", [field]: value };
    const upload = await callApi("/api/bulk-upload-aged-leads", { json: { leads: [lead] }, cookie });
    expect(upload.status).toBe(200);
    const { importId } = await upload.json<{ importId: string }>();
    expect((await status(importId, cookie)).rejections).toEqual([{ rowNumber: 2, reason: message }]);
  });

  it("accepts a formatted phone the same way from both, storing the same area code and price", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    // Ten digits of its own (uniquePhone grows an eleventh after 999 calls in this file).
    const digits = `7${String(Date.now()).slice(-9)}`;
    const formatted = `+1 (${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
    const single = await callApi("/api/admin/aged-leads", {
      json: { name: "Form", phone: formatted, state: "TX", price: "4.50" },
      cookie,
    });
    expect(await single.json()).toMatchObject({ priceCents: 450 });
    const upload = await callApi("/api/bulk-upload-aged-leads", {
      json: {
        leads: [{ name: "Csv", phone: formatted, state: "TX", price: "$4.50", formFillTime: "2026-01-02 03:04:05" }],
      },
      cookie,
    });
    const { importId } = await upload.json<{ importId: string }>();
    await deliver([{ kind: "import-batch", importId, batchNumber: 1 }]);
    const stored = await testDb()
      .select({ name: agedLeads.name, areaCode: agedLeads.areaCode, priceCents: agedLeads.priceCents })
      .from(agedLeads)
      .where(eq(agedLeads.phone, formatted))
      .orderBy(asc(agedLeads.name));
    expect(stored).toEqual([
      { name: "Csv", areaCode: digits.slice(0, 3), priceCents: 450 },
      { name: "Form", areaCode: digits.slice(0, 3), priceCents: 450 },
    ]);
  });
});

describe("GET /api/imports/:id/report.csv", () => {
  it("escapes a reason that a spreadsheet would run as a formula", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const upload = await callApi("/api/bulk-upload-aged-leads", { json: { leads: [row({ name: "" })] }, cookie });
    const { importId } = await upload.json<{ importId: string }>();
    // A reason is the shop's own text; one written straight into D1 stands for any that starts with '='.
    await testDb()
      .update(importRejections)
      .set({ reason: '=HYPERLINK("http://evil.example","x")' })
      .where(eq(importRejections.importId, importId));
    const text = await (await callApi(`/api/imports/${importId}/report.csv`, { cookie })).text();
    expect(text.split("\r\n")).toEqual([
      "Row,Outcome,Reason",
      `2,rejected,"'=HYPERLINK(""http://evil.example"",""x"")"`,
      "",
      "Rows received,1",
      "Inserted,0",
      '"Of which suppressed (on a Do Not Call list: stored, not for sale)",0',
      "Duplicates skipped,0",
      "Rejected,1",
      "With certificate,0",
      "Without certificate,0",
    ]);
  });
});

describe("bulk import with the spec's payload", () => {
  it("accepts bare lead objects and a field mapping, numbering batches and rows itself", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const lead = {
      name: "Spec Shape",
      email: "spec@example.com",
      phone: uniquePhone(),
      state: "CO",
      ageRange: "60-90",
      price: "abc",
      formFillTime: "",
      actualAge: 3,
    };
    const fieldMapping = { name: 0, email: 1, phone: 2, state: 3, ageRange: 4, price: 5 };
    const first = await callApi("/api/bulk-upload-aged-leads", {
      json: { leads: [lead, { ...lead, name: "" }], fieldMapping },
      cookie,
    });
    expect(first.status).toBe(200);
    const accepted = await first.json<{ importId: string; batchNumber: number; count: number }>();
    expect(accepted).toMatchObject({ batchNumber: 1, count: 2 });
    const second = await callApi("/api/bulk-upload-aged-leads", {
      json: { importId: accepted.importId, leads: [{ ...lead, phone: uniquePhone() }], fieldMapping },
      cookie,
    });
    expect(await second.json()).toMatchObject({ batchNumber: 2, count: 1 });
    const report = await status(accepted.importId, cookie);
    expect(report).toMatchObject({ rowsReceived: 3, rowsRejected: 1 });
    expect(report.rejections).toEqual([{ rowNumber: 3, reason: "Name is required" }]);
  });
});
