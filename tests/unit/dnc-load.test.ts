/**
 * docs/decisions/0083-loading-the-whole-registry.md: `npm run dnc:load` refuses what it cannot send, with
 * exit code 2 and its usage, before it signs in anywhere; a server it cannot reach is exit code 1.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";

const run = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ["--import", "tsx", "scripts/dnc-load.ts", ...args], {
    cwd: root,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, DNC_LOAD_URL: "", DNC_LOAD_SAN: "", DNC_LOAD_USERNAME: "", DNC_LOAD_PASSWORD: "", ...env },
  });

describe("npm run dnc:load", () => {
  it("refuses bad flags, a missing folder, --remote without its address or sign-in, and a national load without a SAN", () => {
    const cases: [string[], Record<string, string>, string][] = [
      [[], {}, "Give one folder"],
      [["a", "b"], {}, "Give one folder"],
      [["dir", "--bogus"], {}, "Unknown option '--bogus'"],
      [["dir", "--scope", "ZZ"], {}, "--scope is one of national, CO"],
      [["dir", "--remote"], {}, "--remote sends to DNC_LOAD_URL"],
      [["dir", "--remote"], { DNC_LOAD_URL: "https://shop.example" }, "Set DNC_LOAD_USERNAME and DNC_LOAD_PASSWORD"],
      [["dir"], {}, "The National Registry needs the shop's SAN"],
    ];
    for (const [args, env, message] of cases) {
      const result = run(args, env);
      expect(result.status, args.join(" ")).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr).toContain("Usage: npm run dnc:load");
    }
  }, 60_000);

  it("says so when the folder holds no registry file (exit code 1)", () => {
    const empty = mkdtempSync(join(tmpdir(), "dnc-load-"));
    const result = run([empty, "--scope", "TX", "--url", "http://127.0.0.1:9"]);
    rmSync(empty, { recursive: true });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("No registry files (full/AAA.txt, changes/AAA.txt)");
  }, 60_000);
});
