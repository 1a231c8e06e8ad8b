/**
 * Tests arrange and read their data through the schema (decision 0067): the factories in
 * tests/worker/factories/, drizzle queries on `testDb()` or `e2eDb()`. Hand-written SQL in a test file
 * (`.prepare(`, `.exec("…")`, drizzle's `sql` template) is allowed only in the files listed here, each with
 * why: where the SQL itself is under test, or where the file is the driver the others run on.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(dirname(new URL(import.meta.url).pathname), "../..");
const SELF = "tests/unit/raw-sql-in-tests.test.ts";

/** A statement prepared or executed by hand, or drizzle's raw `sql` template (not `.sql` file names). */
const RAW_SQL = /\.prepare\(|\.exec\(\s*[`"']|(?<![\w.])sql`/;

/** Test files that may hold raw SQL, and why. Every entry must still hold some (so the list only shrinks). */
const RAW_SQL_ALLOWED: Record<string, string> = {
  // The SQL itself is under test.
  "tests/worker/schema.test.ts": "compares migrated D1 with the schema folder and probes a table by hand",
  "tests/worker/schema-compare.ts": "reads sqlite_master and the table pragmas: the schema itself is under test",
  "worker/features/aged-leads/test/import-scale.worker.test.ts":
    "the import's statements at scale and a trigger that fails them",
  "worker/features/aged-leads/test/admin-leads.worker.test.ts":
    "a trigger that fails a batch's inserts: the failure is under test",
  "tests/worker/callable.test.ts": "the query plan of the callable-leads page is under test",
  "worker/features/do-not-call/test/revocations.worker.test.ts":
    "the query plan of the revocations lookup is under test",
  "worker/features/do-not-call/test/registry-speed.worker.test.ts":
    "a million bench leads made in SQL (a recursive CTE): the re-scrub's speed is under test",
  "worker/features/do-not-call/test/suppression-upload-limits.worker.test.ts":
    "the query plan of the list-swap sweep is under test",
  "worker/features/do-not-call/test/private-list-swap.worker.test.ts":
    "the payment's own private-list check (privateListHoldsSql) is under test",
  "worker/features/transfers/test/transfer-invariants.worker.test.ts":
    "the invariants' oracle: one query over the rows and events, independent of the code under test",
  "worker/features/transfers/test/transfers.worker.test.ts":
    "each UPDATE of the routing-index test fires the triggers of migration 0009, which are under test",
  "tests/worker/d1-usage.ts": "wraps D1's binding to measure the statements the Worker sends",
  "tests/worker/setup.ts": "drops every table before a file and migrates again: the reset itself (decision 0056)",
  "tests/worker/fresh-start.test.ts": "counts every table's rows and the migrations' record: the reset is under test",
  "worker/features/aged-leads/test/marketplace.worker.test.ts":
    "counts the statements and parameters a reservation sends D1: the D1 usage is under test",
  "tests/worker/page-user.test.ts": "counts the D1 statements a page makes: the D1 usage is under test",
  "tests/unit/d1-stand-in.test.ts": "reads the stand-in's database file beside drizzle, to check what drizzle wrote",
  "tests/unit/layering.test.ts": "a route's source text as a fixture of the layering check (no SQL is run)",
  // The driver the browser tests' drizzle runs on.
  "tests/e2e/d1-stand-in.ts": "implements D1's binding on node:sqlite for drizzle (decision 0067)",
  "tests/e2e/database.ts":
    "opens the server's database file and sets how its commits wait for the disk (a PRAGMA, no data)",
  "worker/features/orders/test/payment-events.worker.test.ts":
    "a trigger that fails the payment event's batch: the failure is under test",
  "worker/features/transfers/test/transfer-billing.worker.test.ts":
    "the billing triggers refuse an UPDATE, and migration 0014 runs again: the SQL is under test",
};

const testFiles = execFileSync("git", ["ls-files", "tests", "worker"], { cwd: ROOT, encoding: "utf8" })
  .split("\n")
  .filter((file) => /\.(ts|tsx|js|mjs)$/.test(file))
  .filter((file) => file.startsWith("tests/") || /^worker\/.*\/test\//.test(file))
  .filter((file) => file !== SELF);

function read(file: string): string {
  try {
    return readFileSync(join(ROOT, file), "utf8");
  } catch {
    return ""; // deleted in the work tree but not yet in the index
  }
}

const rawSqlLines = (file: string) =>
  read(file)
    .split("\n")
    .flatMap((line, i) => (RAW_SQL.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));

describe("tests arrange and read data through the schema", () => {
  it("the pattern finds hand-written SQL and leaves regular expressions and file names alone", () => {
    for (const line of [
      'await env.DB.prepare("UPDATE orders SET status = ?")',
      "await env.DB.exec(`DROP TABLE x`)",
      "db.run(sql`UPDATE orders SET quantity = quantity + 1`)",
    ]) {
      expect(RAW_SQL.test(line), line).toBe(true);
    }
    for (const line of [
      "const match = /^(\\d+) of (\\d+)$/.exec(text);",
      "readFileSync(`migrations/${tag}.sql`)",
      "const sqlText = query.toSQL();",
    ]) {
      expect(RAW_SQL.test(line), line).toBe(false);
    }
  });

  it("no test file outside the allow-list writes raw SQL", () => {
    expect(testFiles.length).toBeGreaterThan(100);
    const found = testFiles.filter((file) => !(file in RAW_SQL_ALLOWED)).flatMap(rawSqlLines);
    expect(found).toEqual([]);
  });

  it("every allow-listed file exists and still holds raw SQL, with a reason", () => {
    const stale = Object.entries(RAW_SQL_ALLOWED)
      .filter(([file, why]) => !testFiles.includes(file) || rawSqlLines(file).length === 0 || why.length < 10)
      .map(([file]) => file);
    expect(stale).toEqual([]);
  });
});
