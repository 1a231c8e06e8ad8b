/**
 * A synthetic National Do Not Call Registry for `npm run simulate:registry` (docs/decisions/0065): numbers
 * over the US area codes (the `areacodes` package's list), drawn from a seed so the same flags write the
 * same bytes, in the FTC's formats src/features/do-not-call/registry-file.ts reads (docs/decisions/0083):
 * per area code a full list (`full/AAA.txt`, `555,1234567` a line, ascending) and a change list
 * (`changes/AAA.txt`, `555,1234567,2026-11-27,D` for numbers of the full list, then `…,A` for numbers not
 * on it, all dated the change day), and a
 * `manifest.json` with what each holds. Each area code is built as bits in memory (1 MB) and written in one
 * piece, so 258.5 million numbers stream through a few MB at a time.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import areaCodeData from "areacodes/lib/data.json" with { type: "json" };

/** Dialable exchanges are 200-999: 800 of 10,000 lines each. */
const FIRST_EXCHANGE = 200;
const SLOTS = 8_000_000;
/** No area code is filled past half its lines (drawing more would slow down on repeats). */
const MAX_PER_AREA_CODE = SLOTS / 2;
/** Area code weights run from 0.25 to 1.75: some area codes far fuller than others, as in the real registry. */
const MIN_WEIGHT = 0.25;
const WEIGHT_SPREAD = 1.5;

/** The US area codes the `areacodes` package lists, ascending. */
export function usAreaCodes(): number[] {
  return Object.keys(areaCodeData)
    .map(Number)
    .filter((code) => code >= 200 && code <= 999)
    .sort((a, b) => a - b);
}

/** mulberry32: a small seeded generator, [0, 1). */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** How many numbers each area code gets: `total` split by seeded weights, exactly. */
export function shares(total: number, areaCodes: number[], seed: number): number[] {
  const random = generator(seed);
  const weights = areaCodes.map(() => MIN_WEIGHT + WEIGHT_SPREAD * random());
  const sum = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((weight) => Math.floor((total * weight) / sum));
  let rest = total - counts.reduce((a, b) => a + b, 0);
  for (let i = 0; rest > 0; i = (i + 1) % counts.length, rest--) counts[i] = (counts[i] ?? 0) + 1;
  return counts;
}

/** The largest `--numbers` the weights always allow. */
export const MAX_NUMBERS = (areaCodeCount: number) =>
  Math.floor((MAX_PER_AREA_CODE * areaCodeCount) / (MIN_WEIGHT + WEIGHT_SPREAD)) - areaCodeCount;

/** "0000" … "9999" as ASCII, so a line is two copies, not ten divisions. */
const FOUR_DIGITS = (() => {
  const table = new Uint8Array(40_000);
  for (let n = 0; n < 10_000; n++) {
    const text = String(n).padStart(4, "0");
    for (let i = 0; i < 4; i++) table[n * 4 + i] = text.charCodeAt(i);
  }
  return table;
})();

const NEWLINE = 10;

/** Draws `count` distinct slots whose bit is unset, sets their bits and returns them in drawing order. */
function draw(bits: Uint8Array, count: number, random: () => number): number[] {
  const drawn: number[] = [];
  while (drawn.length < count) {
    const slot = Math.floor(random() * SLOTS);
    const mask = 1 << (slot & 7);
    if ((bits[slot >> 3] ?? 0) & mask) continue;
    bits[slot >> 3] = (bits[slot >> 3] ?? 0) | mask;
    drawn.push(slot);
  }
  return drawn;
}

/** `count` distinct slots of `slots` (a partial shuffle of a copy), their bits left as they are. */
function pick(slots: Int32Array, count: number, random: () => number): number[] {
  const pool = slots.slice();
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    const chosen = pool[j] as number;
    pool[j] = pool[i] as number;
    pool[i] = chosen;
  }
  return [...pool.subarray(0, count)];
}

/** Writes one number (`AAA,` + slot as 7 digits) and `suffix` at `at`; returns the next position. */
function writeNumber(out: Uint8Array, at: number, prefix: Uint8Array, slot: number, suffix: Uint8Array): number {
  const exchange = FIRST_EXCHANGE + Math.floor(slot / 10_000);
  out.set(prefix, at);
  out[at + 4] = 48 + Math.floor(exchange / 100);
  out[at + 5] = 48 + (Math.floor(exchange / 10) % 10);
  out[at + 6] = 48 + (exchange % 10);
  out.set(FOUR_DIGITS.subarray((slot % 10_000) * 4, (slot % 10_000) * 4 + 4), at + 7);
  out.set(suffix, at + 11);
  return at + 11 + suffix.byteLength;
}

/** Bytes a line takes: a full list's (`555,1234567\n`) and a change list's (`555,1234567,2026-11-27,A\n`). */
const FULL_LINE_BYTES = 12;
const CHANGE_LINE_BYTES = 25;
/** The day every synthetic change is dated (fixed, so the same flags write the same bytes). */
const CHANGE_DAY = "2026-11-27";

const asBytes = (text: string) => new TextEncoder().encode(text);

interface AreaCodeFiles {
  areaCode: number;
  numbers: number;
  deleted: number;
  added: number;
}

/** One area code's full list and change list, written to `out`. */
function writeAreaCode(out: string, areaCode: number, count: number, changeShare: number, seed: number): AreaCodeFiles {
  const random = generator((seed * 1_000 + areaCode) ^ 0x5eed);
  const bits = new Uint8Array(SLOTS / 8);
  const slots = Int32Array.from(draw(bits, count, random)).sort();
  const prefix = asBytes(`${areaCode},`);
  const full = new Uint8Array(count * FULL_LINE_BYTES);
  let at = 0;
  const newline = new Uint8Array([NEWLINE]);
  for (const slot of slots) at = writeNumber(full, at, prefix, slot, newline);
  writeFileSync(join(out, "full", `${areaCode}.txt`), full);
  // The change list: some of the list's numbers deleted, as many numbers that were not on it added.
  const changes = Math.min(Math.round((count * changeShare) / 2), count, MAX_PER_AREA_CODE - count);
  const deleted = pick(slots, changes, random);
  // Deleted numbers keep their bits, so no number is both deleted and added.
  const added = draw(bits, changes, random);
  const changeFile = new Uint8Array(changes * 2 * CHANGE_LINE_BYTES);
  at = 0;
  for (const slot of deleted) at = writeNumber(changeFile, at, prefix, slot, asBytes(`,${CHANGE_DAY},D\n`));
  for (const slot of added) at = writeNumber(changeFile, at, prefix, slot, asBytes(`,${CHANGE_DAY},A\n`));
  if (changes > 0) writeFileSync(join(out, "changes", `${areaCode}.txt`), changeFile);
  return { areaCode, numbers: count, deleted: changes, added: changes };
}

export interface SimulatedRegistry {
  numbers: number;
  areaCodes: AreaCodeFiles[];
  bytes: number;
}

/** Writes the whole synthetic registry under `out`; `progress` hears of each area code written. */
export function writeRegistry(
  options: { numbers: number; out: string; seed: number; changeShare: number },
  progress: (done: number, of: number) => void = () => {},
): SimulatedRegistry {
  const areaCodes = usAreaCodes();
  const counts = shares(options.numbers, areaCodes, options.seed);
  mkdirSync(join(options.out, "full"), { recursive: true });
  mkdirSync(join(options.out, "changes"), { recursive: true });
  const written: AreaCodeFiles[] = [];
  areaCodes.forEach((areaCode, i) => {
    const count = counts[i] ?? 0;
    if (count > 0) written.push(writeAreaCode(options.out, areaCode, count, options.changeShare, options.seed));
    progress(i + 1, areaCodes.length);
  });
  const bytes = written.reduce(
    (sum, files) => sum + files.numbers * FULL_LINE_BYTES + (files.deleted + files.added) * CHANGE_LINE_BYTES,
    0,
  );
  const registry = { numbers: options.numbers, areaCodes: written, bytes };
  writeFileSync(
    join(options.out, "manifest.json"),
    `${JSON.stringify({ seed: options.seed, changeShare: options.changeShare, ...registry }, null, 1)}\n`,
  );
  return registry;
}
