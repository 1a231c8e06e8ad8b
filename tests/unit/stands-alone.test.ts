/**
 * The repository stands alone. Comments, tests and docs cite the product rules in
 * docs/product-rules.md by number, never documents a clone does not have (the product decisions, the
 * machine notes, the original specification's sections). Decision records are history and keep their words,
 * except that they too cite product rules rather than those documents.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(dirname(new URL(import.meta.url).pathname), "../..");
const SELF = "tests/unit/stands-alone.test.ts";
const TEXT = /\.(ts|tsx|astro|mjs|js|json|md|sql|toml|css|html|txt|yml|yaml|csv)$/;

/** Citations of documents outside the repository (built from parts so this file does not cite them). */
const OUTSIDE = [
  new RegExp(["PRODUCT", "md"].join("\\.")),
  new RegExp(["NOTES", "md"].join("\\.")),
  new RegExp(["spec", "§"].join(" ")),
  /product-rules\.md D\d/,
  /\((?:[^()]*[;,] )?D(?:[2-9]|1\d|2[0-3])\b/, // a bare decision number such as "(D7)" or "(…; D22)"
];

/**
 * An issue cited by its number (a clone cannot read the issues): the word, an optional "#" or hyphen, digits.
 * Built from parts so this file does not match itself.
 */
const ISSUE = new RegExp([["\\b", "issues?", " ?#?", "\\d+"].join(""), ["issue", "-", "\\d+"].join("")].join("|"), "i");
const ISSUE_SCOPE = /^(src|worker|scripts|tests|docs)\/|^CHANGELOG\.md$/;

const RULES = readFileSync(join(ROOT, "docs/product-rules.md"), "utf8");
const ruleNumbers = new Set([...RULES.matchAll(/^(\d+)\. \*\*/gm)].map((m) => Number(m[1])));

const trackedWithRecords = execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" })
  .split("\n")
  .filter((file) => TEXT.test(file) && file !== SELF);
const tracked = trackedWithRecords.filter((file) => !file.startsWith("docs/decisions/"));

function read(file: string): string {
  try {
    return readFileSync(join(ROOT, file), "utf8");
  } catch {
    return ""; // deleted in the work tree but not yet in the index
  }
}

describe("the repository stands alone", () => {
  it("cites no document outside it", () => {
    expect(trackedWithRecords.length).toBeGreaterThan(tracked.length + 50);
    const found = trackedWithRecords.flatMap((file) =>
      read(file)
        .split("\n")
        .flatMap((line, i) => (OUTSIDE.some((re) => re.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });

  it("cites no issue by number", () => {
    const files = tracked.filter((file) => ISSUE_SCOPE.test(file));
    expect(files.length).toBeGreaterThan(300);
    const found = files.flatMap((file) =>
      read(file)
        .split("\n")
        .flatMap((line, i) => (ISSUE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });

  it("numbers its product rules 1, 2, 3 … without gaps", () => {
    const numbers = [...ruleNumbers].sort((a, b) => a - b);
    expect(numbers.length).toBeGreaterThan(40);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  });

  it("cites only product rules that exist", () => {
    const cited = tracked.flatMap((file) =>
      [...read(file).matchAll(/product rules? ((?:\d+(?:-\d+)?(?:, | and )?)+)/gi)].flatMap((m) =>
        (m[1] ?? "")
          .split(/, | and /)
          .flatMap((part) => part.split("-"))
          .filter(Boolean)
          .map((n) => ({ file, n: Number(n) })),
      ),
    );
    expect(cited.length).toBeGreaterThan(100);
    expect(cited.filter(({ n }) => !ruleNumbers.has(n))).toEqual([]);
  });
});
