/**
 * docs/decisions/0065: the Do Not Call Registry's bits per area code in R2 answer exactly (against a
 * reference set), a change list is swapped in all at once (a reader during the apply sees the old version or
 * the new one, never a mix), a refused file leaves the current version as it was, and two files racing for
 * one area code never both land. Timings are logged (rough: workerd under vitest).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDeps } from "../../../deps";
import { ConflictError, InvalidError } from "../../../errors";
import { applyRegistryChangeList, listedOnRegistry, RegistryCache, storeRegistryFullList } from "../registry-store";

const lines = (...records: (number | string)[]) => records.map((record) => `${record}\n`).join("");

/** A seeded generator, so a failure can be replayed. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** `count` (at most 50,000) distinct numbers of `areaCode`, every 10th in exchange 555 so it is stored as bits. */
function numbersOf(areaCode: number, count: number, seed: number): number[] {
  const random = generator(seed);
  const numbers = new Set<number>();
  while (numbers.size < count) {
    const subscriber = numbers.size % 10 === 0 ? 5_550_000 + Math.floor(random() * 10_000) : Math.floor(random() * 1e7);
    numbers.add(areaCode * 1e7 + subscriber);
  }
  return [...numbers];
}

const registryObjects = async (areaCode: number) =>
  (await env.DOCUMENTS.list({ prefix: `registry/national/${areaCode}/` })).objects.map((object) => object.key).sort();

describe("the registry's bits in R2", () => {
  it("answers exactly as a reference set, from R2 and from the isolate's cache", async () => {
    const deps = createDeps(env);
    const reference = new Set<number>();
    for (const [areaCode, seed] of [
      [212, 1],
      [646, 2],
    ] as const) {
      const numbers = numbersOf(areaCode, 20_000, seed);
      for (const key of numbers) reference.add(key);
      const stored = await storeRegistryFullList(deps, "national", areaCode, lines(...numbers));
      expect(stored).toMatchObject({ areaCode, version: 1, numbers: 20_000 });
    }
    const random = generator(9);
    const probes = [
      ...reference,
      ...Array.from({ length: 40_000 }, () => 2_120_000_000 + Math.floor(random() * 1e7)),
      ...Array.from({ length: 40_000 }, () => 6_460_000_000 + Math.floor(random() * 1e7)),
      2_129_999_999,
      6_460_000_000,
      3_055_550_100,
    ];
    const cache = new RegistryCache();
    let started = performance.now();
    const uncached = await listedOnRegistry(deps, [2_125_550_000], cache);
    const firstLookupMs = performance.now() - started;
    // One number: two range reads (212's index, then exchange 555), not the whole area code.
    expect(cache.stats).toEqual({ hits: 0, misses: 0, ranges: 2 });
    expect(uncached.has(2_125_550_000)).toBe(reference.has(2_125_550_000));
    started = performance.now();
    const listed = await listedOnRegistry(deps, probes, cache);
    const cachedMs = performance.now() - started;
    expect(probes.filter((key) => listed.has(key) !== reference.has(key))).toEqual([]);
    expect(listed.size).toBe(reference.size);
    // Many exchanges of each area code: one whole read of 212 and one of 646.
    expect(cache.stats).toEqual({ hits: 0, misses: 2, ranges: 2 });
    await listedOnRegistry(deps, probes, cache);
    expect(cache.stats).toEqual({ hits: 2, misses: 2, ranges: 2 });
    console.log(
      `registry lookups: first (R2 range reads + check) ${firstLookupMs.toFixed(1)} ms; ${probes.length} cached lookups in ${cachedMs.toFixed(1)} ms (${((cachedMs * 1000) / probes.length).toFixed(2)} µs each, 646's first read included)`,
    );
  });

  it("swaps a change list in all at once: readers during the apply see the old or the new version", async () => {
    const deps = createDeps(env);
    const before = numbersOf(305, 30_000, 3);
    await storeRegistryFullList(deps, "national", 305, lines(...before));
    const deleted = before.slice(0, 10_000);
    const onList = new Set(before);
    const added = numbersOf(305, 40_000, 4)
      .filter((key) => !onList.has(key))
      .slice(0, 10_000);
    const probes = [...deleted, ...added];
    const changeList = lines(...deleted.map((key) => `${key},D`), ...added.map((key) => `${key},A`));
    const seen: ("old" | "new")[] = [];
    let applying = true;
    const readers = async () => {
      while (applying && seen.length < 400) {
        // A fresh cache each time: every read goes to R2's pointer and bits.
        const listed = await listedOnRegistry(deps, probes, new RegistryCache());
        const old = deleted.every((key) => listed.has(key)) && added.every((key) => !listed.has(key));
        const fresh = added.every((key) => listed.has(key)) && deleted.every((key) => !listed.has(key));
        expect(old || fresh, `a mix: ${listed.size} of the probes listed`).toBe(true);
        seen.push(old ? "old" : "new");
      }
    };
    const started = performance.now();
    const [swap] = await Promise.all([
      applyRegistryChangeList(deps, "national", 305, changeList).finally(() => {
        applying = false;
      }),
      readers(),
      readers(),
    ]);
    console.log(
      `registry change list of 20,000 lines on 30,000 numbers applied in ${(performance.now() - started).toFixed(0)} ms with ${seen.length} reads meanwhile`,
    );
    expect(swap).toMatchObject({ version: 2, numbers: 30_000, added: 10_000, removed: 10_000 });
    // The readers started before the swap: they saw the old version whole (and maybe the new one after).
    expect(seen[0]).toBe("old");
    const after = await listedOnRegistry(deps, probes, new RegistryCache());
    expect(added.every((key) => after.has(key)) && deleted.every((key) => !after.has(key))).toBe(true);
    // The previous version is kept for readers still fetching it; the one before is deleted at the next swap.
    expect(await registryObjects(305)).toHaveLength(3);
    await applyRegistryChangeList(deps, "national", 305, lines(`${before[10_000]},D`));
    expect(await registryObjects(305)).toHaveLength(3);
  });

  it("a refused file leaves the current version as it was, and writes nothing", async () => {
    const deps = createDeps(env);
    const numbers = numbersOf(415, 5_000, 5);
    await storeRegistryFullList(deps, "national", 415, lines(...numbers));
    const objects = await registryObjects(415);
    const removals = numbers.slice(0, 4_000).map((key) => `${key},D`);
    for (const [file, message] of [
      [lines(...removals, "4155550100,X"), "Line 4001 is not an area code, a 7-digit number, a day and A or D"],
      [lines(...removals, "2125550100,A"), "Line 4001: 2125550100 is not in area code 415"],
      [`${lines(...removals)}41555501`, "Line 4001 does not end with a newline"],
      ["", "The file is empty"],
    ] as const) {
      const refused = applyRegistryChangeList(deps, "national", 415, file);
      await expect(refused).rejects.toThrow(InvalidError);
      await expect(applyRegistryChangeList(deps, "national", 415, file)).rejects.toThrow(message);
    }
    await expect(storeRegistryFullList(deps, "national", 415, lines(4155550100, "415555"))).rejects.toThrow("Line 2");
    expect(await registryObjects(415)).toEqual(objects);
    const listed = await listedOnRegistry(deps, numbers, new RegistryCache());
    expect(listed.size).toBe(5_000);
    // A change list for an area code with no full list is refused too.
    await expect(applyRegistryChangeList(deps, "national", 417, lines("4175550100,A"))).rejects.toThrow(ConflictError);
    expect(await registryObjects(417)).toEqual([]);
  });

  it("of two files racing for one area code, one lands and the other is refused whole", async () => {
    const deps = createDeps(env);
    await storeRegistryFullList(deps, "national", 808, lines(8085550100));
    const results = await Promise.allSettled([
      applyRegistryChangeList(deps, "national", 808, lines("8085550101,A")),
      applyRegistryChangeList(deps, "national", 808, lines("8085550102,A")),
    ]);
    const landed = results.filter((result) => result.status === "fulfilled");
    const refused = results.filter((result) => result.status === "rejected");
    expect(landed).toHaveLength(1);
    expect(refused.map((result) => (result as PromiseRejectedResult).reason)).toEqual([expect.any(ConflictError)]);
    const listed = await listedOnRegistry(deps, [8085550101, 8085550102], new RegistryCache());
    expect(listed.size).toBe(1);
    expect(await registryObjects(808)).toHaveLength(3);
  });

  it("a full area code (727,273 numbers, every 11th line of exchanges 200-999): stored, looked up, changed", async () => {
    const deps = createDeps(env);
    const listed = (key: number) => key % 10_000_000 >= 2_000_000 && key % 11 === 0;
    const numbers: number[] = [];
    for (let key = 7_202_000_000; key < 7_210_000_000; key++) if (listed(key)) numbers.push(key);
    let started = performance.now();
    const stored = await storeRegistryFullList(deps, "national", 720, numbers.map((key) => `${key}\n`).join(""));
    const storeMs = performance.now() - started;
    expect(stored.numbers).toBe(numbers.length);
    const cache = new RegistryCache();
    started = performance.now();
    await listedOnRegistry(deps, [7_205_550_000], cache);
    const uncachedMs = performance.now() - started;
    const probes = Array.from({ length: 100_000 }, (_, i) => 7_200_000_000 + ((i * 7_919) % 10_000_000));
    started = performance.now();
    const found = await listedOnRegistry(deps, probes, cache);
    const cachedMs = performance.now() - started;
    expect(probes.filter((key) => found.has(key) !== listed(key))).toEqual([]);
    const changes = numbers.slice(0, 7_000).map((key) => `${key},D`);
    started = performance.now();
    const changed = await applyRegistryChangeList(deps, "national", 720, lines(...changes));
    const changeMs = performance.now() - started;
    expect(changed).toMatchObject({ removed: 7_000, numbers: numbers.length - 7_000 });
    const objects = (await env.DOCUMENTS.list({ prefix: "registry/national/720/", include: ["httpMetadata"] })).objects;
    const bytes = Math.max(...objects.map((object) => object.size));
    expect(bytes).toBeLessThanOrEqual(12 + 800 * (8 + 1_250));
    console.log(
      `registry, a full area code: ${(bytes / 1e6).toFixed(2)} MB stored; full list stored in ${storeMs.toFixed(0)} ms; first lookup (R2 read) ${uncachedMs.toFixed(1)} ms; 100,000 cached lookups ${cachedMs.toFixed(0)} ms (${((cachedMs * 1000) / 100_000).toFixed(2)} µs each); 7,000-line change list ${changeMs.toFixed(0)} ms`,
    );
  }, 120_000);

  it("keeps what the isolate read within its byte budget, least recently used out first", async () => {
    const deps = createDeps(env);
    for (const areaCode of [901, 902, 903])
      await storeRegistryFullList(deps, "national", areaCode, lines(areaCode * 1e7 + 5_550_100));
    // Each area code's index (a 12-byte header and one 8-byte entry) and its one 2-byte exchange: two fit.
    const cache = new RegistryCache(2 * (12 + 8 + 2));
    await listedOnRegistry(deps, [9015550100], cache);
    await listedOnRegistry(deps, [9025550100], cache);
    await listedOnRegistry(deps, [9015550100], cache);
    expect(cache.stats).toEqual({ hits: 2, misses: 0, ranges: 4 });
    await listedOnRegistry(deps, [9035550100], cache);
    expect(cache.bytes).toBeLessThanOrEqual(cache.budget);
    // 902 was the least recently used: out. 901 is still in.
    await listedOnRegistry(deps, [9015550100], cache);
    expect(cache.stats).toEqual({ hits: 4, misses: 0, ranges: 6 });
    expect([...(await listedOnRegistry(deps, [9025550100], cache))]).toEqual([9025550100]);
    expect(cache.stats).toEqual({ hits: 4, misses: 0, ranges: 8 });
  });

  it("answers a few numbers by range reads exactly as the whole version does, at exchange and line edges", async () => {
    const deps = createDeps(env);
    // Exchange 000 and 999, lines 0000 and 9999; a sparse exchange (3 numbers) and one stored as bits.
    const edges = [2_010_000_000, 2_010_009_999, 2_019_990_000, 2_019_999_999, 2_015_550_000, 2_015_550_001];
    const dense = Array.from({ length: 2_000 }, (_, i) => 2_017_770_000 + i * 5);
    await storeRegistryFullList(deps, "national", 201, lines(...edges, ...dense));
    const onList = new Set([...edges, ...dense]);
    const random = generator(11);
    const candidates = [
      ...edges,
      ...edges.map((key) => key + 1),
      ...edges.map((key) => key - 1),
      ...dense.slice(0, 50),
      ...dense.slice(0, 50).map((key) => key + 1),
      2_012_340_000,
      ...Array.from({ length: 50 }, () => 2_010_000_000 + Math.floor(random() * 1e7)),
    ].filter((key) => Math.floor(key / 1e7) === 201);
    const ranged = new RegistryCache();
    for (let start = 0; start < candidates.length; start += 3) {
      const few = candidates.slice(start, start + 3);
      const listed = await listedOnRegistry(deps, few, ranged);
      expect(few.filter((key) => listed.has(key) !== onList.has(key))).toEqual([]);
    }
    expect(ranged.stats.misses).toBe(0);
    const whole = new RegistryCache();
    const all = await listedOnRegistry(deps, candidates, whole);
    expect(whole.stats).toMatchObject({ misses: 1, ranges: 0 });
    expect(candidates.filter((key) => all.has(key) !== onList.has(key))).toEqual([]);
  });

  it("reads the pointer afresh when the version a cached pointer names was deleted before its ranges were read", async () => {
    const deps = createDeps(env);
    await storeRegistryFullList(deps, "national", 203, lines(2_035_550_100));
    // A cache that keeps pointers but no bytes: each check reads its ranges from R2.
    const cache = new RegistryCache(0);
    expect([...(await listedOnRegistry(deps, [2_035_550_101], cache))]).toEqual([]);
    // Two swaps elsewhere (another isolate): the version this cache's pointer names is deleted.
    await storeRegistryFullList(deps, "national", 203, lines(2_035_550_101));
    await storeRegistryFullList(deps, "national", 203, lines(2_035_550_101, 2_035_550_102));
    expect([...(await listedOnRegistry(deps, [2_035_550_101, 2_035_550_102], cache))].sort()).toEqual([
      2_035_550_101, 2_035_550_102,
    ]);
    expect(cache.stats.ranges).toBe(4);
  });
});
