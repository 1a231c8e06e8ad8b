/**
 * `npm run simulate:registry` (docs/decisions/0065): the synthetic registry holds exactly the numbers asked
 * for, over US area codes, in the formats the registry reader takes (each full list and change list reads
 * without a refusal, and each change really changes), and the same seed writes the same bytes.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { shares, usAreaCodes, writeRegistry } from "../../scripts/lib/registry-simulation.ts";
import { applyChangeList, parseFullList } from "../../src/features/do-not-call/registry-file";

const root = resolve(import.meta.dirname, "../..");
const folders: string[] = [];
const folder = () => {
  const made = mkdtempSync(join(tmpdir(), "registry-"));
  folders.push(made);
  return made;
};
afterAll(() => {
  for (const made of folders) rmSync(made, { recursive: true, force: true });
});

describe("the synthetic registry", () => {
  it("splits the numbers asked for over the US area codes, exactly", () => {
    const areaCodes = usAreaCodes();
    expect(areaCodes.length).toBeGreaterThan(300);
    expect(areaCodes).toContain(212);
    for (const total of [1, 357, 258_500_000]) {
      expect(shares(total, areaCodes, 1).reduce((a, b) => a + b, 0)).toBe(total);
    }
  });

  it("writes full lists (555,1234567) and change lists (555,1234567,2026-11-27,A) the registry reader takes, as the manifest says", () => {
    const out = folder();
    const registry = writeRegistry({ numbers: 30_000, out, seed: 7, changeShare: 0.2 });
    const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
    expect(manifest).toMatchObject({ seed: 7, numbers: 30_000 });
    let total = 0;
    for (const { areaCode, numbers, added, deleted } of registry.areaCodes) {
      const full = parseFullList(areaCode, readFileSync(join(out, "full", `${areaCode}.txt`)));
      expect(full.size).toBe(numbers);
      const keys = [...full.keys()];
      // Dialable exchanges only (200-999), and the file was written ascending.
      expect(keys.every((key) => Math.floor((key % 10_000_000) / 10_000) >= 200)).toBe(true);
      const lines = readFileSync(join(out, "full", `${areaCode}.txt`), "utf8")
        .trim()
        .split("\n")
        .map((line) => Number(line.replace(",", "")));
      expect(lines).toEqual(keys);
      total += full.size;
      if (added + deleted === 0) continue;
      const firstChange = readFileSync(join(out, "changes", `${areaCode}.txt`), "utf8").split("\n")[0];
      expect(firstChange).toMatch(new RegExp(`^${areaCode},\\d{7},2026-11-27,D$`));
      const changed = applyChangeList(full, readFileSync(join(out, "changes", `${areaCode}.txt`)));
      expect(changed).toMatchObject({ added, removed: deleted, lines: added + deleted });
      expect(changed.bitmap.size).toBe(numbers);
    }
    expect(total).toBe(30_000);
    expect(registry.areaCodes.some(({ added }) => added > 0)).toBe(true);
  }, 30_000);

  it("writes the same bytes from the same seed, other bytes from another", () => {
    const [a, b, c] = [folder(), folder(), folder()];
    writeRegistry({ numbers: 2_000, out: a, seed: 3, changeShare: 0.5 });
    writeRegistry({ numbers: 2_000, out: b, seed: 3, changeShare: 0.5 });
    writeRegistry({ numbers: 2_000, out: c, seed: 4, changeShare: 0.5 });
    const files = (dir: string) =>
      ["full", "changes"].flatMap((kind) =>
        readdirSync(join(dir, kind))
          .sort()
          .map((name) => `${kind}/${name}:${readFileSync(join(dir, kind, name), "utf8")}`),
      );
    expect(files(a)).toEqual(files(b));
    expect(files(a)).not.toEqual(files(c));
  }, 30_000);

  it("npm run simulate:registry writes from its flags and refuses bad ones with exit code 2", () => {
    const out = folder();
    const run = (args: string[]) =>
      spawnSync(process.execPath, ["--experimental-strip-types", "scripts/simulate-registry.ts", ...args], {
        cwd: root,
        encoding: "utf8",
        timeout: 60_000,
      });
    const written = run(["--numbers", "500", "--out", out]);
    expect(written.stderr).toBe("");
    expect(written.stdout).toMatch(/Wrote 500 numbers over \d+ area codes/);
    expect(readdirSync(join(out, "full")).length).toBeGreaterThan(100);
    const unknown = run(["--numbers", "5", "--out", out, "--bogus", "1"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--bogus'");
    expect(unknown.stderr).toContain("Usage: npm run simulate:registry");
    const tooMany = run(["--numbers", "9000000000", "--out", out]);
    expect(tooMany.status).toBe(2);
    expect(tooMany.stderr).toContain("--numbers must be a whole number from 1 to");
    expect(run(["--numbers", "5"]).stderr).toContain("--out is required");
  }, 60_000);
});
