/**
 * docs/decisions/0083-loading-the-whole-registry.md: the rules the tab, the CLI and the Worker share — which
 * files of a registry folder are which, and how a file is cut into parts R2 takes.
 */
import { describe, expect, it } from "vitest";
import { partCount, partLength, REGISTRY_PART_BYTES, registryFileOf } from "../registry-upload";

describe("a registry folder's files", () => {
  it.each([
    ["full/201.txt", { areaCode: 201, kind: "full" }],
    ["registry/changes/201.txt", { areaCode: 201, kind: "changes" }],
    ["C:\\registry\\changes\\989.txt", { areaCode: 989, kind: "changes" }],
    ["201.txt", { areaCode: 201, kind: "full" }],
    ["201-changes.txt", { areaCode: 201, kind: "changes" }],
    ["full/manifest.json", null],
    ["full/101.txt", null],
    ["full/2010.txt", null],
  ])("%s is %j", (path, expected) => {
    expect(registryFileOf(path)).toEqual(expected);
  });
});

describe("parts", () => {
  it("cuts a file into equal parts of at least 5 MiB (R2's least) but the last", () => {
    expect(REGISTRY_PART_BYTES).toBeGreaterThanOrEqual(5 * 1024 * 1024);
    expect(partCount(1)).toBe(1);
    expect(partCount(REGISTRY_PART_BYTES)).toBe(1);
    expect(partCount(REGISTRY_PART_BYTES + 1)).toBe(2);
    const size = 2 * REGISTRY_PART_BYTES + 12;
    expect([1, 2, 3].map((part) => partLength(size, part))).toEqual([REGISTRY_PART_BYTES, REGISTRY_PART_BYTES, 12]);
  });
});
