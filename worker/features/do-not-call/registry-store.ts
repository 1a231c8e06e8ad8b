/**
 * The National Do Not Call Registry kept as bits per area code in R2 (docs/decisions/0065), not as D1 rows.
 * In the DOCUMENTS bucket, under `registry/<scope>/`, where a scope is one registry copy: `national` (the
 * National Registry) or a state's two letters (that state's own list, e.g. `TX`):
 * - `registry/<scope>/AAA/v<version>-<uuid>.bin`: one version of area code AAA's bits
 *   (src/features/do-not-call/registry-bitmap.ts's stored form), written once and never changed;
 * - `registry/<scope>/AAA/current`: the pointer, a small JSON naming the current version's object.
 * A full list or a change list builds the new version whole in memory (a change list on a copy of the
 * current bits), writes its object, and only then swaps the pointer with a conditional put (the pointer's
 * etag as read): a reader reads the pointer, then the object it names, so it sees the old version or the
 * new one, never a mix, and a file refused on any line writes nothing. Two swaps racing for one area code:
 * the second's conditional put fails and it is refused (ConflictError) with its object deleted. The
 * version before the current one is kept (a reader that read the old pointer may still fetch it); older
 * ones are deleted at the swap.
 *
 * Lookups read through a `RegistryCache` (registry-cache.ts). A check about a few numbers of an area code not
 * cached whole (a ping, a sale) reads by ranges: the version's header and index (at most 8 KB, kept), then
 * only the exchanges it asks about (at most 1,250 bytes each), not the whole area code (up to 1.25 MB). A
 * check about many exchanges of one area code (a re-scrub, a scrubbed file) reads and keeps the whole version.
 */
import {
  AreaCodeBitmap,
  areaCodeOf,
  blockHas,
  type ExchangeBlock,
  exchangeOf,
  INDEX_SPAN_BYTES,
  isAreaCode,
  StoredAreaCode,
  StoredAreaCodeIndex,
} from "../../../src/features/do-not-call/registry-bitmap";
import { changeListReader, fullListReader, RegistryFileError } from "../../../src/features/do-not-call/registry-file";
import type { Deps } from "../../deps";
import { ConflictError, InvalidError } from "../../errors";
import { RegistryCache, type RegistryPointer } from "./registry-cache";

export { RegistryCache };

/**
 * A check about at most this many exchanges of one area code not cached whole reads them by ranges; about
 * more, it reads the whole version (one read, then every later check of it answers from memory).
 */
const RANGED_EXCHANGES_AT_MOST = 8;

/** One registry copy: the National Registry, or one state's own list (its two letters, upper case). */
export type RegistryScope = "national" | `${Uppercase<string>}`;

const pointerKey = (scope: RegistryScope, areaCode: number) => `registry/${scope}/${areaCode}/current`;
const versionKey = (scope: RegistryScope, areaCode: number, version: number) =>
  `registry/${scope}/${areaCode}/v${version}-${crypto.randomUUID()}.bin`;
/** The cache's key for one scope's area code. */
const slot = (scope: RegistryScope, areaCode: number) => `${scope}/${areaCode}`;

/** The isolate's cache (module state lives as long as the isolate). */
const isolateCache = new RegistryCache();

/** Empties the isolate's cache: the worker tests share one isolate, and each starts from an empty bucket. */
export const resetRegistryCache = () => isolateCache.clear();

async function readPointer(deps: Deps, scope: RegistryScope, areaCode: number) {
  const object = await deps.env.DOCUMENTS.get(pointerKey(scope, areaCode));
  if (!object) return { pointer: null, etag: null };
  return { pointer: await object.json<RegistryPointer>(), etag: object.etag };
}

/**
 * The area codes of `scope` that hold a stored list: one R2 list (by the pointers' folders) a scope and
 * isolate per POINTER_TTL_MS, so a check for an area code with no list reads nothing more (decision 0084).
 */
async function storedAreaCodes(deps: Deps, scope: RegistryScope, cache: RegistryCache): Promise<Set<number>> {
  const cached = cache.storedAreaCodes(scope, deps.now);
  if (cached) return cached;
  const areaCodes = new Set<number>();
  const prefix = `registry/${scope}/`;
  let cursor: string | undefined;
  do {
    const listed = await deps.env.DOCUMENTS.list({ prefix, delimiter: "/", ...(cursor ? { cursor } : {}) });
    for (const folder of listed.delimitedPrefixes) areaCodes.add(Number(folder.slice(prefix.length, -1)));
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
  cache.setStoredAreaCodes(scope, areaCodes, deps.now);
  return areaCodes;
}

async function currentPointer(deps: Deps, scope: RegistryScope, areaCode: number, cache: RegistryCache, fresh = false) {
  const cached = fresh ? undefined : cache.pointer(slot(scope, areaCode), deps.now);
  if (cached !== undefined) return cached;
  if (!fresh && !(await storedAreaCodes(deps, scope, cache)).has(areaCode)) {
    cache.setPointer(slot(scope, areaCode), null, deps.now);
    return null;
  }
  const { pointer } = await readPointer(deps, scope, areaCode);
  cache.setPointer(slot(scope, areaCode), pointer, deps.now);
  return pointer;
}

/** A version's whole stored form: from the cache, else one R2 read (null when the version is gone). */
async function fetchBits(deps: Deps, key: string, cache: RegistryCache): Promise<StoredAreaCode | null> {
  const cached = cache.bits(key);
  if (cached) return cached;
  const object = await deps.env.DOCUMENTS.get(key);
  if (!object) return null;
  cache.stats.misses++;
  const bits = new StoredAreaCode(new Uint8Array(await object.arrayBuffer()));
  cache.setBits(key, bits);
  return bits;
}

/** `length` bytes of a version from `offset` (one R2 range read), or null when the version is gone. */
async function readRange(deps: Deps, key: string, offset: number, length: number, cache: RegistryCache) {
  const object = await deps.env.DOCUMENTS.get(key, { range: { offset, length } });
  if (!object) return null;
  cache.stats.ranges++;
  return new Uint8Array(await object.arrayBuffer());
}

/** Which of `keys` (one area code's) a version holds, by ranges: its index, then their exchanges' blocks. */
async function listedByRanges(
  deps: Deps,
  pointer: RegistryPointer,
  keys: readonly number[],
  cache: RegistryCache,
): Promise<number[] | null> {
  let index = cache.index(pointer.key);
  if (!index) {
    const head = await readRange(deps, pointer.key, 0, Math.min(pointer.bytes, INDEX_SPAN_BYTES), cache);
    if (!head) return null;
    index = new StoredAreaCodeIndex(head, pointer.bytes);
    cache.setIndex(pointer.key, index);
  }
  const byBlock = new Map<number, { block: ExchangeBlock; keys: number[] }>();
  for (const key of keys) {
    const block = index.blockOf(key);
    if (!block) continue;
    const group = byBlock.get(block.exchange);
    if (group) group.keys.push(key);
    else byBlock.set(block.exchange, { block, keys: [key] });
  }
  const found = await Promise.all(
    [...byBlock.values()].map(async ({ block, keys: own }) => {
      let bytes = cache.block(pointer.key, block.exchange);
      if (!bytes) {
        const read = await readRange(deps, pointer.key, block.offset, block.length, cache);
        if (!read) return null;
        bytes = read;
        cache.setBlock(pointer.key, block.exchange, bytes);
      }
      const held = bytes;
      return own.filter((key) => blockHas(block, held, key));
    }),
  );
  return found.some((keysFound) => keysFound === null) ? null : (found as number[][]).flat();
}

const exchangesOf = (keys: readonly number[]) => new Set(keys.map(exchangeOf)).size;

/** Which of `keys` (all of `areaCode`) the current version of `scope` holds (module comment: whole or by ranges). */
async function listedInAreaCode(
  deps: Deps,
  scope: RegistryScope,
  areaCode: number,
  keys: readonly number[],
  cache: RegistryCache,
): Promise<number[]> {
  // A second pass only when the pointer was stale and its version since deleted: read the pointer afresh.
  for (const fresh of [false, true]) {
    const pointer = await currentPointer(deps, scope, areaCode, cache, fresh);
    if (!pointer) return [];
    const whole =
      cache.bits(pointer.key) ??
      (exchangesOf(keys) > RANGED_EXCHANGES_AT_MOST ? await fetchBits(deps, pointer.key, cache) : undefined);
    if (whole) return keys.filter((key) => whole.has(key));
    if (whole === undefined) {
      const listed = await listedByRanges(deps, pointer, keys, cache);
      if (listed) return listed;
    }
  }
  return [];
}

/**
 * Which of `keys` (phone keys, suppression.ts) are on one registry copy (`scope`). An area code with no
 * stored list has no number on it.
 */
export async function listedOnRegistry(
  deps: Deps,
  keys: readonly number[],
  cache: RegistryCache = isolateCache,
  scope: RegistryScope = "national",
): Promise<Set<number>> {
  const byAreaCode = new Map<number, number[]>();
  for (const key of keys) {
    const own = byAreaCode.get(areaCodeOf(key));
    if (own) own.push(key);
    else byAreaCode.set(areaCodeOf(key), [key]);
  }
  const listed = new Set<number>();
  for (const [areaCode, own] of byAreaCode) {
    if (!isAreaCode(areaCode)) continue;
    for (const key of await listedInAreaCode(deps, scope, areaCode, own, cache)) listed.add(key);
  }
  return listed;
}

/** Whether `scope` holds a version of `areaCode` (read from R2, not the cache: the move decides by it). */
export async function hasRegistryVersion(deps: Deps, scope: RegistryScope, areaCode: number): Promise<boolean> {
  return (await readPointer(deps, scope, areaCode)).pointer !== null;
}

/** A registry file: a request's or an R2 object's body, or (in tests and scripts) bytes or text. */
type RegistryFile = ReadableStream<Uint8Array> | Uint8Array | string;

async function readFile(file: RegistryFile, push: (chunk: Uint8Array) => void): Promise<void> {
  if (typeof file === "string") return push(new TextEncoder().encode(file));
  if (file instanceof Uint8Array) return push(file);
  const reader = file.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) push(read.value);
}

/** What a stored file changed: the new version, the numbers it holds, and (for a change list) what changed. */
export interface RegistrySwap {
  areaCode: number;
  version: number;
  numbers: number;
  added: number;
  removed: number;
}

/** Builds the next version from the current one, writes it, then swaps the pointer (module comment). */
async function swap(
  deps: Deps,
  scope: RegistryScope,
  areaCode: number,
  build: (current: RegistryPointer | null) => Promise<{ bitmap: AreaCodeBitmap; added: number; removed: number }>,
): Promise<RegistrySwap> {
  if (!isAreaCode(areaCode)) throw new InvalidError(`${areaCode} is no area code (200-999).`);
  const { pointer: current, etag } = await readPointer(deps, scope, areaCode);
  let built: Awaited<ReturnType<typeof build>>;
  try {
    built = await build(current);
  } catch (error) {
    if (error instanceof RegistryFileError) throw new InvalidError(error.message, { line: error.line });
    throw error;
  }
  const bytes = built.bitmap.serialize();
  const version = (current?.version ?? 0) + 1;
  const key = versionKey(scope, areaCode, version);
  await deps.env.DOCUMENTS.put(key, bytes);
  const next: RegistryPointer = {
    version,
    key,
    previousKey: current?.key ?? null,
    numbers: built.bitmap.size,
    bytes: bytes.byteLength,
    storedAt: deps.now,
  };
  // Swapped only if nobody swapped since we read it (a missing pointer: only if still missing).
  const swapped = await deps.env.DOCUMENTS.put(pointerKey(scope, areaCode), JSON.stringify(next), {
    onlyIf: etag ? { etagMatches: etag } : { etagDoesNotMatch: "*" },
  });
  if (!swapped) {
    await deps.env.DOCUMENTS.delete(key);
    throw new ConflictError(
      `Another file for area code ${areaCode} was applied at the same time; nothing of this one was. Send it again.`,
    );
  }
  if (current?.previousKey) await deps.env.DOCUMENTS.delete(current.previousKey);
  isolateCache.setPointer(slot(scope, areaCode), next, deps.now);
  isolateCache.storedAreaCodes(scope, deps.now)?.add(areaCode);
  isolateCache.setBits(key, new StoredAreaCode(bytes));
  return { areaCode, version, numbers: next.numbers, added: built.added, removed: built.removed };
}

/** Replaces area code `areaCode`'s numbers in `scope` with a full list (one 10-digit number a line). */
export function storeRegistryFullList(
  deps: Deps,
  scope: RegistryScope,
  areaCode: number,
  file: RegistryFile,
): Promise<RegistrySwap> {
  return swap(deps, scope, areaCode, async () => {
    const reader = fullListReader(areaCode);
    await readFile(file, reader.push);
    const bitmap = reader.end();
    return { bitmap, added: bitmap.size, removed: 0 };
  });
}

/** Applies a change list (`5551234567,A` / `5551234567,D` lines) to area code `areaCode`'s current numbers in `scope`. */
export function applyRegistryChangeList(
  deps: Deps,
  scope: RegistryScope,
  areaCode: number,
  file: RegistryFile,
): Promise<RegistrySwap> {
  return swap(deps, scope, areaCode, async (current) => {
    const bits = current ? await fetchBits(deps, current.key, isolateCache) : null;
    if (!bits) throw new ConflictError(`Area code ${areaCode} has no full list yet: store one before a change list.`);
    const reader = changeListReader(AreaCodeBitmap.deserialize(bitsBytes(bits)));
    await readFile(file, reader.push);
    return reader.end();
  });
}

const bitsBytes = (bits: StoredAreaCode) =>
  new Uint8Array(bits.view.buffer, bits.view.byteOffset, bits.view.byteLength);
