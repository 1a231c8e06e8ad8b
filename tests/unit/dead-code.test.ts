/**
 * No dead code. knip (configured in knip.jsonc with the project's real entry points) finds
 * no unused file, export, type or dependency, and `npm test` runs it beside the type checks.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import * as apiKeys from "../../worker/services/api-keys";

const ROOT = join(dirname(new URL(import.meta.url).pathname), "../..");

describe("dead code (knip)", () => {
  it("finds nothing unused", () => {
    const out = execFileSync(join(ROOT, "node_modules/.bin/knip"), ["--reporter", "json", "--no-progress"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    const { issues } = JSON.parse(out) as { issues: unknown[] };
    expect(issues).toEqual([]);
  }, 120_000);

  it("runs in npm test", () => {
    expect(readFileSync(join(ROOT, "scripts/test.ts"), "utf8")).toMatch(/bin\("knip"\)/);
  });

  it("the partner API's keys are checked one way: the middleware's lookup, not a helper only tests used", () => {
    expect(Object.keys(apiKeys)).not.toContain("verifyApiKey");
    expect(Object.keys(apiKeys)).not.toContain("verifyApiKeyHash");
    expect(Object.keys(apiKeys)).toEqual(expect.arrayContaining(["keyOwnerQuery", "keyOwnerOf", "hashApiKey"]));
  });
});
