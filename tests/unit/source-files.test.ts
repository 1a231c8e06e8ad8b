/**
 * Files that do one thing. No source file runs over 400 lines (the drizzle schema, once the one exception,
 * is a folder of one file per feature: docs/decisions/0073-schema-folder.md), and the live-transfer rules
 * module no longer holds account types or time-zone helpers: they live in modules named for them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import * as accountTypes from "../../src/domain/account-types";
import * as timeZones from "../../src/domain/time-zones";
import * as hours from "../../src/features/transfers/hours";
import * as transfers from "../../src/features/transfers/transfers";

const ROOT = join(dirname(new URL(import.meta.url).pathname), "../..");
const MAX_LINES = 400;

/** Files allowed past MAX_LINES, each with the reason (none today). */
const LONGER: Record<string, string> = {};

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|astro)$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split("\\").join("/"));
}

const lineCount = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

describe("source files", () => {
  const files = ["src", "worker", "scripts", "tests"].flatMap(sourceFiles);

  it(`are at most ${MAX_LINES} lines, but for the named exceptions`, () => {
    expect(files.length).toBeGreaterThan(200);
    const long = files.flatMap((file) => {
      const lines = lineCount(readFileSync(join(ROOT, file), "utf8"));
      return lines > MAX_LINES && !(file in LONGER) ? [`${file}: ${lines} lines`] : [];
    });
    expect(long).toEqual([]);
  });

  it("counts lines as wc -l does", () => {
    expect(lineCount("a\nb\n")).toBe(2);
    expect(lineCount("a\nb")).toBe(2);
  });
});

describe("src/features/transfers/transfers.ts holds the live-transfer rules only", () => {
  it("account types, time zones and transfer hours live in modules named for them", () => {
    for (const name of ["ACCOUNT_TYPES"]) expect(accountTypes).toHaveProperty(name);
    for (const name of ["US_TIME_ZONES", "defaultTimeZone", "APPLICATION_TIME_ZONES", "formatterPerZone", "localTime"])
      expect(timeZones).toHaveProperty(name);
    for (const name of ["withinHours", "parseTransferHours", "formatMinute"]) expect(hours).toHaveProperty(name);
  });

  it("exports none of them", () => {
    const moved = [...Object.keys(accountTypes), ...Object.keys(timeZones), ...Object.keys(hours)];
    expect(moved.filter((name) => name in transfers)).toEqual([]);
  });
});
