/**
 * Parses a CSV file off the main thread (product rule 15). `inspect` reads the whole file once: the header,
 * the row count, and the byte offset of every review page, so the dialog can page through a file of any
 * size while neither thread keeps its rows. `check` looks through the whole file for a row with the
 * required values under a mapping. `stream` maps rows and hands them over in batches, at most a few ahead
 * of the uploads ("next" acknowledges one), so memory stays bounded whatever the file's size.
 */
import { type BulkLeadRow, type FieldMapping, hasRequiredValues, mapRow } from "../../csv-mapping";
import { type FromWorker, PARSE_AHEAD_BATCHES, REVIEW_PAGE_ROWS, type ReviewRow, type ToWorker } from "./csv-protocol";
import { type Dialect, detectDialect, scanRows } from "./csv-scan";

const post = (message: FromWorker) => self.postMessage(message);

interface Inspected {
  file: File;
  dialect: Dialect;
  /** Byte offset of data row `page * REVIEW_PAGE_ROWS`, for every page. */
  pageOffsets: number[];
  totalRows: number;
}

let inspected: Inspected | null = null;
/** Batches handed over and not yet acknowledged, and who waits for an acknowledgement. */
let unacknowledged = 0;
let wakeStream: (() => void) | null = null;

async function inspect(file: File) {
  const dialect = await detectDialect(file);
  let headers: string[] | null = null;
  const pageOffsets: number[] = [];
  const firstPage: ReviewRow[] = [];
  let totalRows = 0;
  for await (const rows of scanRows(file, dialect)) {
    for (const row of rows) {
      if (!headers) {
        headers = row.cells.map((cell) => cell.trim());
        continue;
      }
      if (totalRows % REVIEW_PAGE_ROWS === 0) pageOffsets.push(row.offset);
      if (firstPage.length < REVIEW_PAGE_ROWS) firstPage.push({ rowNumber: totalRows + 2, cells: row.cells });
      totalRows += 1;
    }
  }
  inspected = { file, dialect, pageOffsets, totalRows };
  post({ type: "inspected", headers: headers ?? [], totalRows, firstPage });
}

function requireInspected(): Inspected {
  if (!inspected) throw new Error("No file has been read yet");
  return inspected;
}

async function page(number: number) {
  const { file, dialect, pageOffsets } = requireInspected();
  const offset = pageOffsets[number];
  const rows: ReviewRow[] = [];
  if (offset !== undefined) {
    scan: for await (const chunk of scanRows(file, dialect, offset)) {
      for (const row of chunk) {
        rows.push({ rowNumber: number * REVIEW_PAGE_ROWS + rows.length + 2, cells: row.cells });
        if (rows.length === REVIEW_PAGE_ROWS) break scan;
      }
    }
  }
  post({ type: "page", page: number, rows });
}

/** The data rows of the inspected file with their row numbers, in order. */
async function* dataRows(): AsyncGenerator<{ cells: string[]; rowNumber: number }> {
  const { file, dialect, pageOffsets } = requireInspected();
  const start = pageOffsets[0];
  if (start === undefined) return;
  let rowNumber = 1;
  for await (const chunk of scanRows(file, dialect, start)) {
    for (const row of chunk) {
      rowNumber += 1;
      yield { cells: row.cells, rowNumber };
    }
  }
}

async function check(mapping: FieldMapping) {
  for await (const { cells, rowNumber } of dataRows()) {
    if (hasRequiredValues(mapRow(cells, mapping, rowNumber))) {
      post({ type: "checked", firstValidRow: rowNumber });
      return;
    }
  }
  post({ type: "checked", firstValidRow: null });
}

async function stream(mapping: FieldMapping, batchSize: number) {
  let batchNumber = 0;
  let totalRows = 0;
  let pending: BulkLeadRow[] = [];
  const handOver = async () => {
    while (unacknowledged >= PARSE_AHEAD_BATCHES) await new Promise<void>((resolve) => (wakeStream = resolve));
    batchNumber += 1;
    unacknowledged += 1;
    post({ type: "batch", batchNumber, leads: pending });
    pending = [];
  };
  for await (const { cells, rowNumber } of dataRows()) {
    totalRows += 1;
    pending.push(mapRow(cells, mapping, rowNumber));
    if (pending.length === batchSize) await handOver();
  }
  if (pending.length > 0) await handOver();
  post({ type: "done", totalRows, batches: batchNumber });
}

async function handle(message: ToWorker) {
  if (message.type === "inspect") await inspect(message.file);
  else if (message.type === "page") await page(message.page);
  else if (message.type === "check") await check(message.mapping);
  else if (message.type === "stream") await stream(message.mapping, message.batchSize);
  else if (message.type === "next") {
    unacknowledged = Math.max(0, unacknowledged - 1);
    const wake = wakeStream;
    wakeStream = null;
    wake?.();
  }
}

self.onmessage = (event: MessageEvent<ToWorker>) => {
  handle(event.data).catch((error: unknown) =>
    post({ type: "error", message: error instanceof Error ? error.message : String(error) }),
  );
};
