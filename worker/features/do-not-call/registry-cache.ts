/**
 * An isolate's cache of the registry copies in R2 (registry-store.ts): pointers for POINTER_TTL_MS, and, by
 * immutable version key, what was read of each version, in one LRU bounded by bytes (an isolate has 128 MB):
 * - a whole area code's stored form (`StoredAreaCode`, at most about 1.25 MB), read when a check asks about
 *   many of its exchanges (a re-scrub, a file's scrub) or to apply a change list;
 * - its header and index alone (`StoredAreaCodeIndex`, at most 8 KB), and single exchanges' blocks (at most
 *   1,250 bytes each), read by ranges when a check asks about a few numbers (a ping, a sale).
 */
import type { StoredAreaCode, StoredAreaCodeIndex } from "../../../src/features/do-not-call/registry-bitmap";

/** How long an isolate trusts a pointer it read: a swap reaches every isolate within this. */
const POINTER_TTL_MS = 60_000;
/** The bytes an isolate keeps: about 40 full area codes, or every index and some 30,000 exchanges, a third of 128 MB. */
const CACHE_BYTES = 48 * 1024 * 1024;

export interface RegistryPointer {
  version: number;
  key: string;
  /** The version before, kept for readers that read the pointer before the swap. */
  previousKey: string | null;
  numbers: number;
  bytes: number;
  storedAt: number;
}

/** One exchange's block as read from a version (its bytes, by range). */
interface ExchangeBytes {
  readonly bytes: Uint8Array;
  readonly byteLength: number;
}

type Cached = StoredAreaCode | StoredAreaCodeIndex | ExchangeBytes;

const indexKey = (versionKey: string) => `${versionKey}#index`;
const blockKey = (versionKey: string, exchange: number) => `${versionKey}#${exchange}`;

/** An isolate's pointers (for a while) and what it read of each version (LRU within a byte budget). */
export class RegistryCache {
  readonly budget: number;
  readonly #pointers = new Map<string, { pointer: RegistryPointer | null; readAt: number }>();
  readonly #read = new Map<string, Cached>();
  /** Per scope, the area codes that hold a stored list (one R2 list a scope), for as long as a pointer. */
  readonly #stored = new Map<string, { areaCodes: Set<number>; readAt: number }>();
  #bytes = 0;
  /**
   * Answers from memory (`hits`: a whole area code, an index or a block), whole area codes read from R2
   * (`misses`), and range reads (`ranges`: an index or an exchange's block).
   */
  readonly stats = { hits: 0, misses: 0, ranges: 0 };

  constructor(budget = CACHE_BYTES) {
    this.budget = budget;
  }

  get bytes(): number {
    return this.#bytes;
  }

  pointer(place: string, now: number): RegistryPointer | null | undefined {
    const entry = this.#pointers.get(place);
    return entry && now - entry.readAt < POINTER_TTL_MS ? entry.pointer : undefined;
  }

  setPointer(place: string, pointer: RegistryPointer | null, now: number): void {
    this.#pointers.set(place, { pointer, readAt: now });
  }

  storedAreaCodes(scope: string, now: number): Set<number> | undefined {
    const entry = this.#stored.get(scope);
    return entry && now - entry.readAt < POINTER_TTL_MS ? entry.areaCodes : undefined;
  }

  setStoredAreaCodes(scope: string, areaCodes: Set<number>, now: number): void {
    this.#stored.set(scope, { areaCodes, readAt: now });
  }

  /** A version's whole stored form, when read. */
  bits(versionKey: string): StoredAreaCode | undefined {
    return this.#get(versionKey) as StoredAreaCode | undefined;
  }

  setBits(versionKey: string, bits: StoredAreaCode): void {
    this.#set(versionKey, bits);
  }

  /** A version's index, when read (by range). */
  index(versionKey: string): StoredAreaCodeIndex | undefined {
    return this.#get(indexKey(versionKey)) as StoredAreaCodeIndex | undefined;
  }

  setIndex(versionKey: string, index: StoredAreaCodeIndex): void {
    this.#set(indexKey(versionKey), index);
  }

  /** One exchange's block of a version, when read (by range). */
  block(versionKey: string, exchange: number): Uint8Array | undefined {
    return (this.#get(blockKey(versionKey, exchange)) as ExchangeBytes | undefined)?.bytes;
  }

  setBlock(versionKey: string, exchange: number, bytes: Uint8Array): void {
    this.#set(blockKey(versionKey, exchange), { bytes, byteLength: bytes.byteLength });
  }

  /** Forgets every pointer and everything read (a test's fresh start). */
  clear(): void {
    this.#pointers.clear();
    this.#stored.clear();
    this.#read.clear();
    this.#bytes = 0;
    this.stats.hits = 0;
    this.stats.misses = 0;
    this.stats.ranges = 0;
  }

  #get(key: string): Cached | undefined {
    const found = this.#read.get(key);
    if (found) {
      // Most recently used last: a Map keeps insertion order.
      this.#read.delete(key);
      this.#read.set(key, found);
      this.stats.hits++;
    }
    return found;
  }

  #set(key: string, value: Cached): void {
    if (value.byteLength > this.budget || this.#read.has(key)) return;
    this.#read.set(key, value);
    this.#bytes += value.byteLength;
    for (const [oldest, old] of this.#read) {
      if (this.#bytes <= this.budget) break;
      this.#read.delete(oldest);
      this.#bytes -= old.byteLength;
    }
  }
}
