/**
 * `npm run bench [-- <part> [flags]]`: builds, serves locally, then measures in Chromium. Parts:
 * `pages` (the bytes of HTML, CSS and JS each page transfers, raw and gzip-compressed) and `import`
 * (a CSV import end to end; `--rows N`, default 100,000) and `leads` (the aged-lead marketplace at
 * 100,000 and 1,000,000 leads, scripts/bench-leads.ts; `--lead-sizes 20000,100000` picks sizes). `transfers`
 * (the partner API's routing and events over 10,000 open orders and 1,000,000 transfers,
 * scripts/bench-transfers.ts; `--orders`, `--transfers`, `--pings`, `--concurrency`). Without a part, every
 * part runs.
 */
import { gzipSync } from "node:zlib";
import type { Browser } from "playwright-core";
import { importPart } from "./bench-import.ts";
import { benchLeads } from "./bench-leads.ts";
import { benchTransfers } from "./bench-transfers.ts";
import { launchChromium } from "./chromium.ts";
import { build, parseFlags } from "./lib.ts";
import { startLocalServer } from "./local-server.ts";

const routes = [
  "/",
  "/pricing",
  "/standard-pricing",
  "/special-pricing",
  "/premium-pricing",
  "/enterprise-pricing",
  "/ultimate-pricing",
  "/get-started",
  "/no-such-page",
];

type Kind = "html" | "css" | "js";
const kindOf: Record<string, Kind> = { document: "html", stylesheet: "css", script: "js" };

async function benchPages(browser: Browser, baseURL: string) {
  const rows: Record<string, string | number>[] = [];
  for (const route of routes) {
    const page = await browser.newPage();
    const totals = { html: [0, 0], css: [0, 0], js: [0, 0] } satisfies Record<Kind, [number, number]>;
    const pending: Promise<void>[] = [];
    page.on("response", (response) => {
      const kind = kindOf[response.request().resourceType()];
      if (!kind) return;
      pending.push(
        response.body().then((body) => {
          totals[kind][0] += body.length;
          totals[kind][1] += gzipSync(body).length;
        }),
      );
    });
    await page.goto(new URL(route, baseURL).toString(), { waitUntil: "networkidle" });
    await Promise.all(pending);
    await page.close();
    rows.push({
      route,
      "html raw": totals.html[0],
      "html gz": totals.html[1],
      "css raw": totals.css[0],
      "css gz": totals.css[1],
      "js raw": totals.js[0],
      "js gz": totals.js[1],
    });
  }
  console.log("\nBytes transferred per page load (gz = gzip -6 of the same bytes):");
  console.table(rows);
}

/** A part measures one thing; it answers false when what it measured is wrong (the run then fails). */
type Part = (browser: Browser, baseURL: string, flags: Map<string, string | true>) => Promise<boolean | undefined>;
const parts: Record<string, Part> = {
  pages: async (browser, baseURL) => {
    await benchPages(browser, baseURL);
    return true;
  },
  import: importPart,
};
/** Parts that build their own databases and servers. */
const standalone: Record<string, (flags: Map<string, string | true>) => Promise<void>> = {
  leads: async (flags) => {
    const sizes = flags.get("lead-sizes");
    await benchLeads(typeof sizes === "string" ? sizes.split(",").map(Number) : undefined);
  },
  transfers: async (flags) => {
    const result = await benchTransfers({
      orders: Number(flags.get("orders") ?? 10_000),
      transfers: Number(flags.get("transfers") ?? 1_000_000),
      pings: Number(flags.get("pings") ?? 500),
      concurrency: Number(flags.get("concurrency") ?? 8),
    });
    if (!result.met) process.exitCode = 1;
  },
};
const known = [...Object.keys(parts), ...Object.keys(standalone)];

const args = process.argv.slice(2);
const chosen = args[0] && !args[0].startsWith("--") ? [args.shift() ?? ""] : known;
const unknown = chosen.filter((name) => !known.includes(name));
if (unknown.length > 0) throw new Error(`Unknown bench part ${unknown.join(", ")} (parts: ${known.join(", ")})`);
const flags = parseFlags(args);
build();
const withServer = chosen.filter((name) => parts[name]);
if (withServer.length > 0) {
  const server = await startLocalServer("bench-state");
  const browser = await launchChromium();
  try {
    for (const name of withServer)
      if ((await parts[name]?.(browser, server.baseURL, flags)) === false) process.exitCode = 1;
  } finally {
    await browser.close();
    server.stop();
  }
}
for (const name of chosen) await standalone[name]?.(flags);
