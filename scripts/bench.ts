/**
 * `npm run bench`: builds, serves locally, then runs every part; `npm run bench -- pages` (or
 * `import`) runs only the parts named. Exits 1 when a part reports a failure.
 *  - pages (scripts/bench-pages.ts): bytes per route against the JavaScript budgets, and Lighthouse
 *    (`--runs N` runs per route, median; `--runs 0` skips it).
 *  - import (scripts/bench-import.ts): a 100,000-row CSV import end to end (`--rows 20000` for fewer).
 */
import type { Browser } from "playwright-core";
import { benchImport } from "./bench-import.ts";
import { benchPages } from "./bench-pages.ts";
import { launchChromium } from "./chromium.ts";
import { build, parseFlags } from "./lib.ts";
import { startLocalServer } from "./local-server.ts";

type Part = (browser: Browser, baseURL: string, flags: Map<string, string | true>) => Promise<boolean>;

const parts: Record<string, Part> = {
  pages: (browser, baseURL, flags) => benchPages(browser, baseURL, { lighthouseRuns: Number(flags.get("runs") ?? 3) }),
  import: async (browser, baseURL, flags) =>
    (await benchImport(browser, baseURL, Number(flags.get("rows") ?? 100_000))).accounted,
};

const argv = process.argv.slice(2);
const firstFlag = argv.findIndex((arg) => arg.startsWith("--"));
const named = argv.slice(0, firstFlag === -1 ? argv.length : firstFlag);
const flags = parseFlags(argv.slice(named.length));
const unknown = named.filter((name) => !(name in parts));
if (unknown.length > 0) {
  console.error(`Unknown bench part(s): ${unknown.join(", ")}. Parts: ${Object.keys(parts).join(", ")}`);
  process.exit(2);
}

build();
const server = await startLocalServer("bench-state");
const browser = await launchChromium();
try {
  for (const name of named.length > 0 ? named : Object.keys(parts)) {
    const ok = await (parts[name] as Part)(browser, server.baseURL, flags);
    if (!ok) process.exitCode = 1;
  }
} finally {
  await browser.close();
  server.stop();
}
