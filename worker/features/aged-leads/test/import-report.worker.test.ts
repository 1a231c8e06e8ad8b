/**
 * The import report (product rule 15): GET /api/imports/:id/report.csv is a CSV download
 * with a header and one line per rejected row (its row number and reason), for admins only.
 */
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import type { BulkLeadRow } from "../../../../src/features/aged-leads/csv-mapping";
import {
  bulkRow,
  callApi,
  deliverToQueue,
  expectAdminOnly,
  signedIn,
  uniquePhones,
} from "../../../../tests/worker/helpers";

const uniquePhone = uniquePhones("7");
const lead = (rowNumber: number, overrides: Partial<BulkLeadRow> = {}) =>
  bulkRow(uniquePhone(), { rowNumber, ...overrides });

interface Rejection {
  rowNumber: number;
  reason: string;
}

/** An import of five rows: rows 2 and 5 valid, rows 3, 4 and 6 rejected; its queued batch is processed. */
async function importWithRejections(cookie: string) {
  const leads = [
    lead(2),
    lead(3, { name: "" }),
    lead(4, { email: "not-an-email" }),
    lead(5),
    lead(6, { formFillTime: "yesterday-ish" }),
  ];
  const upload = await callApi("/api/bulk-upload-aged-leads", {
    json: { batchNumber: 1, fileName: "report.csv", leads },
    cookie,
  });
  expect(upload.status).toBe(200);
  const { importId } = await upload.json<{ importId: string }>();
  await deliverToQueue([{ kind: "import-batch", importId, batchNumber: 1 }]);
  const status = await (await callApi(`/api/imports/${importId}`, { cookie })).json<{
    rowsInserted: number;
    rowsRejected: number;
    rejections: Rejection[];
  }>();
  expect(status).toMatchObject({ rowsInserted: 2, rowsRejected: 3 });
  return { importId, rejections: status.rejections };
}

const reportPath = (importId: string) => `/api/imports/${importId}/report.csv`;

describe("GET /api/imports/:id/report.csv", () => {
  it("is a CSV download: a header, then one line per rejected row with its row number and reason", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const { importId, rejections } = await importWithRejections(cookie);
    expect(rejections.map((r) => r.rowNumber)).toEqual([3, 4, 6]);

    const response = await callApi(reportPath(importId), { cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename=".+\.csv"$/);

    const rows = Papa.parse<string[]>(await response.text(), { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(["Row", "Outcome", "Reason"]);
    const rejected = rows.slice(1).filter((row) => row[1] === "rejected");
    expect(rejected.map(([row, , reason]) => ({ rowNumber: Number(row), reason }))).toEqual(rejections);
    for (const { reason } of rejections) expect(reason.length).toBeGreaterThan(0);
    // The valid rows (2 and 5) have no line of their own.
    expect(rows.some((row) => row[0] === "2" || row[0] === "5")).toBe(false);
  });

  it("has only the header and totals when no row was rejected", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const upload = await callApi("/api/bulk-upload-aged-leads", {
      json: { batchNumber: 1, fileName: "clean.csv", leads: [lead(2), lead(3)] },
      cookie,
    });
    const { importId } = await upload.json<{ importId: string }>();
    await deliverToQueue([{ kind: "import-batch", importId, batchNumber: 1 }]);
    const rows = Papa.parse<string[]>(await (await callApi(reportPath(importId), { cookie })).text(), {
      skipEmptyLines: true,
    }).data;
    expect(rows[0]).toEqual(["Row", "Outcome", "Reason"]);
    expect(rows.filter((row) => row[1] === "rejected")).toEqual([]);
  });

  it("is for admins only: 401 anonymous, 403 for a buyer; any admin may read it", async () => {
    const owner = await signedIn({ isAdmin: true });
    const { importId } = await importWithRejections(owner.cookie);
    await expectAdminOnly(reportPath(importId));
    const otherAdmin = await signedIn({ isAdmin: true });
    expect((await callApi(reportPath(importId), { cookie: otherAdmin.cookie })).status).toBe(200);
  });

  it("answers 404 with a message for an unknown import", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const response = await callApi(reportPath(crypto.randomUUID()), { cookie });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: expect.any(String) });
  });
});
