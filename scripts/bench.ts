/**
 * `npm run bench`: builds, serves locally, then measures in Chromium (1) the bytes of HTML, CSS and JS
 * each page transfers, raw and gzip-compressed, and (2) a 100,000-row CSV import end to end.
 * `npm run bench -- --rows 20000` imports a smaller file; (3) the partner API's routing and events
 * over 10,000 open orders and 1,000,000 transfers (scripts/bench-transfers.ts). `--part pages|import|transfers`
 * runs one part, `--skip-build` serves the last build.
 */
import { gzipSync } from "node:zlib";
import type { Browser } from "playwright-core";
import { benchImport } from "./bench-import.ts";
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

const flags = parseFlags(process.argv.slice(2));
const importRows = Number(flags.get("rows") ?? 100_000);
/** `--part pages|import|transfers` runs one part; without it, all of them. */
const part = flags.get("part");
const runs = (name: string) => part === undefined || part === name;
if (!flags.has("skip-build")) build();
if (runs("pages") || runs("import")) {
  const server = await startLocalServer("bench-state");
  const browser = await launchChromium();
  try {
    if (runs("pages")) await benchPages(browser, server.baseURL);
    if (runs("import")) {
      const result = await benchImport(browser, server.baseURL, importRows);
      if (!result.accounted) process.exitCode = 1;
    }
  } finally {
    await browser.close();
    server.stop();
  }
}
if (runs("transfers")) {
  const result = await benchTransfers({
    orders: Number(flags.get("orders") ?? 10_000),
    transfers: Number(flags.get("transfers") ?? 1_000_000),
    pings: Number(flags.get("pings") ?? 500),
    concurrency: Number(flags.get("concurrency") ?? 8),
  });
  if (!result.met) process.exitCode = 1;
}
