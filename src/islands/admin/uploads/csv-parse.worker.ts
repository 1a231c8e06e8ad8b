/**
 * Parses a CSV file off the main thread with papaparse, streaming: `inspect` reads the header, keeps a
 * preview and counts the rows; `stream` maps rows and hands them over 1,000 at a time, pausing until the
 * page asks for the next batch, so memory stays bounded whatever the file's size.
 */
import Papa, { type Parser } from "papaparse";
import { type BulkLeadRow, isEmptyRow, mapRow } from "../../../domain/csv-mapping";
import { type FromWorker, PREVIEW_ROWS, type ToWorker } from "./csv-protocol";

const post = (message: FromWorker) => self.postMessage(message);
/** Read the file in small slices so that only a couple of batches are ever in memory. */
const CHUNK_BYTES = 256 * 1024;
let waiting: Parser | null = null;

function inspect(file: File) {
  let headers: string[] | null = null;
  const preview: string[][] = [];
  let totalRows = 0;
  Papa.parse<string[]>(file, {
    skipEmptyLines: "greedy",
    chunkSize: CHUNK_BYTES,
    chunk: (results) => {
      for (const row of results.data) {
        if (isEmptyRow(row)) continue;
        if (!headers) {
          headers = row.map((cell) => cell.trim());
          continue;
        }
        totalRows += 1;
        if (preview.length < PREVIEW_ROWS) preview.push(row);
      }
    },
    complete: () => post({ type: "inspected", headers: headers ?? [], preview, totalRows }),
    error: (error) => post({ type: "error", message: error.message }),
  });
}

function stream(file: File, message: Extract<ToWorker, { type: "stream" }>) {
  let seenHeader = false;
  let rowNumber = 1;
  let batchNumber = 0;
  let totalRows = 0;
  let pending: BulkLeadRow[] = [];
  const flush = (parser: Parser | null, bytesRead: number) => {
    batchNumber += 1;
    post({ type: "batch", batchNumber, leads: pending, bytesRead });
    pending = [];
    if (parser) {
      parser.pause();
      waiting = parser;
    }
  };
  Papa.parse<string[]>(file, {
    skipEmptyLines: "greedy",
    chunkSize: CHUNK_BYTES,
    chunk: (results, parser) => {
      for (const row of results.data) {
        if (isEmptyRow(row)) continue;
        if (!seenHeader) {
          seenHeader = true;
          continue;
        }
        rowNumber += 1;
        totalRows += 1;
        pending.push(mapRow(row, message.mapping, rowNumber));
      }
      if (pending.length >= message.batchSize) {
        // A chunk can hold more than one batch: hand over all but the last, which waits for "next".
        while (pending.length > message.batchSize) {
          const rest = pending.slice(message.batchSize);
          pending = pending.slice(0, message.batchSize);
          batchNumber += 1;
          post({ type: "batch", batchNumber, leads: pending, bytesRead: results.meta.cursor });
          pending = rest;
        }
        flush(parser, results.meta.cursor);
      }
    },
    complete: () => {
      if (pending.length > 0) flush(null, file.size);
      post({ type: "done", totalRows, batches: batchNumber });
    },
    error: (error) => post({ type: "error", message: error.message }),
  });
}

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  try {
    if (message.type === "inspect") inspect(message.file);
    else if (message.type === "stream") stream(message.file, message);
    else if (message.type === "next" && waiting) {
      const parser = waiting;
      waiting = null;
      parser.resume();
    }
  } catch (error) {
    post({ type: "error", message: error instanceof Error ? error.message : String(error) });
  }
};
