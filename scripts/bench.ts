/**
 * `npm run bench`: builds, serves locally, then measures in Chromium (1) the bytes of HTML, CSS and JS
 * each page transfers, raw and gzip-compressed, and (2) a 100,000-row CSV import end to end; then (3) the
 * aged-lead marketplace at 100,000 and 1,000,000 leads (scripts/bench-leads.ts).
 * Name parts to run only those: `npm run bench -- leads`, `npm run bench -- pages import`.
 * `npm run bench -- --rows 20000` imports a smaller file; `--lead-sizes 20000,100000` picks marketplace sizes.
 */
import { gzipSync } from "node:zlib";
import type { Browser } from "playwright-core";
import { benchImport } from "./bench-import.ts";
import { benchLeads } from "./bench-leads.ts";
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

const PARTS = ["pages", "import", "leads"] as const;
const args = process.argv.slice(2);
const named = args.filter((arg) => (PARTS as readonly string[]).includes(arg));
const flags = parseFlags(args.filter((arg) => !named.includes(arg)));
const parts = new Set(named.length > 0 ? named : PARTS);
const importRows = Number(flags.get("rows") ?? 100_000);
build();
if (parts.has("pages") || parts.has("import")) {
  const server = await startLocalServer("bench-state");
  const browser = await launchChromium();
  try {
    if (parts.has("pages")) await benchPages(browser, server.baseURL);
    if (parts.has("import")) {
      const result = await benchImport(browser, server.baseURL, importRows);
      if (!result.accounted) process.exitCode = 1;
    }
  } finally {
    await browser.close();
    server.stop();
  }
}
if (parts.has("leads")) {
  const sizes = flags.get("lead-sizes");
  await benchLeads(typeof sizes === "string" ? sizes.split(",").map(Number) : undefined);
}
