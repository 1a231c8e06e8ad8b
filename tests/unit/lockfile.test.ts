/**
 * The committed package-lock.json is complete: it lists every optional platform package
 * its packages ask for, whichever platform wrote it, so `npm install` on a fresh clone leaves it unchanged.
 * `.ci/run` checks the same thing end to end (`git diff` after `npm install`); this test says which entry
 * is missing without a network.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

interface LockedPackage {
  version?: string;
  resolved?: string;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}
interface Lockfile {
  lockfileVersion: number;
  packages: Record<string, LockedPackage>;
}

const lock = JSON.parse(readFileSync(new URL("../../package-lock.json", import.meta.url), "utf8")) as Lockfile;
const npmrc = readFileSync(new URL("../../.npmrc", import.meta.url), "utf8");

/** Where Node would find `name` from the package at `path`: its own node_modules, then each parent's. */
function lockedLocation(path: string, name: string): string | undefined {
  let at = path;
  for (;;) {
    const candidate = at ? `${at}/node_modules/${name}` : `node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (!at) return undefined;
    const parent = at.lastIndexOf("/node_modules/");
    at = parent === -1 ? "" : at.slice(0, parent);
  }
}

describe("package-lock.json is complete", () => {
  it("is a lockfile v3 without registry URLs, as the project's .npmrc writes it", () => {
    expect(lock.lockfileVersion).toBe(3);
    expect(npmrc).toMatch(/^omit-lockfile-registry-resolved=true$/m);
    const withUrl = Object.entries(lock.packages).filter(([, entry]) => entry.resolved?.startsWith("http"));
    expect(withUrl.map(([path]) => path)).toEqual([]);
  });

  it("locks every optional dependency of every package, for every platform", () => {
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        if (!lockedLocation(path, name)) missing.push(`${path || "(root)"} → ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
