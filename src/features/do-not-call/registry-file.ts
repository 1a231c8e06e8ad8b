/**
 * The National Do Not Call Registry's files for one area code, read into bits (registry-bitmap.ts;
 * docs/decisions/0065-do-not-call-registry-as-bitmaps.md, docs/decisions/0083-loading-the-whole-registry.md).
 * Two formats, both ASCII, one record a line, each line ending in a newline (`\r\n` is taken too):
 * - a full list, the FTC's flat file: the area code, a comma and the 7-digit number (`555,1234567`);
 * - a change list: area code, number, the day of the change and `A` (added to the registry) or `D`
 *   (deleted), comma-separated: `555,1234567,2026-11-27,A`. Lines apply in order, so a number added then
 *   deleted in one file ends deleted.
 * The shop's earlier forms stay readable: 10 digits a line (`5551234567`) and `5551234567,A`.
 * Strict on purpose, unlike the typed-by-people lists of suppression-file.ts: the bits are exact, so a line
 * that is not one of these, a number of another area code, an empty file or a file cut off mid-line refuses
 * the whole file, and the caller keeps its bitmap as it was. The reader takes the file piece by piece
 * (bytes, never one string), so an area code's millions of lines never sit in memory as text.
 */
import { AreaCodeBitmap, areaCodeOf, isAreaCode } from "./registry-bitmap.ts";

export type RegistryFileKind = "full" | "changes";

/** The longest line any format has (`555,1234567,2026-11-27,A\r`); past it the line is refused without keeping it. */
const MAX_LINE_BYTES = 25;
const NEWLINE = 10;
const RETURN = 13;
const COMMA = 44;
const ADD = 65;
const DELETE = 68;
const ZERO = 48;
const DASH = 45;
/** Where the fields of a change list's line start: `555,1234567,2026-11-27,A`. */
const CHANGE_LINE = { length: 24, date: 12, flag: 23 } as const;

export const REGISTRY_FILE_ERRORS = {
  empty: (kind: RegistryFileKind) =>
    kind === "full"
      ? "The file is empty: a full list holds at least one number."
      : "The file is empty: a change list holds at least one change.",
  truncated: (line: number) =>
    `Line ${line} does not end with a newline: the file looks cut off (every line, the last too, ends with one).`,
  format: (line: number, kind: RegistryFileKind, text: string) =>
    kind === "full"
      ? `Line ${line} is not an area code and a 7-digit number (555,1234567): "${text}".`
      : `Line ${line} is not an area code, a 7-digit number, a day and A or D (555,1234567,2026-11-27,A): "${text}".`,
  areaCode: (line: number, key: number, areaCode: number) =>
    `Line ${line}: ${key} is not in area code ${areaCode}, the file's area code.`,
  noAreaCode: (areaCode: number) => `${areaCode} is no area code (200-999).`,
} as const;

/** A file refused whole, with the line it was refused at (null for the file as a whole). */
export class RegistryFileError extends Error {
  readonly line: number | null;
  constructor(message: string, line: number | null) {
    super(message);
    this.name = "RegistryFileError";
    this.line = line;
  }
}

/** What a change list did: numbers it really added or removed (an `A` of a listed number changes nothing). */
export interface RegistryChangeCounts {
  added: number;
  removed: number;
  lines: number;
}

/** Printable text of a refused line (as much of it as was kept), cut short so a message stays readable. */
function shown(bytes: Uint8Array, length: number): string {
  const kept = Math.min(length, bytes.byteLength);
  const text = String.fromCharCode(...bytes.subarray(0, kept)).replace(/[^\x20-\x7e]/g, "?");
  return length > kept ? `${text}…` : text;
}

/**
 * Reads one file of `kind` for `areaCode`, piece by piece: `push` each chunk, then `end`. Every accepted
 * line goes to `take(key, add)`; any refusal throws `RegistryFileError`.
 */
class RegistryLineReader {
  readonly #line = new Uint8Array(MAX_LINE_BYTES + 1);
  #length = 0;
  #lineNumber = 0;
  #bytes = 0;

  readonly kind: RegistryFileKind;
  readonly areaCode: number;
  readonly take: (key: number, add: boolean) => void;

  constructor(kind: RegistryFileKind, areaCode: number, take: (key: number, add: boolean) => void) {
    this.kind = kind;
    this.areaCode = areaCode;
    this.take = take;
  }

  push(chunk: Uint8Array): void {
    this.#bytes += chunk.byteLength;
    for (let i = 0; i < chunk.byteLength; i++) {
      const byte = chunk[i] as number;
      if (byte === NEWLINE) this.#endLine();
      else if (this.#length <= MAX_LINE_BYTES) this.#line[this.#length++] = byte;
      else this.#length++;
    }
  }

  /** The number of lines read; throws when the file was empty or did not end with a newline. */
  end(): number {
    if (this.#bytes === 0) throw new RegistryFileError(REGISTRY_FILE_ERRORS.empty(this.kind), null);
    if (this.#length > 0) throw new RegistryFileError(REGISTRY_FILE_ERRORS.truncated(this.#lineNumber + 1), null);
    return this.#lineNumber;
  }

  #endLine(): void {
    this.#lineNumber++;
    let length = this.#length;
    this.#length = 0;
    const line = this.#line;
    if (length > 0 && line[length - 1] === RETURN) length--;
    const refuse = () =>
      new RegistryFileError(
        REGISTRY_FILE_ERRORS.format(this.#lineNumber, this.kind, shown(line, length)),
        this.#lineNumber,
      );
    const parsed = this.kind === "full" ? fullLine(line, length) : changeLine(line, length);
    if (parsed === null) throw refuse();
    const { key, add } = parsed;
    if (areaCodeOf(key) !== this.areaCode) {
      throw new RegistryFileError(
        REGISTRY_FILE_ERRORS.areaCode(this.#lineNumber, key, this.areaCode),
        this.#lineNumber,
      );
    }
    this.take(key, add);
  }
}

/** `count` digits from `at` as a number, or -1 when one is no digit. */
function digits(line: Uint8Array, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const digit = (line[i] as number) - ZERO;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** The phone key of `555,1234567` (from `at`), or -1. */
function commaNumber(line: Uint8Array, at: number): number {
  const areaCode = digits(line, at, 3);
  const number = digits(line, at + 4, 7);
  return line[at + 3] !== COMMA || areaCode < 0 || number < 0 ? -1 : areaCode * 10_000_000 + number;
}

/** A full list's line: `555,1234567`, or the earlier `5551234567`. */
function fullLine(line: Uint8Array, length: number): { key: number; add: boolean } | null {
  const key = length === 11 ? commaNumber(line, 0) : length === 10 ? digits(line, 0, 10) : -1;
  return key < 0 ? null : { key, add: true };
}

/** `2026-11-27` at `at`: digits and dashes, a month 01-12 and a day 01-31. */
function isDay(line: Uint8Array, at: number): boolean {
  const year = digits(line, at, 4);
  const month = digits(line, at + 5, 2);
  const day = digits(line, at + 8, 2);
  return (
    year >= 0 && line[at + 4] === DASH && line[at + 7] === DASH && month >= 1 && month <= 12 && day >= 1 && day <= 31
  );
}

/** A change list's line: `555,1234567,2026-11-27,A`, or the earlier `5551234567,A`. */
function changeLine(line: Uint8Array, length: number): { key: number; add: boolean } | null {
  let key = -1;
  let flag = 0;
  if (length === CHANGE_LINE.length) {
    key = commaNumber(line, 0);
    const commas = line[11] === COMMA && line[CHANGE_LINE.flag - 1] === COMMA;
    if (!commas || !isDay(line, CHANGE_LINE.date)) return null;
    flag = line[CHANGE_LINE.flag] as number;
  } else if (length === 12) {
    key = line[10] === COMMA ? digits(line, 0, 10) : -1;
    flag = line[11] as number;
  }
  if (key < 0 || (flag !== ADD && flag !== DELETE)) return null;
  return { key, add: flag === ADD };
}

/**
 * Checks a file's first bytes before it is sent whole: its first line (when `head` holds one) must be of
 * `kind`'s format and in `areaCode`. Throws `RegistryFileError` like the full reading would.
 */
export function checkRegistryFileStart(kind: RegistryFileKind, areaCode: number, head: Uint8Array): void {
  if (!isAreaCode(areaCode)) throw new RegistryFileError(REGISTRY_FILE_ERRORS.noAreaCode(areaCode), null);
  const newline = head.indexOf(NEWLINE);
  if (newline < 0) return;
  new RegistryLineReader(kind, areaCode, () => {}).push(head.subarray(0, newline + 1));
}

const bytesOf = (file: Uint8Array | string) => (typeof file === "string" ? new TextEncoder().encode(file) : file);

/** Reads a full list piece by piece into a new bitmap: `push` chunks, `end` gives the bitmap. */
export function fullListReader(areaCode: number) {
  if (!isAreaCode(areaCode)) throw new RegistryFileError(REGISTRY_FILE_ERRORS.noAreaCode(areaCode), null);
  const bitmap = new AreaCodeBitmap(areaCode);
  const reader = new RegistryLineReader("full", areaCode, (key) => bitmap.add(key));
  return {
    push: (chunk: Uint8Array) => reader.push(chunk),
    end: () => {
      reader.end();
      return bitmap;
    },
  };
}

/**
 * Reads a change list piece by piece onto a copy of `current` (which stays as it was, whatever the file
 * holds): `end` gives the changed copy and what changed.
 */
export function changeListReader(current: AreaCodeBitmap) {
  const bitmap = current.clone();
  const counts = { added: 0, removed: 0 };
  const reader = new RegistryLineReader("changes", current.areaCode, (key, add) => {
    if (add ? bitmap.add(key) : bitmap.delete(key)) counts[add ? "added" : "removed"]++;
  });
  return {
    push: (chunk: Uint8Array) => reader.push(chunk),
    end: (): { bitmap: AreaCodeBitmap } & RegistryChangeCounts => ({ bitmap, ...counts, lines: reader.end() }),
  };
}

/** A whole full list (bytes or text) as a bitmap. */
export function parseFullList(areaCode: number, file: Uint8Array | string): AreaCodeBitmap {
  const reader = fullListReader(areaCode);
  reader.push(bytesOf(file));
  return reader.end();
}

/** A whole change list applied to a copy of `current`. */
export function applyChangeList(current: AreaCodeBitmap, file: Uint8Array | string) {
  const reader = changeListReader(current);
  reader.push(bytesOf(file));
  return reader.end();
}
