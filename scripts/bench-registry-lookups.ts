/**
 * `npm run bench -- registry-lookups` (docs/decisions/0084): the registry check and the re-scrub, timed inside
 * the Worker. Runs worker/features/do-not-call/test/registry-speed.worker.test.ts in workerd (vitest's Worker
 * pool) with `--registry-leads N` leads (default 1,000,000, over ten area codes), and checks its figures:
 * a check for a cached area code at most 1 ms, for one not yet cached (its index and the number's exchange
 * read from R2 by ranges, decision 0065) at most 50 ms, and the full lists' re-scrub of every lead at most 2 minutes a million.
 */
import { spawnSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { toolEnv } from "./lib/env.ts";
import { bin, root } from "./lib/paths.ts";

const TEST_FILE = "worker/features/do-not-call/test/registry-speed.worker.test.ts";
const TARGETS = { cachedCheckMs: 1, uncachedCheckMs: 50, rescrubPerMillionMs: 120_000 };

interface RegistryFigures {
  leads: number;
  listed: number;
  insertMs: number;
  rescrubMs: number;
  rescrubPerMillionMs: number;
  cachedCheckMs: number;
  uncachedCheckMs: number;
}

/** Runs the timed test with `leads` leads; answers whether every target was met. */
export function benchRegistryLookups(leads: number): boolean {
  const load = loadavg()[0]?.toFixed(1);
  const result = spawnSync(bin("vitest"), ["run", "--project", "worker", TEST_FILE], {
    cwd: root,
    encoding: "utf8",
    env: toolEnv({ REGISTRY_BENCH_LEADS: String(leads) }),
    maxBuffer: 64 * 1024 * 1024,
  });
  const line = `${result.stdout}\n${result.stderr}`.split("\n").find((text) => text.includes("REGISTRY_BENCH {"));
  if (result.status !== 0 || !line) {
    console.error(result.stdout, result.stderr);
    console.error("✖ registry-lookups: the timed test failed");
    return false;
  }
  const figures = JSON.parse(line.slice(line.indexOf("{"))) as RegistryFigures;
  const met = {
    cached: figures.cachedCheckMs <= TARGETS.cachedCheckMs,
    uncached: figures.uncachedCheckMs <= TARGETS.uncachedCheckMs,
    rescrub: figures.rescrubPerMillionMs <= TARGETS.rescrubPerMillionMs,
  };
  const mark = (ok: boolean) => (ok ? "✓" : "✖");
  console.log(`\nThe registry in every check (${cpus().length} cores, load ${load} at the start)`);
  console.log(`  ${mark(met.cached)} check, cached area code: ${figures.cachedCheckMs} ms (target ≤ 1 ms)`);
  console.log(
    `  ${mark(met.uncached)} check, area code not yet cached: ${figures.uncachedCheckMs} ms (target ≤ 50 ms)`,
  );
  console.log(
    `  ${mark(met.rescrub)} re-scrub of ${figures.leads.toLocaleString("en-US")} leads (${figures.listed.toLocaleString("en-US")} flagged): ` +
      `${(figures.rescrubMs / 1000).toFixed(1)} s, ${(figures.rescrubPerMillionMs / 1000).toFixed(1)} s a million (target ≤ 120 s)`,
  );
  console.log(`    (the leads were inserted in ${(figures.insertMs / 1000).toFixed(1)} s)`);
  return met.cached && met.uncached && met.rescrub;
}
