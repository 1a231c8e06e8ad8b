/**
 * docs/decisions/0065-do-not-call-registry-as-bitmaps.md: the registry's bits per area code are exact at the
 * edges of an exchange and of an area code, survive the stored form, and the FTC-style files (full lists and
 * change lists) are read strictly: a bad file is refused whole with a message naming its line.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AreaCodeBitmap,
  blockHas,
  EXCHANGE_BYTES,
  INDEX_SPAN_BYTES,
  RegistryBitmapError,
  SPARSE_BELOW,
  StoredAreaCode,
  StoredAreaCodeIndex,
} from "../registry-bitmap";
import {
  applyChangeList,
  changeListReader,
  parseFullList,
  REGISTRY_FILE_ERRORS,
  RegistryFileError,
} from "../registry-file";

const lines = (...records: (number | string)[]) => records.map((record) => `${record}\n`).join("");

/** A lookup by ranges of the stored bytes, as a Worker makes it: the index from the first bytes, then one block. */
function byRanges(bytes: Uint8Array) {
  const index = new StoredAreaCodeIndex(
    bytes.subarray(0, Math.min(bytes.byteLength, INDEX_SPAN_BYTES)),
    bytes.byteLength,
  );
  return {
    has(key: number) {
      const block = index.blockOf(key);
      return block !== null && blockHas(block, bytes.subarray(block.offset, block.offset + block.length), key);
    },
  };
}

/**
 * Every form a lookup can be answered from: the bitmap, its stored bytes, those bytes read back, and those
 * bytes read by ranges.
 */
function forms(bitmap: AreaCodeBitmap) {
  const bytes = bitmap.serialize();
  return [bitmap, new StoredAreaCode(bytes), AreaCodeBitmap.deserialize(bytes), byRanges(bytes)];
}

describe("an area code's bits", () => {
  it("sets, tests and clears the first and last line of an exchange and of the area code", () => {
    const bitmap = new AreaCodeBitmap(212);
    const edges = [2120000000, 2120009999, 2120010000, 2129990000, 2129999999, 2125550007, 2125550008];
    for (const key of edges) expect(bitmap.add(key)).toBe(true);
    expect(bitmap.add(2120000000)).toBe(false);
    expect(bitmap.size).toBe(edges.length);
    expect(bitmap.exchanges()).toEqual([0, 1, 555, 999]);
    for (const form of forms(bitmap)) {
      for (const key of edges) expect(form.has(key), String(key)).toBe(true);
      // The neighbours of each edge are not set: no bit leaks into the next byte, exchange or area code.
      for (const key of [2120000001, 2120009998, 2120010001, 2129989999, 2125550006, 2125550009]) {
        expect(form.has(key), String(key)).toBe(false);
      }
    }
    expect([...bitmap.keys()]).toEqual([...edges].sort((a, b) => a - b));
    expect(bitmap.delete(2120009999)).toBe(true);
    expect(bitmap.delete(2120009999)).toBe(false);
    expect(bitmap.has(2120009999)).toBe(false);
    expect(bitmap.has(2120000000)).toBe(true);
    // Clearing an exchange's last number drops the exchange from the stored form.
    expect(bitmap.delete(2120010000)).toBe(true);
    expect(bitmap.exchanges()).toEqual([0, 555, 999]);
  });

  it("refuses a number of another area code, and answers false for one in a stored form", () => {
    const bitmap = new AreaCodeBitmap(212);
    expect(() => bitmap.add(2130000000)).toThrow("2130000000 is not a number in area code 212.");
    expect(() => bitmap.has(2119999999)).toThrow(RegistryBitmapError);
    expect(() => new AreaCodeBitmap(199)).toThrow("199 is no area code (200-999).");
    bitmap.add(2129999999);
    expect(new StoredAreaCode(bitmap.serialize()).has(2130000000)).toBe(false);
    expect(new StoredAreaCode(bitmap.serialize()).has(3129999999)).toBe(false);
  });

  it("stores a sparse exchange as its lines and a dense one as 1,250 bytes of bits", () => {
    const sparse = new AreaCodeBitmap(305);
    for (let line = 0; line < SPARSE_BELOW - 1; line++) sparse.add(3055550000 + line * 3);
    const header = 12 + 8;
    expect(sparse.serialize().byteLength).toBe(header + (SPARSE_BELOW - 1) * 2);
    const dense = sparse.clone();
    dense.add(3055559999);
    expect(dense.serialize().byteLength).toBe(header + EXCHANGE_BYTES);
    // The clone is its own: the original did not change.
    expect(sparse.has(3055559999)).toBe(false);
    const full = new AreaCodeBitmap(999);
    for (let exchange = 0; exchange < 1000; exchange++) full.add(9990000000 + exchange * 10_000 + 9999);
    expect(full.serialize().byteLength).toBe(12 + 8 * 1000 + 2 * 1000);
    for (const form of forms(dense)) expect(form.has(3055550003) && !form.has(3055550004)).toBe(true);
  });

  it("refuses damaged stored bytes instead of answering from them", () => {
    const bitmap = new AreaCodeBitmap(415);
    bitmap.add(4155550100);
    const bytes = bitmap.serialize();
    expect(() => new StoredAreaCode(bytes.subarray(0, bytes.byteLength - 1))).toThrow(/damaged/);
    const wrongMagic = bytes.slice();
    wrongMagic[0] = 0;
    expect(() => new StoredAreaCode(wrongMagic)).toThrow(/damaged/);
    const wrongCount = bytes.slice();
    wrongCount[8] = 2;
    expect(() => AreaCodeBitmap.deserialize(wrongCount)).toThrow(/damaged/);
  });

  it("refuses a damaged index or block read by ranges", () => {
    const bitmap = new AreaCodeBitmap(415);
    for (const key of [4155550100, 4155550101, 4159990000]) bitmap.add(key);
    const bytes = bitmap.serialize();
    const head = bytes.subarray(0, 12 + 2 * 8);
    expect(new StoredAreaCodeIndex(head, bytes.byteLength).blockOf(4159990000)).toMatchObject({
      exchange: 999,
      count: 1,
      length: 2,
    });
    // The stored object's length disagrees with the index, the index is cut short, the magic is wrong.
    expect(() => new StoredAreaCodeIndex(head, bytes.byteLength + 2)).toThrow(/damaged/);
    expect(() => new StoredAreaCodeIndex(head.subarray(0, 12 + 8), bytes.byteLength)).toThrow(/damaged/);
    const wrongMagic = head.slice();
    wrongMagic[1] = 0;
    expect(() => new StoredAreaCodeIndex(wrongMagic, bytes.byteLength)).toThrow(/damaged/);
    // A block of another length than the index says.
    const index = new StoredAreaCodeIndex(head, bytes.byteLength);
    const block = index.blockOf(4155550100);
    expect(block).not.toBeNull();
    if (block)
      expect(() => blockHas(block, bytes.subarray(block.offset, block.offset + 2), 4155550100)).toThrow(/damaged/);
    // An exchange with no number has no block; a number of another area code neither.
    expect(index.blockOf(4151230000)).toBeNull();
    expect(index.blockOf(2125550100)).toBeNull();
  });
});

describe("full lists and change lists", () => {
  it("a full list becomes the area code's bits; CRLF line ends are taken", () => {
    const bitmap = parseFullList(646, "6465550100\r\n6465550101\n6465550100\n");
    expect([...bitmap.keys()]).toEqual([6465550100, 6465550101]);
  });

  it("a change list adds and deletes in order, on a copy, and counts what really changed", () => {
    const current = parseFullList(646, lines(6465550100, 6465550101));
    const changed = applyChangeList(
      current,
      lines("6465550102,A", "6465550100,D", "6465550101,A", "6465550103,A", "6465550103,D", "6465550199,D"),
    );
    expect([...changed.bitmap.keys()]).toEqual([6465550101, 6465550102]);
    expect(changed).toMatchObject({ added: 2, removed: 2, lines: 6 });
    expect([...current.keys()]).toEqual([6465550100, 6465550101]);
  });

  it("reads a file cut into pieces anywhere, even inside a line", () => {
    const text = new TextEncoder().encode(lines("6465550102,A", "6465550100,D"));
    for (let cut = 0; cut <= text.byteLength; cut++) {
      const reader = changeListReader(parseFullList(646, lines(6465550100)));
      reader.push(text.subarray(0, cut));
      reader.push(text.subarray(cut));
      expect([...reader.end().bitmap.keys()]).toEqual([6465550102]);
    }
  });

  it.each([
    ["full", "", REGISTRY_FILE_ERRORS.empty("full"), null],
    ["changes", "", REGISTRY_FILE_ERRORS.empty("changes"), null],
    ["full", "6465550100\n64655501", REGISTRY_FILE_ERRORS.truncated(2), null],
    ["full", "6465550100", REGISTRY_FILE_ERRORS.truncated(1), null],
    ["full", "6465550100\n\n", REGISTRY_FILE_ERRORS.format(2, "full", ""), 2],
    ["full", "646-555-0100\n", REGISTRY_FILE_ERRORS.format(1, "full", "646-555-0100"), 1],
    ["full", "6465550100,A\n", REGISTRY_FILE_ERRORS.format(1, "full", "6465550100,A"), 1],
    ["full", "6465550100\n2125550100\n", REGISTRY_FILE_ERRORS.areaCode(2, 2125550100, 646), 2],
    ["changes", "6465550100\n", REGISTRY_FILE_ERRORS.format(1, "changes", "6465550100"), 1],
    ["changes", "6465550100,X\n", REGISTRY_FILE_ERRORS.format(1, "changes", "6465550100,X"), 1],
    ["changes", "6465550100;A\n", REGISTRY_FILE_ERRORS.format(1, "changes", "6465550100;A"), 1],
    ["changes", "6465550100,A\n6465550100,a\n", REGISTRY_FILE_ERRORS.format(2, "changes", "6465550100,a"), 2],
    ["changes", "2125550100,D\n", REGISTRY_FILE_ERRORS.areaCode(1, 2125550100, 646), 1],
    ["changes", `${"6".repeat(5000)}\n`, REGISTRY_FILE_ERRORS.format(1, "changes", `${"6".repeat(26)}…`), 1],
  ] as const)("a %s file is refused (case %#): %s", (kind, text, message, line) => {
    const current = parseFullList(646, lines(6465550100));
    const read = () => (kind === "full" ? parseFullList(646, text) : applyChangeList(current, text));
    expect(read).toThrow(new RegistryFileError(message, line));
    try {
      read();
    } catch (error) {
      expect((error as RegistryFileError).line).toBe(line);
    }
    // Refused whole: the current bits are as they were.
    expect([...current.keys()]).toEqual([6465550100]);
  });

  it("refuses an area code that is none", () => {
    expect(() => parseFullList(100, lines(1005550100))).toThrow(REGISTRY_FILE_ERRORS.noAreaCode(100));
  });
});

describe("property: lookups equal a reference set", () => {
  const areaCodes = [201, 212, 999] as const;
  const keyIn = (areaCode: number) =>
    fc
      .oneof(
        fc.integer({ min: 0, max: 9_999_999 }),
        // Crowd a few exchanges so some are stored dense, and hit the edges.
        fc.integer({ min: 5_550_000, max: 5_551_999 }),
        fc.constantFrom(0, 9_999, 10_000, 9_990_000, 9_999_999),
      )
      .map((subscriber) => areaCode * 10_000_000 + subscriber);
  const change = fc.constantFrom(...areaCodes).chain((areaCode) => fc.tuple(keyIn(areaCode), fc.boolean()));

  it("after full lists and change lists applied in any order of area codes", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...areaCodes).chain(keyIn), { maxLength: 3000 }),
        fc.array(fc.array(change, { minLength: 1, maxLength: 800 }), { minLength: 1, maxLength: 3 }),
        fc.array(fc.constantFrom(...areaCodes), { minLength: 1, maxLength: 8 }),
        (initial, changeFiles, order) => {
          const reference = new Set(initial);
          const bitmaps = new Map(
            areaCodes.map((areaCode) => {
              const own = initial.filter((key) => Math.floor(key / 1e7) === areaCode);
              return [areaCode, own.length ? parseFullList(areaCode, lines(...own)) : new AreaCodeBitmap(areaCode)];
            }),
          );
          // Each change file splits into one change list per area code, applied in the drawn order.
          for (const changes of changeFiles) {
            for (const [key, add] of changes) add ? reference.add(key) : reference.delete(key);
            for (const areaCode of new Set([...order, ...areaCodes])) {
              const own = changes.filter(([key]) => Math.floor(key / 1e7) === areaCode);
              if (own.length === 0) continue;
              const text = lines(...own.map(([key, add]) => `${key},${add ? "A" : "D"}`));
              bitmaps.set(areaCode, applyChangeList(bitmaps.get(areaCode) as AreaCodeBitmap, text).bitmap);
            }
          }
          const probes = [...initial, ...changeFiles.flat().map(([key]) => key), 2125550000, 9999999999];
          for (const areaCode of areaCodes) {
            const bitmap = bitmaps.get(areaCode) as AreaCodeBitmap;
            const own = [...reference].filter((key) => Math.floor(key / 1e7) === areaCode).sort((a, b) => a - b);
            expect([...bitmap.keys()]).toEqual(own);
            for (const form of forms(bitmap)) {
              for (const key of probes.filter((probe) => Math.floor(probe / 1e7) === areaCode)) {
                if (form.has(key) !== reference.has(key)) return false;
              }
            }
          }
          return true;
        },
      ),
      { numRuns: 60 },
    );
  });
});
