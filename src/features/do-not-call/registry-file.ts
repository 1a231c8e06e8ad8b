/**
 * The National Do Not Call Registry's files for one area code, read into bits (registry-bitmap.ts;
 * docs/decisions/0065-do-not-call-registry-as-bitmaps.md). Two formats, both ASCII, one record a line, each
 * line ending in a newline (`\r\n` is taken too):
 * - a full list: the area code's every registered number, 10 digits a line (`5551234567`);
 * - a change list: a number, a comma, and `A` (added to the registry) or `D` (deleted): `5551234567,A`.
 *   Lines apply in order, so a number added then deleted in one file ends deleted.
 * Strict on purpose, unlike the typed-by-people lists of suppression-file.ts: the bits are exact, so a line
 * that is not one of these, a number of another area code, an empty file or a file cut off mid-line refuses
 * the whole file, and the caller keeps its bitmap as it was. The reader takes the file piece by piece
 * (bytes, never one string), so an area code's millions of lines never sit in memory as text.
 */
import { AreaCodeBitmap, areaCodeOf, isAreaCode } from "./registry-bitmap.ts";

export type RegistryFileKind = "full" | "changes";

/** The longest line either format has (`5551234567,A\r`); past it the line is refused without keeping it. */
const MAX_LINE_BYTES = 13;
const NEWLINE = 10;
const RETURN = 13;
const COMMA = 44;
const ADD = 65;
const DELETE = 68;
const ZERO = 48;

export const REGISTRY_FILE_ERRORS = {
  empty: (kind: RegistryFileKind) =>
    kind === "full"
      ? "The file is empty: a full list holds at least one number."
      : "The file is empty: a change list holds at least one change.",
  truncated: (line: number) =>
    `Line ${line} does not end with a newline: the file looks cut off (every line, the last too, ends with one).`,
  format: (line: number, kind: RegistryFileKind, text: string) =>
    kind === "full"
      ? `Line ${line} is not a 10-digit number: "${text}".`
      : `Line ${line} is not a 10-digit number, a comma and A or D: "${text}".`,
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
    const expected = this.kind === "full" ? 10 : 12;
    if (length !== expected) throw refuse();
    let key = 0;
    for (let i = 0; i < 10; i++) {
      const digit = (line[i] as number) - ZERO;
      if (digit < 0 || digit > 9) throw refuse();
      key = key * 10 + digit;
    }
    let add = true;
    if (this.kind === "changes") {
      if (line[10] !== COMMA || (line[11] !== ADD && line[11] !== DELETE)) throw refuse();
      add = line[11] === ADD;
    }
    if (areaCodeOf(key) !== this.areaCode) {
      throw new RegistryFileError(
        REGISTRY_FILE_ERRORS.areaCode(this.#lineNumber, key, this.areaCode),
        this.#lineNumber,
      );
    }
    this.take(key, add);
  }
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
