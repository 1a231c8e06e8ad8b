/**
 * `npm run bench -- registry [--numbers 258500000] [--only cli|tab]`: the whole National Do Not Call Registry
 * loaded end to end (docs/decisions/0083-loading-the-whole-registry.md). Writes the synthetic registry
 * (`npm run simulate:registry`) to a temporary folder, starts the local server, loads it with
 * `npm run dnc:load` (the tab's HTTP API: parts to R2, the Queue applies area code by area code) and then
 * (or with `--only`, instead) through the Do Not Call tab in Chromium with the tab's JS heap sampled, and
 * prints each load's time and peak heap, and D1's and R2's size before and after. Targets: each load in at
 * most 20 minutes, the tab's heap under 150 MB, D1 growing by less than 100 MB. With the registry loaded by
 * the CLI, the marketplace and pings are timed beside it (bench-registry-shop.ts: 1,000,000 leads, 10,000 open
 * orders). The generated folder is deleted at the end.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import type { Browser } from "playwright-core";
import { fillShop, shopKeys, timeShop, timeShopPingsBefore } from "./bench-registry-shop.ts";
import { launchChromium } from "./chromium.ts";
import { DEMO_ADMIN } from "./demo-data.ts";
import { OPEN_CALLING_HOURS_VARS, toolEnv } from "./lib/env.ts";
import { root } from "./lib/paths.ts";
import { startLocalServer } from "./local-server.ts";

const TARGETS = { loadMinutes: 20, d1GrowthMb: 100, tabHeapMb: 150 };

/** Loads `dir` through the Do Not Call tab as the demo admin; the tab's JS heap sampled through DevTools. */
async function loadInTab(browser: Browser, baseURL: string, dir: string) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(new URL("/login?next=%2Fadmin%2Fdo-not-call", baseURL).toString());
  await page.getByLabel("Username").fill(DEMO_ADMIN.username);
  await page.getByLabel("Password", { exact: true }).fill(DEMO_ADMIN.password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL("**/admin/do-not-call");
  await page.getByRole("button", { name: "Load a registry" }).click();
  await page.getByLabel("Subscription Account Number (SAN)").fill("BENCH-SAN-1");
  await page.getByLabel("Registry folder").setInputFiles(dir);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const heap = async () =>
    ((await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "JSHeapUsedSize")?.value ?? 0) / 2 ** 20;
  let peak = await heap();
  const started = performance.now();
  await page.getByRole("button", { name: /Upload the registry|Resume the upload/ }).click();
  const status = page.getByTestId("registry-upload-status");
  let lastLog = started;
  for (;;) {
    peak = Math.max(peak, await heap());
    const text = (await status.textContent({ timeout: 100 }).catch(() => null)) ?? "";
    if (/: applied/.test(text)) break;
    if (/some files refused/.test(text)) throw new Error(`The tab's load refused files: ${text}`);
    if (performance.now() - started > 30 * 60_000) throw new Error("The tab's load did not finish within 30 minutes");
    if (performance.now() - lastLog > 30_000) {
      lastLog = performance.now();
      const sending =
        (await page
          .getByText(/^Sending:/)
          .textContent({ timeout: 100 })
          .catch(() => null)) ?? text;
      console.log(
        `  tab ${((lastLog - started) / 1000).toFixed(0)} s: ${sending}; heap ${peak.toFixed(1)} MiB at peak`,
      );
    }
    await page.waitForTimeout(500);
  }
  const ms = performance.now() - started;
  await page.close();
  return { ms, peakHeapMb: peak };
}

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

export async function benchRegistry(numbers: number, only?: string): Promise<boolean> {
  console.log(`\nThe whole National Registry: ${numbers.toLocaleString("en-US")} numbers`);
  const dir = mkdtempSync(join(tmpdir(), "registry-bench-"));
  // A state folder of its own (a second bench run must not wipe a running one's), removed at the end: R2
  // holds gigabytes of sent files while a load runs.
  // The shop beside it (bench-registry-shop.ts): 1,000,000 leads and 10,000 open orders, timed once loaded.
  const keys = shopKeys();
  const server = await startLocalServer(`bench-registry-${process.pid}`, OPEN_CALLING_HOURS_VARS, {
    beforeStart: (persistTo) => fillShop(persistTo, keys),
  });
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
    const lines = [
      `\nRegistry bench (${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, ` +
        `${(totalmem() / 2 ** 30).toFixed(0)} GB, load ${loadavg()[0]?.toFixed(1)}):`,
      `  files: ${mb(files)} MB written in ${(simulated.ms / 1000).toFixed(1)} s`,
    ];
    if (only !== "tab") lines.push(await timeShopPingsBefore(server.baseURL, keys, dir));
    let met = true;
    const within = (ms: number) => ms / 60_000 <= TARGETS.loadMinutes;
    if (only !== "tab") {
      const load = await runNode(
        ["--import", "tsx", resolve(root, "scripts/dnc-load.ts"), dir, "--url", server.baseURL, "--san", "BENCH-SAN-1"],
        { DNC_LOAD_USERNAME: DEMO_ADMIN.username, DNC_LOAD_PASSWORD: DEMO_ADMIN.password },
      );
      const heap = /peak heap (\d+) MB/.exec(load.output)?.[1] ?? "?";
      met &&= within(load.ms) && /: applied,/.test(load.output);
      lines.push(
        `  dnc:load, start to every area code applied: ${(load.ms / 1000).toFixed(1)} s ` +
          `(target ≤ ${TARGETS.loadMinutes} min) ${within(load.ms) ? "✓" : "✗"}; CLI peak heap ${heap} MB`,
      );
    }
    const d1AfterCli = bytesUnder(d1Dir);
    if (only !== "tab") {
      const shop = await timeShop(server.baseURL, keys, dir);
      met &&= shop.met;
      lines.push(...shop.lines);
    }
    if (only !== "cli") {
      const browser = await launchChromium();
      try {
        const tab = await loadInTab(browser, server.baseURL, dir);
        const heapMet = tab.peakHeapMb < TARGETS.tabHeapMb;
        met &&= within(tab.ms) && heapMet;
        lines.push(
          `  the Do Not Call tab, start to applied: ${(tab.ms / 1000).toFixed(1)} s ${within(tab.ms) ? "✓" : "✗"}; ` +
            `tab JS heap ${tab.peakHeapMb.toFixed(1)} MiB at peak (target < ${TARGETS.tabHeapMb}) ${heapMet ? "✓" : "✗"}`,
        );
      } finally {
        await browser.close();
      }
    }
    const d1After = bytesUnder(d1Dir);
    const growth = ((only === "tab" ? d1After : d1AfterCli) - d1Before) / 1e6;
    met &&= growth < TARGETS.d1GrowthMb;
    lines.push(
      `  D1: ${mb(d1Before)} MB before, ${mb(d1AfterCli)} MB after one load (+${growth.toFixed(2)} MB, target < ` +
        `${TARGETS.d1GrowthMb} MB) ${growth < TARGETS.d1GrowthMb ? "✓" : "✗"}, ${mb(d1After)} MB at the end`,
      `  R2: ${mb(r2Before)} MB before, ${mb(bytesUnder(r2Dir))} MB after (the bits; sent files are deleted once applied)`,
    );
    console.log(lines.join("\n"));
    return met;
  } finally {
    server.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(server.persistTo, { recursive: true, force: true });
  }
}
