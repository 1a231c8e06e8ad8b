/**
 * Streaming CSV reading for the parse worker: reads a file in byte slices, decodes UTF-8 across slice
 * boundaries, parses with papaparse's core parser and carries an unfinished row (a quoted field with a
 * line break included) into the next slice. Rows come with their byte offset in the file, so the worker
 * can page back into a file of any size without keeping its rows.
 */
import Papa from "papaparse";
import { isEmptyRow } from "../../csv-mapping";

/** Read the file in slices of this size, so that only a couple of batches are ever in memory. */
const CHUNK_BYTES = 512 * 1024;

export interface Dialect {
  delimiter: string;
  newline: "\r" | "\n" | "\r\n";
}

/** One non-empty row and the byte offset in the file where it starts. */
export interface ScannedRow {
  cells: string[];
  offset: number;
}

const NON_ASCII = /[\u0080-\uffff]/;

/** UTF-8 byte length of `text` from `from` to `to` (characters). */
function utf8Length(text: string, from: number, to: number): number {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < to) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** The file's delimiter and line break, guessed by papaparse from its first slice. */
export async function detectDialect(file: Blob): Promise<Dialect> {
  const head = new TextDecoder().decode(await file.slice(0, 64 * 1024).arrayBuffer());
  const { meta } = Papa.parse<string[]>(head, { preview: 20, skipEmptyLines: "greedy" });
  const newline = meta.linebreak === "\r\n" || meta.linebreak === "\r" ? meta.linebreak : "\n";
  return { delimiter: meta.delimiter || ",", newline };
}

/**
 * The non-empty rows of `file` from byte `start` (which must begin a row), one slice at a time. Stop
 * early by leaving the loop; nothing more is read.
 */
export async function* scanRows(
  file: Blob,
  dialect: Dialect,
  start = 0,
  chunkBytes = CHUNK_BYTES,
): AsyncGenerator<ScannedRow[]> {
  // Keep a byte order mark in the text, so that the offsets count its bytes; it is dropped below.
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let carry = "";
  let carryStart = start;
  let position = start;
  while (position < file.size) {
    const end = Math.min(file.size, position + chunkBytes);
    const last = end >= file.size;
    const decoded = decoder.decode(await file.slice(position, end).arrayBuffer(), { stream: !last });
    position = end;
    let text = carry + decoded;
    let textStart = carryStart;
    if (textStart === 0 && text.charCodeAt(0) === 0xfeff) {
      text = text.slice(1);
      textStart = 3;
    }
    const ascii = !NON_ASCII.test(text);
    const ends: number[] = [];
    const rows: string[][] = [];
    const parser = new Papa.Parser({
      delimiter: dialect.delimiter,
      newline: dialect.newline,
      step: (result: { data: string[][]; meta: { cursor: number } }) => {
        const row = result.data[0];
        if (row) rows.push(row);
        ends.push(result.meta.cursor);
      },
    });
    parser.parse(text, 0, !last);
    // The characters parsed up to the end of the last complete row; the rest waits for the next slice.
    const consumed = ends.at(-1) ?? 0;
    const out: ScannedRow[] = [];
    let charAt = 0;
    let byteAt = textStart;
    for (const [index, cells] of rows.entries()) {
      if (!isEmptyRow(cells)) out.push({ cells, offset: byteAt });
      const rowEnd = ends[index] ?? consumed;
      byteAt += ascii ? rowEnd - charAt : utf8Length(text, charAt, rowEnd);
      charAt = rowEnd;
    }
    carry = last ? "" : text.slice(consumed);
    carryStart = byteAt;
    if (out.length > 0) yield out;
    if (last) return;
  }
}
