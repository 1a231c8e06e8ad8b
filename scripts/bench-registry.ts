/**
 * `npm run bench -- registry [--numbers 258500000]`: the whole National Do Not Call Registry loaded end to
 * end (docs/decisions/0083-loading-the-whole-registry.md). Writes the synthetic registry
 * (`npm run simulate:registry`) to a temporary folder, starts the local server, loads it with
 * `npm run dnc:load` (the tab's HTTP API: parts to R2, the Queue applies area code by area code), and
 * prints the load time, the CLI's peak heap, and D1's and R2's size before and after. Targets: the load in
 * at most 20 minutes, D1 growing by less than 100 MB. The generated folder is deleted at the end.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { DEMO_ADMIN } from "./demo-data.ts";
import { toolEnv } from "./lib/env.ts";
import { root } from "./lib/paths.ts";
import { startLocalServer } from "./local-server.ts";

const TARGETS = { loadMinutes: 20, d1GrowthMb: 100 };

/** Bytes of the files under `dir` whose name passes `keep` (0 when it does not exist). */
function bytesUnder(dir: string, keep: (name: string) => boolean = () => true): number {
  let total = 0;
  try {
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && keep(entry.name)) total += statSync(join(entry.parentPath, entry.name)).size;
    }
  } catch {
    return 0;
  }
  return total;
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

/** Runs a script with Node, echoing its output; answers its output and how long it took. */
function runNode(args: string[], env: Record<string, string> = {}): Promise<{ output: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...toolEnv(), ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout?.on("data", (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.on("exit", (code) =>
      code === 0
        ? resolvePromise({ output, ms: performance.now() - started })
        : reject(new Error(`${args.join(" ")} exited with ${code}`)),
    );
  });
}

export async function benchRegistry(numbers: number): Promise<boolean> {
  console.log(`\nThe whole National Registry: ${numbers.toLocaleString("en-US")} numbers`);
  const dir = mkdtempSync(join(tmpdir(), "registry-bench-"));
  const server = await startLocalServer("bench-registry");
  try {
    const simulated = await runNode([
      "--experimental-strip-types",
      resolve(root, "scripts/simulate-registry.ts"),
      "--numbers",
      String(numbers),
      "--out",
      dir,
    ]);
    const files = bytesUnder(dir, (name) => name.endsWith(".txt"));
    const d1Dir = join(server.persistTo, "v3", "d1");
    const r2Dir = join(server.persistTo, "v3", "r2");
    const d1Before = bytesUnder(d1Dir);
    const r2Before = bytesUnder(r2Dir);
    const load = await runNode(
      ["--import", "tsx", resolve(root, "scripts/dnc-load.ts"), dir, "--url", server.baseURL, "--san", "BENCH-SAN-1"],
      { DNC_LOAD_USERNAME: DEMO_ADMIN.username, DNC_LOAD_PASSWORD: DEMO_ADMIN.password },
    );
    const d1After = bytesUnder(d1Dir);
    const r2After = bytesUnder(r2Dir);
    const heap = /peak heap (\d+) MB/.exec(load.output)?.[1] ?? "?";
    const minutes = load.ms / 60_000;
    const growth = (d1After - d1Before) / 1e6;
    const met = minutes <= TARGETS.loadMinutes && growth < TARGETS.d1GrowthMb && /: applied,/.test(load.output);
    console.log(
      [
        `\nRegistry bench (${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, ` +
          `${(totalmem() / 2 ** 30).toFixed(0)} GB, load ${loadavg()[0]?.toFixed(1)}):`,
        `  files: ${mb(files)} MB written in ${(simulated.ms / 1000).toFixed(1)} s`,
        `  load (dnc:load, start to every area code applied): ${(load.ms / 1000).toFixed(1)} s ` +
          `(target ≤ ${TARGETS.loadMinutes} min) ${minutes <= TARGETS.loadMinutes ? "✓" : "✗"}`,
        `  CLI peak heap: ${heap} MB`,
        `  D1: ${mb(d1Before)} MB before, ${mb(d1After)} MB after (+${growth.toFixed(2)} MB, target < ${TARGETS.d1GrowthMb} MB) ` +
          `${growth < TARGETS.d1GrowthMb ? "✓" : "✗"}`,
        `  R2: ${mb(r2Before)} MB before, ${mb(r2After)} MB after (the bits, and the sent files deleted once applied)`,
      ].join("\n"),
    );
    return met;
  } finally {
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
