/**
 * `npm run bench`: builds, then runs every part; `npm run bench -- pages import` runs only the parts
 * named. Exits 1 when a part reports a failure (a page over its budget, rows not accounted for, a speed
 * target missed).
 *  - pages (scripts/bench-pages.ts): bytes per route against the JavaScript budgets, and Lighthouse
 *    (`--runs N` runs per route, median; `--runs 0` skips it; `--routes /admin,/survey` only those routes).
 *  - import (scripts/bench-import.ts): a CSV import end to end in Chromium (`--rows N`, default 100,000).
 *  - leads (scripts/bench-leads.ts): the aged-lead marketplace at 100,000 and 1,000,000 leads
 *    (`--lead-sizes 20000,100000` picks sizes; the overlapping filter `TX,FL,<an FL area code>` among them).
 *  - transfers (scripts/bench-transfers.ts): the partner API's routing and events over 10,000 open orders
 *    and 1,000,000 transfers (`--orders`, `--transfers`, `--pings`, `--concurrency`).
 *  - suppression (scripts/bench-suppression.ts): 5,000,000 Do Not Call numbers loaded in Chromium, then the
 *    marketplace at 100,000 and 1,000,000 leads, pings and a 1,000,000-row import beside them (`--numbers`,
 *    `--import-rows`, `--pings`, `--runs`; `--only private` runs just the private list's re-upload line,
 *    with `--numbers`, `--private-numbers` and the larger of `--lead-sizes`).
 *  - webhooks (scripts/bench-webhooks.ts): 10,000 purchased leads delivered to a local receiver as buyer
 *    webhooks, under 60 s, each once (`--webhook-runs N`, default 3, median).
 *  - registry (scripts/bench-registry.ts): the whole National Do Not Call Registry (`--numbers`, default
 *    258,500,000) written by the simulator and loaded with `npm run dnc:load` and through the Do Not Call
 *    tab (`--only cli` or `--only tab` for one): load times, peak heaps, D1 size before and after.
 *  - revocations (scripts/bench-revocations.ts): a litigator list's change touching 10,000 sold leads of 50
 *    buyers, every buyer told by webhook within 5 minutes (`--revocation-runs N`, default 1).
 *  - registry-lookups (scripts/bench-registry-lookups.ts): the Do Not Call registry check inside the Worker,
 *    cached and not yet cached, and a full list's re-scrub of `--registry-leads N` leads (default 1,000,000).
 * `--runs N` repeats leads and suppression N times on fresh databases (docs/performance.md gets the median).
 */
import { parseArgs } from "node:util";
import type { Browser } from "playwright-core";
import { benchImport } from "./bench-import.ts";
import { benchLeads } from "./bench-leads.ts";
import { benchPages } from "./bench-pages.ts";
import { benchRegistry } from "./bench-registry.ts";
import { benchRegistryLookups } from "./bench-registry-lookups.ts";
import { benchRevocations } from "./bench-revocations.ts";
import { benchSuppression } from "./bench-suppression.ts";
import { benchPrivateOnly } from "./bench-suppression-private.ts";
import { benchTransfers } from "./bench-transfers.ts";
import { benchWebhooks } from "./bench-webhooks.ts";
import { launchChromium } from "./chromium.ts";
import { build } from "./lib/run.ts";
import { startLocalServer } from "./local-server.ts";

/** Every part's flags, all `--name value`; each part applies its own defaults (`--runs` differs by part). */
const options = {
  runs: { type: "string" },
  routes: { type: "string" },
  rows: { type: "string" },
  "lead-sizes": { type: "string" },
  orders: { type: "string" },
  transfers: { type: "string" },
  pings: { type: "string" },
  concurrency: { type: "string" },
  numbers: { type: "string" },
  "import-rows": { type: "string" },
  "private-numbers": { type: "string" },
  "webhook-runs": { type: "string" },
  "revocation-runs": { type: "string" },
  "registry-leads": { type: "string" },
  only: { type: "string" },
} as const;
type Flags = { [name in keyof typeof options]?: string };
/** A part that measures in Chromium against the shared bench server; false when its target is missed. */
type BrowserPart = (browser: Browser, baseURL: string, flags: Flags) => Promise<boolean>;
/** A part that builds its own database and server. */
type StandalonePart = (flags: Flags) => Promise<boolean>;

const browserParts: Record<string, BrowserPart> = {
  pages: (browser, baseURL, flags) => {
    const { routes } = flags;
    return benchPages(browser, baseURL, {
      lighthouseRuns: Number(flags.runs ?? 3),
      ...(routes === undefined ? {} : { routes: routes.split(",") }),
    });
  },
  import: async (browser, baseURL, flags) =>
    (await benchImport(browser, baseURL, Number(flags.rows ?? 100_000))).accounted,
};
const standaloneParts: Record<string, StandalonePart> = {
  leads: async (flags) => {
    await benchLeads(flags["lead-sizes"]?.split(",").map(Number), Number(flags.runs ?? 1));
    return true;
  },
  transfers: async (flags) =>
    (
      await benchTransfers({
        orders: Number(flags.orders ?? 10_000),
        transfers: Number(flags.transfers ?? 1_000_000),
        pings: Number(flags.pings ?? 500),
        concurrency: Number(flags.concurrency ?? 8),
      })
    ).met,
  suppression: (flags) =>
    flags.only === "private"
      ? benchPrivateOnly({
          numbers: Number(flags.numbers ?? 5_000_000),
          leads: Math.max(...(flags["lead-sizes"]?.split(",").map(Number) ?? [1_000_000])),
          privateNumbers: Number(flags["private-numbers"] ?? 1_000_000),
        })
      : benchSuppression({
          numbers: Number(flags.numbers ?? 5_000_000),
          leadSizes: (flags["lead-sizes"]?.split(",").map(Number) ?? [100_000, 1_000_000]) as [number, number],
          importRows: Number(flags["import-rows"] ?? 1_000_000),
          pings: Number(flags.pings ?? 500),
          runs: Number(flags.runs ?? 1),
          privateNumbers: Number(flags["private-numbers"] ?? 1_000_000),
        }),
  webhooks: (flags) => benchWebhooks(Number(flags["webhook-runs"] ?? 3)),
  revocations: (flags) => benchRevocations(Number(flags["revocation-runs"] ?? 1)),
  registry: (flags) => benchRegistry(Number(flags.numbers ?? 258_500_000), flags.only),
  "registry-lookups": async (flags) => benchRegistryLookups(Number(flags["registry-leads"] ?? 1_000_000)),
};
const known = [...Object.keys(browserParts), ...Object.keys(standaloneParts)];

const flagNames = Object.keys(options).map((name) => `--${name}`);
let named: string[];
let flags: Flags;
try {
  ({ positionals: named, values: flags } = parseArgs({ options, strict: true, allowPositionals: true }));
} catch (error) {
  console.error(`${(error as Error).message}\nParts: ${known.join(", ")}. Flags: ${flagNames.join(", ")}`);
  process.exit(2);
}
const unknown = named.filter((name) => !known.includes(name));
if (unknown.length > 0) {
  console.error(`Unknown bench part(s): ${unknown.join(", ")}. Parts: ${known.join(", ")}`);
  process.exit(2);
}
const chosen = named.length > 0 ? named : known;

build();
const inBrowser = chosen.filter((name) => name in browserParts);
if (inBrowser.length > 0) {
  const server = await startLocalServer("bench-state");
  const browser = await launchChromium();
  try {
    for (const name of inBrowser) {
      if (!(await (browserParts[name] as BrowserPart)(browser, server.baseURL, flags))) process.exitCode = 1;
    }
  } finally {
    await browser.close();
    server.stop();
  }
}
for (const name of chosen.filter((part) => part in standaloneParts)) {
  if (!(await (standaloneParts[name] as StandalonePart)(flags))) process.exitCode = 1;
}
