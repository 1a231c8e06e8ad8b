/**
 * No dead code: knip (configured in knip.jsonc with the project's real entry points) finds no unused file,
 * export, type or dependency, and `npm test` runs it beside the type checks. Under `npm test` knip runs once,
 * as one of the static checks, and this test reads the report that run wrote (KNIP_REPORT) instead of running
 * it a second time (docs/decisions/0056); on its own, the test runs knip.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import * as apiKeys from "../../worker/features/partners/api-keys";

const ROOT = join(dirname(new URL(import.meta.url).pathname), "../..");

function knipReport(): string {
  const written = process.env.KNIP_REPORT;
  if (written) return readFileSync(written, "utf8");
  return execFileSync(join(ROOT, "node_modules/.bin/knip"), ["--reporter", "json", "--no-progress"], {
    cwd: ROOT,
    encoding: "utf8",
  });
}

describe("dead code (knip)", () => {
  it("finds nothing unused", () => {
    const { issues } = JSON.parse(knipReport()) as { issues: unknown[] };
    expect(issues).toEqual([]);
  }, 120_000);

  it("runs in npm test, once: its JSON report goes to this test", () => {
    const gate = readFileSync(join(ROOT, "scripts/test.ts"), "utf8");
    expect(gate).toMatch(/bin\("knip"\)/);
    expect(gate).toMatch(/"--reporter", "json", "--output-file", `json=\$\{knipReport\}`/);
    expect(gate).toMatch(/env: \{ KNIP_REPORT: knipReport \}/);
  });

  it("the partner API's keys are checked one way: the middleware's lookup, not a helper only tests used", () => {
    expect(Object.keys(apiKeys)).not.toContain("verifyApiKey");
    expect(Object.keys(apiKeys)).not.toContain("verifyApiKeyHash");
    expect(Object.keys(apiKeys)).toEqual(expect.arrayContaining(["keyOwnerQuery", "keyOwnerOf", "hashApiKey"]));
  });
});
