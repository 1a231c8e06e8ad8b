/**
 * The National Do Not Call Registry as bits (docs/decisions/0065-do-not-call-registry-as-bitmaps.md): one bit
 * per line of an area code's exchanges, exact (no false positives, unlike a Bloom filter). A phone key
 * (suppression.ts, 10 digits as an integer) splits into its area code (the first 3 digits), its exchange
 * (the next 3) and its line (the last 4): an exchange is 10,000 lines, 1,250 bytes of bits.
 *
 * `AreaCodeBitmap` is the form that changes (a full list builds one, a change list edits a copy);
 * `serializeAreaCode` writes the compact stored form, and `StoredAreaCode` answers lookups straight from
 * those bytes, which is what a Worker keeps in its cache.
 */

const LINES_PER_EXCHANGE = 10_000;
/** Exchanges 000-999: every exchange a phone key can hold (only 200-999 are dialable in the NANP). */
const EXCHANGES_PER_AREA_CODE = 1_000;
export const EXCHANGE_BYTES = LINES_PER_EXCHANGE / 8;
/** Numbers an area code can hold: its exchanges times their lines. */
const AREA_CODE_SPAN = EXCHANGES_PER_AREA_CODE * LINES_PER_EXCHANGE;
/** An exchange with fewer numbers than this is stored as its sorted lines (2 bytes each), else as bits. */
export const SPARSE_BELOW = EXCHANGE_BYTES / 2;

/** "DNC1": the stored form's first four bytes and version. */
const MAGIC = 0x31434e44;
const HEADER_BYTES = 12;
const INDEX_ENTRY_BYTES = 8;

export const isAreaCode = (areaCode: number) => Number.isInteger(areaCode) && areaCode >= 200 && areaCode <= 999;
export const areaCodeOf = (key: number) => Math.floor(key / AREA_CODE_SPAN);
/** The key's exchange and line, 0 … 9,999,999 (exchange × 10,000 + line). */
const subscriberOf = (key: number) => key % AREA_CODE_SPAN;

export class RegistryBitmapError extends Error {}

interface Exchange {
  bits: Uint8Array;
  count: number;
}

function popcount(byte: number): number {
  let bits = byte;
  let count = 0;
  while (bits) {
    bits &= bits - 1;
    count++;
  }
  return count;
}

/** The Do Not Call numbers of one area code, as bits per exchange (only exchanges holding a number). */
export class AreaCodeBitmap {
  readonly areaCode: number;
  readonly #exchanges = new Map<number, Exchange>();
  #size = 0;

  constructor(areaCode: number) {
    if (!isAreaCode(areaCode)) throw new RegistryBitmapError(`${areaCode} is no area code (200-999).`);
    this.areaCode = areaCode;
  }

  /** How many numbers it holds. */
  get size(): number {
    return this.#size;
  }

  /** Its exchanges holding at least one number, ascending. */
  exchanges(): number[] {
    return [...this.#exchanges.keys()].sort((a, b) => a - b);
  }

  #split(key: number): [exchange: number, line: number] {
    if (!Number.isInteger(key) || areaCodeOf(key) !== this.areaCode) {
      throw new RegistryBitmapError(`${key} is not a number in area code ${this.areaCode}.`);
    }
    const subscriber = subscriberOf(key);
    return [Math.floor(subscriber / LINES_PER_EXCHANGE), subscriber % LINES_PER_EXCHANGE];
  }

  has(key: number): boolean {
    const [exchange, line] = this.#split(key);
    const bits = this.#exchanges.get(exchange)?.bits;
    return bits !== undefined && ((bits[line >> 3] ?? 0) & (1 << (line & 7))) !== 0;
  }

  /** Sets the number's bit; true when it was not set before. */
  add(key: number): boolean {
    const [exchange, line] = this.#split(key);
    let entry = this.#exchanges.get(exchange);
    if (!entry) {
      entry = { bits: new Uint8Array(EXCHANGE_BYTES), count: 0 };
      this.#exchanges.set(exchange, entry);
    }
    const mask = 1 << (line & 7);
    const byte = entry.bits[line >> 3] ?? 0;
    if (byte & mask) return false;
    entry.bits[line >> 3] = byte | mask;
    entry.count++;
    this.#size++;
    return true;
  }

  /** Clears the number's bit; true when it was set. An exchange left empty is dropped. */
  delete(key: number): boolean {
    const [exchange, line] = this.#split(key);
    const entry = this.#exchanges.get(exchange);
    const mask = 1 << (line & 7);
    const byte = entry?.bits[line >> 3] ?? 0;
    if (!entry || !(byte & mask)) return false;
    entry.bits[line >> 3] = byte & ~mask;
    entry.count--;
    this.#size--;
    if (entry.count === 0) this.#exchanges.delete(exchange);
    return true;
  }

  clone(): AreaCodeBitmap {
    const copy = new AreaCodeBitmap(this.areaCode);
    for (const [exchange, entry] of this.#exchanges) {
      copy.#exchanges.set(exchange, { bits: entry.bits.slice(), count: entry.count });
    }
    copy.#size = this.#size;
    return copy;
  }

  /** Every number it holds, ascending. */
  *keys(): Generator<number> {
    const base = this.areaCode * AREA_CODE_SPAN;
    for (const exchange of this.exchanges()) {
      const bits = this.#exchanges.get(exchange)?.bits ?? new Uint8Array(0);
      const first = base + exchange * LINES_PER_EXCHANGE;
      for (let byte = 0; byte < bits.byteLength; byte++) {
        const value = bits[byte] ?? 0;
        if (value === 0) continue;
        for (let bit = 0; bit < 8; bit++) if (value & (1 << bit)) yield first + byte * 8 + bit;
      }
    }
  }

  /** The stored form (see the module comment): a header, an index of its exchanges, then each exchange. */
  serialize(): Uint8Array {
    const exchanges = this.exchanges();
    const entries = exchanges.map((exchange) => {
      const entry = this.#exchanges.get(exchange) as Exchange;
      return { exchange, entry, bytes: blockLength(entry.count) };
    });
    const indexEnd = HEADER_BYTES + INDEX_ENTRY_BYTES * entries.length;
    const out = new Uint8Array(indexEnd + entries.reduce((sum, { bytes }) => sum + bytes, 0));
    const view = new DataView(out.buffer);
    view.setUint32(0, MAGIC, true);
    view.setUint16(4, this.areaCode, true);
    view.setUint16(6, entries.length, true);
    view.setUint32(8, this.#size, true);
    let offset = indexEnd;
    entries.forEach(({ exchange, entry, bytes }, i) => {
      const at = HEADER_BYTES + INDEX_ENTRY_BYTES * i;
      view.setUint16(at, exchange, true);
      view.setUint16(at + 2, entry.count, true);
      view.setUint32(at + 4, offset, true);
      if (bytes === EXCHANGE_BYTES) out.set(entry.bits, offset);
      else {
        let written = 0;
        for (let byte = 0; byte < EXCHANGE_BYTES; byte++) {
          const value = entry.bits[byte] ?? 0;
          if (value === 0) continue;
          for (let bit = 0; bit < 8; bit++)
            if (value & (1 << bit)) view.setUint16(offset + 2 * written++, byte * 8 + bit, true);
        }
      }
      offset += bytes;
    });
    return out;
  }

  /** The changeable form of stored bytes, checked whole (each exchange's count against its bits). */
  static deserialize(bytes: Uint8Array): AreaCodeBitmap {
    const stored = new StoredAreaCode(bytes);
    const bitmap = new AreaCodeBitmap(stored.areaCode);
    for (const { exchange, count, offset } of stored.index()) {
      const bits = new Uint8Array(EXCHANGE_BYTES);
      if (count < SPARSE_BELOW) {
        let previous = -1;
        for (let i = 0; i < count; i++) {
          const line = stored.view.getUint16(offset + 2 * i, true);
          if (line <= previous || line >= LINES_PER_EXCHANGE) throw new RegistryBitmapError(CORRUPT);
          previous = line;
          bits[line >> 3] = (bits[line >> 3] ?? 0) | (1 << (line & 7));
        }
      } else {
        bits.set(bytes.subarray(offset, offset + EXCHANGE_BYTES));
        if (bits.reduce((sum, byte) => sum + popcount(byte), 0) !== count) throw new RegistryBitmapError(CORRUPT);
      }
      bitmap.#exchanges.set(exchange, { bits, count });
      bitmap.#size += count;
    }
    if (bitmap.#size !== stored.size) throw new RegistryBitmapError(CORRUPT);
    return bitmap;
  }
}

const CORRUPT = "The stored area code bitmap is damaged (its index or counts do not match its bytes).";

/** Where one exchange's numbers sit in the stored form: `length` bytes from `offset`. */
export interface ExchangeBlock {
  exchange: number;
  count: number;
  offset: number;
  length: number;
}

/** How many bytes an exchange of `count` numbers takes in the stored form. */
const blockLength = (count: number) => (count < SPARSE_BELOW ? count * 2 : EXCHANGE_BYTES);

/** A key's exchange, 0 … 999 (the three digits after its area code). */
export const exchangeOf = (key: number) => Math.floor(subscriberOf(key) / LINES_PER_EXCHANGE);

/** The stored form's index entry at byte `at` of `view`. */
function entryAt(view: DataView, at: number): ExchangeBlock {
  const count = view.getUint16(at + 2, true);
  return {
    exchange: view.getUint16(at, true),
    count,
    offset: view.getUint32(at + 4, true),
    length: blockLength(count),
  };
}

/**
 * The stored form's header and index in `view` (which holds at least the index), checked against the stored
 * object's whole length `storedBytes`: the magic, the area code, each entry's exchange (ascending), count and
 * offset (each block right after the one before), and the last block ending where the object ends.
 */
function checkedHeader(view: DataView, storedBytes: number) {
  if (view.byteLength < HEADER_BYTES || view.getUint32(0, true) !== MAGIC) throw new RegistryBitmapError(CORRUPT);
  const areaCode = view.getUint16(4, true);
  const exchangeCount = view.getUint16(6, true);
  const size = view.getUint32(8, true);
  const indexEnd = HEADER_BYTES + INDEX_ENTRY_BYTES * exchangeCount;
  if (!isAreaCode(areaCode) || exchangeCount > EXCHANGES_PER_AREA_CODE || view.byteLength < indexEnd) {
    throw new RegistryBitmapError(CORRUPT);
  }
  let expected = indexEnd;
  let previous = -1;
  for (let at = HEADER_BYTES; at < indexEnd; at += INDEX_ENTRY_BYTES) {
    const { exchange, count, offset } = entryAt(view, at);
    if (exchange <= previous || exchange >= EXCHANGES_PER_AREA_CODE) throw new RegistryBitmapError(CORRUPT);
    if (count < 1 || count > LINES_PER_EXCHANGE || offset !== expected) throw new RegistryBitmapError(CORRUPT);
    previous = exchange;
    expected += blockLength(count);
  }
  if (expected !== storedBytes) throw new RegistryBitmapError(CORRUPT);
  return { areaCode, exchangeCount, size, indexEnd };
}

/** The byte at which `exchange`'s index entry starts (a binary search of the index), or -1 when it has none. */
function entryOf(view: DataView, exchangeCount: number, exchange: number): number {
  let low = 0;
  let high = exchangeCount - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const at = HEADER_BYTES + INDEX_ENTRY_BYTES * middle;
    const found = view.getUint16(at, true);
    if (found < exchange) low = middle + 1;
    else if (found > exchange) high = middle - 1;
    else return at;
  }
  return -1;
}

/** Whether `line` is in the exchange stored at `offset` of `view` with `count` numbers (bits, or sorted lines). */
function lineIn(view: DataView, count: number, offset: number, line: number): boolean {
  if (count >= SPARSE_BELOW) return (view.getUint8(offset + (line >> 3)) & (1 << (line & 7))) !== 0;
  let low = 0;
  let high = count - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const found = view.getUint16(offset + 2 * middle, true);
    if (found < line) low = middle + 1;
    else if (found > line) high = middle - 1;
    else return true;
  }
  return false;
}

/**
 * Lookups straight from the stored form, with no copy: a binary search of the index, then one bit (or a
 * binary search of a sparse exchange's lines). The structure is checked when it is made (sizes and offsets),
 * so a lookup never reads past the bytes.
 */
export class StoredAreaCode {
  readonly areaCode: number;
  readonly size: number;
  readonly exchangeCount: number;
  readonly view: DataView;
  readonly byteLength: number;

  constructor(bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.byteLength = bytes.byteLength;
    ({
      areaCode: this.areaCode,
      exchangeCount: this.exchangeCount,
      size: this.size,
    } = checkedHeader(this.view, bytes.byteLength));
  }

  *index(): Generator<ExchangeBlock> {
    for (let i = 0; i < this.exchangeCount; i++) yield entryAt(this.view, HEADER_BYTES + INDEX_ENTRY_BYTES * i);
  }

  has(key: number): boolean {
    if (!Number.isInteger(key) || areaCodeOf(key) !== this.areaCode) return false;
    const at = entryOf(this.view, this.exchangeCount, exchangeOf(key));
    if (at < 0) return false;
    const line = subscriberOf(key) % LINES_PER_EXCHANGE;
    return lineIn(this.view, this.view.getUint16(at + 2, true), this.view.getUint32(at + 4, true), line);
  }
}

/** The stored form's first bytes that always hold its header and its whole index (1,000 exchanges at most). */
export const INDEX_SPAN_BYTES = HEADER_BYTES + INDEX_ENTRY_BYTES * EXCHANGES_PER_AREA_CODE;

/**
 * The stored form's header and index alone, from its first bytes (at most INDEX_SPAN_BYTES, a range read):
 * which byte range holds a number's exchange, so that a lookup reads that range (at most 1,250 bytes) instead
 * of the whole area code (docs/decisions/0065). Checked as StoredAreaCode checks it (`checkedHeader`), against
 * the stored object's whole length; it keeps a copy of the index bytes only.
 */
export class StoredAreaCodeIndex {
  readonly areaCode: number;
  readonly size: number;
  readonly exchangeCount: number;
  readonly #view: DataView;

  constructor(head: Uint8Array, storedBytes: number) {
    const { areaCode, exchangeCount, size, indexEnd } = checkedHeader(
      new DataView(head.buffer, head.byteOffset, head.byteLength),
      storedBytes,
    );
    this.areaCode = areaCode;
    this.exchangeCount = exchangeCount;
    this.size = size;
    this.#view = new DataView(head.slice(0, indexEnd).buffer);
  }

  /** The bytes it keeps (for a cache's budget). */
  get byteLength(): number {
    return this.#view.byteLength;
  }

  /** The block of `key`'s exchange, or null when that exchange holds no number (or the key is not of this area code). */
  blockOf(key: number): ExchangeBlock | null {
    if (!Number.isInteger(key) || areaCodeOf(key) !== this.areaCode) return null;
    const at = entryOf(this.#view, this.exchangeCount, exchangeOf(key));
    return at < 0 ? null : entryAt(this.#view, at);
  }
}

/**
 * Whether `key` is on the list, from its exchange's block alone (`bytes`, read by `block`'s range). A block
 * of another length than the index says is refused as damaged.
 */
export function blockHas(block: ExchangeBlock, bytes: Uint8Array, key: number): boolean {
  if (bytes.byteLength !== block.length) throw new RegistryBitmapError(CORRUPT);
  if (exchangeOf(key) !== block.exchange) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return lineIn(view, block.count, 0, subscriberOf(key) % LINES_PER_EXCHANGE);
}
