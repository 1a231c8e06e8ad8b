/**
 * `npm run bench -- pages`: (1) the HTML, CSS and JS every route loads, raw and gzip, against its
 * JavaScript budget (scripts/page-weights.ts); (2) Lighthouse (mobile) on every route: the median of
 * `--runs` runs (default 3) for each category, CLS, total blocking time and console errors, reports in
 * bench-results/lighthouse/. Answers false when a page is over its budget or misses a target.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import type { Browser } from "playwright-core";
import { chromiumArgs } from "./chromium.ts";
import { toolEnv } from "./lib/env.ts";
import { bin, root } from "./lib/paths.ts";
import { KB, ROUTES, type RouteSpec, type Visitor, visitorContext, weighPage } from "./page-weights.ts";

/** Lighthouse targets (decision 0016): every route, island pages included. */
export const LIGHTHOUSE_TARGETS = {
  performance: 95,
  otherCategories: 95,
  maxCls: 0.02,
  maxTbtMs: 150,
} as const;

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
type Category = (typeof CATEGORIES)[number];

const kb = (bytes: number) => (bytes / KB).toFixed(1);

/** How a route is named in the tables: its path, with the dashboard view or admin tab it opens. */
export function routeLabel(path: string): string {
  const url = new URL(path, "http://x");
  const view = url.searchParams.get("view") ?? url.searchParams.get("tab");
  return view ? `${url.pathname}?${url.searchParams.has("view") ? "view" : "tab"}=${view}` : url.pathname;
}

/** A file name for a route's Lighthouse reports (no dots: Lighthouse would take '.run1' for the extension). */
const routeSlug = (path: string) =>
  routeLabel(path)
    .replace(/^\/$/, "/index")
    .slice(1)
    .replace(/[^\w-]+/g, "_");

async function benchBytes(browser: Browser, baseURL: string, routes: RouteSpec[]): Promise<boolean> {
  let ok = true;
  const rows: Record<string, string | number>[] = [];
  const contexts = new Map<Visitor, Awaited<ReturnType<typeof visitorContext>>>();
  for (const route of routes) {
    if (!contexts.has(route.visitor))
      contexts.set(route.visitor, await visitorContext(browser, baseURL, route.visitor));
    const page = await (contexts.get(route.visitor) as NonNullable<ReturnType<typeof contexts.get>>).newPage();
    const weight = await weighPage(page, baseURL, route.path);
    await page.close();
    const within = weight.js.gzip <= route.budget;
    if (!within) ok = false;
    rows.push({
      route: routeLabel(route.path),
      visitor: route.visitor,
      "html raw/gz KB": `${kb(weight.html.raw)} / ${kb(weight.html.gzip)}`,
      "css raw/gz KB": `${kb(weight.css.raw)} / ${kb(weight.css.gzip)}`,
      "js raw KB": kb(weight.js.raw),
      "js gz KB": kb(weight.js.gzip),
      "budget KB": kb(route.budget),
      status: within ? "ok" : "✖ OVER BUDGET",
    });
  }
  for (const context of contexts.values()) await context.close();
  console.log("\nBytes each route loads (KB = 1,000 bytes; gz = gzip -6 of the same bytes; same-origin only):");
  console.table(rows);
  return ok;
}

interface LighthouseResult {
  scores: Record<Category, number>;
  cls: number;
  tbtMs: number;
  consoleErrors: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Null when Lighthouse will not audit the answer (the 404 page is a 404 on purpose). */
function runLighthouse(url: string, cookie: string, outputBase: string): LighthouseResult | null {
  // Lighthouse splits --chrome-flags at spaces: the host-resolver rule (which has some) stays out.
  const chromeFlags = ["--headless=new", ...chromiumArgs.filter((flag) => !flag.includes(" "))].join(" ");
  const args = [
    url,
    "--quiet",
    "--output=json",
    "--output=html",
    `--output-path=${outputBase}`,
    `--only-categories=${CATEGORIES.join(",")}`,
    `--chrome-flags=${chromeFlags}`,
    ...(cookie ? [`--extra-headers=${JSON.stringify({ Cookie: cookie })}`] : []),
  ];
  const launch = () =>
    spawnSync(bin("lighthouse"), args, {
      cwd: root,
      encoding: "utf8",
      env: toolEnv({ CHROME_PATH: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" }),
    });
  // On a busy machine Chromium now and then loses the trace (NO_NAVSTART): one more try.
  const reportFile = `${outputBase}.report.json`;
  rmSync(reportFile, { force: true });
  let result = launch();
  if (result.status !== 0) result = launch();
  if (!existsSync(reportFile)) throw new Error(`lighthouse failed for ${url}:\n${result.stderr}`);
  const report = JSON.parse(readFileSync(reportFile, "utf8")) as {
    runtimeError?: { code: string };
    categories: Record<Category, { score: number | null }>;
    audits: Record<string, { numericValue?: number; details?: { items?: unknown[] } }>;
  };
  if (report.runtimeError?.code === "ERRORED_DOCUMENT_REQUEST") return null;
  if (report.runtimeError) throw new Error(`lighthouse failed for ${url}: ${report.runtimeError.code}`);
  return {
    scores: Object.fromEntries(
      CATEGORIES.map((category) => [category, Math.round((report.categories[category].score ?? 0) * 100)]),
    ) as Record<Category, number>,
    cls: report.audits["cumulative-layout-shift"]?.numericValue ?? 0,
    tbtMs: report.audits["total-blocking-time"]?.numericValue ?? 0,
    consoleErrors: report.audits["errors-in-console"]?.details?.items?.length ?? 0,
  };
}

async function benchLighthouse(browser: Browser, baseURL: string, runs: number, routes: RouteSpec[]): Promise<boolean> {
  const folder = resolve(root, "bench-results/lighthouse");
  mkdirSync(folder, { recursive: true });
  const cookies = new Map<Visitor, string>();
  for (const visitor of ["anonymous", "buyer", "admin", "partner"] as const) {
    const context = await visitorContext(browser, baseURL, visitor);
    cookies.set(visitor, (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; "));
    await context.close();
  }
  let ok = true;
  const rows: Record<string, string | number>[] = [];
  for (const route of routes) {
    const slug = routeSlug(route.path);
    const results: LighthouseResult[] = [];
    for (let run = 1; run <= runs; run++) {
      const url = new URL(route.path, baseURL).toString();
      const result = runLighthouse(url, cookies.get(route.visitor) ?? "", resolve(folder, `${slug}-run${run}`));
      if (result) results.push(result);
    }
    if (results.length === 0) {
      rows.push({
        route: routeLabel(route.path),
        visitor: route.visitor,
        status: "not audited (Lighthouse skips a 4xx page)",
      });
      continue;
    }
    const score = (category: Category) => median(results.map((r) => r.scores[category]));
    const cls = median(results.map((r) => r.cls));
    const tbt = median(results.map((r) => r.tbtMs));
    const consoleErrors = Math.max(...results.map((r) => r.consoleErrors));
    const misses = [
      score("performance") < LIGHTHOUSE_TARGETS.performance && "performance",
      ...CATEGORIES.slice(1).filter((c) => score(c) < LIGHTHOUSE_TARGETS.otherCategories),
      cls > LIGHTHOUSE_TARGETS.maxCls && "CLS",
      tbt > LIGHTHOUSE_TARGETS.maxTbtMs && "TBT",
      consoleErrors > 0 && "console errors",
    ].filter(Boolean);
    if (misses.length > 0) ok = false;
    rows.push({
      route: routeLabel(route.path),
      visitor: route.visitor,
      perf: score("performance"),
      a11y: score("accessibility"),
      "best practices": score("best-practices"),
      seo: score("seo"),
      CLS: cls.toFixed(3),
      "TBT ms": Math.round(tbt),
      "console errors": consoleErrors,
      status: misses.length ? `✖ ${misses.join(", ")}` : "ok",
    });
  }
  console.log(
    `\nLighthouse 13 (mobile preset), median of ${runs} run(s) per route; reports in bench-results/lighthouse/:`,
  );
  console.table(rows);
  return ok;
}

export async function benchPages(
  browser: Browser,
  baseURL: string,
  options: { lighthouseRuns: number /** Only the routes whose label contains one of these. */; routes?: string[] },
): Promise<boolean> {
  const wanted = options.routes;
  const routes = wanted
    ? ROUTES.filter((route) => wanted.some((part) => routeLabel(route.path).includes(part)))
    : ROUTES;
  const bytesOk = await benchBytes(browser, baseURL, routes);
  const lighthouseOk =
    options.lighthouseRuns > 0 ? await benchLighthouse(browser, baseURL, options.lighthouseRuns, routes) : true;
  return bytesOk && lighthouseOk;
}
