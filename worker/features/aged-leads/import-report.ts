/** An import's report as CSV (product rule 15): every rejected row, then the totals (decision 0069 for call-backs). */
import { and, asc, eq, gt } from "drizzle-orm";
import { csvLines } from "../../../src/domain/csv-writer";
import type { ImportStatus } from "../../../src/features/aged-leads/schemas/admin-leads";
import { importRejections } from "../../db/schema";
import type { Deps } from "../../deps";

/** Rejections read per query for the report: a million-row import needs a few hundred queries at most. */
const REPORT_PAGE_ROWS = 5000;

async function* rejectionPages(deps: Deps, importId: string) {
  const { db } = deps;
  let after = 0;
  for (;;) {
    const page = await db
      .select({ rowNumber: importRejections.rowNumber, reason: importRejections.reason })
      .from(importRejections)
      .where(and(eq(importRejections.importId, importId), gt(importRejections.rowNumber, after)))
      .orderBy(asc(importRejections.rowNumber))
      .limit(REPORT_PAGE_ROWS);
    if (page.length > 0) yield page;
    const last = page.at(-1);
    if (!last || page.length < REPORT_PAGE_ROWS) return;
    after = last.rowNumber;
  }
}

/** The reason is always quoted (it is free text); row number and outcome never need it. */
const REPORT_QUOTES = [false, false, true];

/** A call-back import's totals (decision 0069): taken in (placed, or waiting for an order) and rejected. */
const callbackTotals = (status: ImportStatus) => [
  ["Rows received", status.rowsReceived],
  ["Call-backs taken in", status.rowsInserted],
  ["Of which placed in an order", status.rowsPlaced],
  ["Of which waiting for an order", status.rowsInserted - status.rowsPlaced],
  ["Rejected", status.rowsRejected],
];

/** The import's report as CSV (every rejected row, then the totals), streamed page by page. */
export function importReportCsv(deps: Deps, status: ImportStatus): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const pages = rejectionPages(deps, status.id);
  let started = false;
  return new ReadableStream({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`${csvLines([["Row", "Outcome", "Reason"]])}\r\n`));
        return;
      }
      const next = await pages.next();
      if (!next.done) {
        controller.enqueue(
          encoder.encode(
            `${csvLines(
              next.value.map((r) => [r.rowNumber, "rejected", r.reason]),
              REPORT_QUOTES,
            )}\r\n`,
          ),
        );
        return;
      }
      const totals = csvLines(
        status.kind === "callbacks"
          ? callbackTotals(status)
          : [
              ["Rows received", status.rowsReceived],
              ["Inserted", status.rowsInserted],
              ["Of which suppressed (on a Do Not Call list: stored, not for sale)", status.rowsSuppressed],
              ["Duplicates skipped", status.rowsDuplicate],
              ["Rejected", status.rowsRejected],
              ["With certificate", status.rowsCertified],
              [
                status.certificateRequired ? "Without certificate (stored, not for sale)" : "Without certificate",
                status.rowsUncertified,
              ],
            ],
      );
      controller.enqueue(encoder.encode(`\r\n${totals}`));
      controller.close();
    },
  });
}
