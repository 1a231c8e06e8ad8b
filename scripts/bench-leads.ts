/**
 * `npm run bench -- leads`: the aged-lead marketplace at 100,000 and 1,000,000 leads. For each
 * size a fresh local D1 is filled with generated leads (scripts/bench-leads-data.ts) before the local
 * server (scripts/serve.ts) starts on the built Worker; then, as the signed-in demo buyer over HTTP, each list query runs a warm-up
 * and then REQUESTS times, and REQUESTS purchases of 200 leads are reserved and paid. Prints median, p95
 * and max per query and size, and writes them into docs/performance.md.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { resolve } from "node:path";
import { MAX_RESERVED_LEADS } from "../src/features/orders/orders.ts";
import { BENCH_STATES, benchAreaCode, insertBenchLeads } from "./bench-leads-data.ts";
import { DEMO_BUYER } from "./demo-data.ts";
import { withLocalD1 } from "./lib/local-d1.ts";
import { bin, root } from "./lib/paths.ts";
import { run } from "./lib/run.ts";
import { startLocalServer } from "./local-server.ts";

export const REQUESTS = 200;
export const WARM_UP = 20;
/** Each purchase reserves as many leads as a buyer may hold. */
const PURCHASE_SIZE = MAX_RESERVED_LEADS;
const SIZES = [100_000, 1_000_000];
/** A buyer may make 10 reservation requests a minute: the purchases are spread over buyers. */
const PURCHASES_PER_BUYER = 9;
const BENCH_BUYERS = Math.ceil(REQUESTS / PURCHASES_PER_BUYER);
const benchBuyer = (i: number) => `bench-buyer-${i}`;

const TX = BENCH_STATES.indexOf("TX");
const CA = BENCH_STATES.indexOf("CA");
const FL = BENCH_STATES.indexOf("FL");
export const QUERIES: [label: string, path: string][] = [
  ["floor: GET /api/me (session only, no lead query)", "/api/me"],
  ["first page", "/api/aged-leads"],
  ["page 200", "/api/aged-leads?page=200"],
  ["one state (TX)", "/api/aged-leads?location=TX"],
  [`one area code (${benchAreaCode(TX, 0)})`, `/api/aged-leads?location=${benchAreaCode(TX, 0)}`],
  [
    `three terms, page 5 (TX, FL, ${benchAreaCode(CA, 1)})`,
    `/api/aged-leads?page=5&location=${encodeURIComponent(`TX, FL, ${benchAreaCode(CA, 1)}`)}`,
  ],
  // Overlapping terms: two states and an area code inside one of them, as a buyer typing
  // "FL, 305" would (305 is a Florida area code; the generated data gives FL the area codes 225-227).
  [
    `overlapping terms, page 5 (TX, FL, ${benchAreaCode(FL, 0)}: an FL area code)`,
    `/api/aged-leads?page=5&location=${encodeURIComponent(`TX,FL,${benchAreaCode(FL, 0)}`)}`,
  ],
  ["no match (zz)", "/api/aged-leads?location=zz"],
  // Leads with a consent certificate (30 % of the generated ones), alone and with a location.
  ["with certificate, first page", "/api/aged-leads?certified=true"],
  ["with certificate, page 200", "/api/aged-leads?certified=true&page=200"],
  ["with certificate, one state (TX)", "/api/aged-leads?certified=true&location=TX"],
  [
    `with certificate, three terms, page 5 (TX, FL, ${benchAreaCode(CA, 1)})`,
    `/api/aged-leads?certified=true&page=5&location=${encodeURIComponent(`TX, FL, ${benchAreaCode(CA, 1)}`)}`,
  ],
];

export interface Timing {
  label: string;
  median: number;
  p95: number;
  max: number;
  count: number;
}

export function summarize(label: string, samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
  return { label, median: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? 0, count: sorted.length };
}

/** Fills the database (through its D1 binding) and answers ids of available leads for the purchases. */
async function fill(persistTo: string, size: number): Promise<string[][]> {
  const started = performance.now();
  const ids = await withLocalD1(persistTo, async (d1) => {
    await insertBenchLeads(d1, 0, size, Date.now());
    // The purchasing buyers share the demo buyer's password (its hash is copied, never re-derived here).
    const addBuyer = d1.prepare(
      `INSERT INTO users (id, username, email, password_hash)
       SELECT ?1, ?2, ?2 || '@example.com', password_hash FROM users WHERE username = ?3`,
    );
    await d1.batch(
      Array.from({ length: BENCH_BUYERS }, (_, i) =>
        addBuyer.bind(crypto.randomUUID(), benchBuyer(i), DEMO_BUYER.username),
      ),
    );
    const { results } = await d1
      .prepare(
        "SELECT id FROM aged_leads WHERE id LIKE 'bench-%' AND sold_at IS NULL AND reserved_until IS NULL ORDER BY id LIMIT ?",
      )
      .bind(REQUESTS * PURCHASE_SIZE)
      .all<{ id: string }>();
    return results.map((row) => row.id);
  });
  console.log(
    `  ${size.toLocaleString("en-US")} leads generated in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  // As many purchases as REQUESTS, or as the generated leads allow (small --lead-sizes).
  return Array.from({ length: Math.floor(ids.length / PURCHASE_SIZE) }, (_, i) =>
    ids.slice(i * PURCHASE_SIZE, (i + 1) * PURCHASE_SIZE),
  );
}

export async function timed(request: () => Promise<Response>, expectStatus = 200): Promise<[number, Response, string]> {
  const started = performance.now();
  const response = await request();
  const body = await response.text();
  const ms = performance.now() - started;
  if (response.status !== expectStatus) throw new Error(`${response.url}: ${response.status} ${body.slice(0, 300)}`);
  return [ms, response, body];
}

/** Signs in as `username` (the demo buyer's password), each from its own client address. */
export async function signIn(
  baseURL: string,
  username: string = DEMO_BUYER.username,
  password: string = DEMO_BUYER.password,
): Promise<string> {
  const address = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
  const response = await fetch(`${baseURL}/api/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: baseURL, "CF-Connecting-IP": address },
    body: JSON.stringify({ username, password }),
  });
  if (!response.ok) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

async function benchSize(size: number): Promise<Timing[]> {
  console.log(`\nAged-lead marketplace at ${size.toLocaleString("en-US")} leads:`);
  let purchases: string[][] = [];
  const server = await startLocalServer(
    "bench-leads",
    { ALLOW_SIMULATED_PAYMENTS: "true" },
    {
      beforeStart: async (persistTo) => {
        purchases = await fill(persistTo, size);
      },
    },
  );
  try {
    const cookie = await signIn(server.baseURL);
    const headers = { Cookie: cookie, Origin: server.baseURL };
    const get = (path: string) => () => fetch(`${server.baseURL}${path}`, { headers });
    const results: Timing[] = [];
    for (const [label, path] of QUERIES) {
      for (let i = 0; i < WARM_UP; i++) await timed(get(path));
      const samples: number[] = [];
      for (let i = 0; i < REQUESTS; i++) samples.push((await timed(get(path)))[0]);
      results.push(summarize(label, samples));
    }
    const reserve: number[] = [];
    const confirm: number[] = [];
    const buyerCookies: string[] = [];
    for (let i = 0; i < BENCH_BUYERS; i++) buyerCookies.push(await signIn(server.baseURL, benchBuyer(i)));
    for (const [i, leadIds] of purchases.entries()) {
      const buyerHeaders = {
        Cookie: buyerCookies[Math.floor(i / PURCHASES_PER_BUYER)] ?? cookie,
        Origin: server.baseURL,
        "Content-Type": "application/json",
      };
      const postAs = (path: string, json: unknown) => () =>
        fetch(`${server.baseURL}${path}`, { method: "POST", headers: buyerHeaders, body: JSON.stringify(json) });
      const [reserveMs, , body] = await timed(postAs("/api/bulk-purchase-leads", { leadIds }));
      reserve.push(reserveMs);
      const { clientSecret } = JSON.parse(body) as { clientSecret: string };
      const card = { clientSecret, cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" };
      confirm.push((await timed(postAs("/api/simulated-payments/confirm", card)))[0]);
    }
    results.push(summarize(`reserve ${PURCHASE_SIZE} leads (POST /api/bulk-purchase-leads)`, reserve));
    results.push(summarize(`payment confirmation selling ${PURCHASE_SIZE} leads`, confirm));
    console.table(
      results.map((r) => ({
        query: r.label,
        "median ms": r.median.toFixed(1),
        "p95 ms": r.p95.toFixed(1),
        "max ms": r.max.toFixed(1),
        requests: r.count,
      })),
    );
    return results;
  } finally {
    server.stop();
  }
}

const START = "<!-- bench:leads:start -->";
const END = "<!-- bench:leads:end -->";

/** Replaces the marked block of docs/performance.md with these figures. */
function writeReadme(bySize: Map<number, Timing[]>, runs: number): void {
  const file = resolve(root, "docs/performance.md");
  const readme = readFileSync(file, "utf8");
  const sizes = [...bySize.keys()];
  const header = `| query | ${sizes.map((s) => `${s.toLocaleString("en-US")}: median / p95 / max ms`).join(" | ")} |`;
  const rule = `| --- | ${sizes.map(() => "---").join(" | ")} |`;
  const labels = bySize.get(sizes[0] ?? 0)?.map((t) => t.label) ?? [];
  const rows = labels.map((label, i) => {
    const cells = sizes.map((size) => {
      const t = bySize.get(size)?.[i];
      return t ? `${t.median.toFixed(1)} / ${t.p95.toFixed(1)} / ${t.max.toFixed(1)}` : "—";
    });
    return `| ${label} | ${cells.join(" | ")} |`;
  });
  const cpu = cpus();
  const machine = `${cpu.length} × ${cpu[0]?.model.trim() ?? "CPU"}, ${Math.round(totalmem() / 2 ** 30)} GB RAM`;
  const block = [
    START,
    `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${machine} (load average ${loadavg()[0]?.toFixed(1)} at the end) by \`npm run bench -- leads${runs > 1 ? ` --runs ${runs}` : ""}\`:`,
    `${REQUESTS} requests per line after ${WARM_UP} warm-up requests, one at a time over HTTP to the local server (workerd through Miniflare, decision 0025), as a signed-in buyer${runs > 1 ? `; each size ${runs} times on a fresh database, the median of the runs' medians and p95s` : ""}. The database is as the shop leaves it: statistics come from the \`PRAGMA optimize\` the server runs as it starts (decision 0043), not from the bench.`,
    "",
    header,
    rule,
    ...rows,
    END,
  ].join("\n");
  const at = readme.indexOf(START);
  const next =
    at >= 0
      ? `${readme.slice(0, at)}${block}${readme.slice(readme.indexOf(END) + END.length)}`
      : readme.replace(/\n## What is built so far/, `\n${block}\n\n## What is built so far`);
  writeFileSync(file, next);
  run(bin("biome"), ["format", "--write", "docs/performance.md"], {}, true);
  console.log("docs/performance.md updated.");
}

/** Several runs of one size as one line per query: the median of the runs' medians and p95s, the largest max. */
export function medianOfRuns(runs: Timing[][]): Timing[] {
  const middle = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? 0;
  return (runs[0] ?? []).map((first, i) => {
    const same = runs.map((run) => run[i] ?? first);
    return {
      label: first.label,
      median: middle(same.map((t) => t.median)),
      p95: middle(same.map((t) => t.p95)),
      max: Math.max(...same.map((t) => t.max)),
      count: same.reduce((total, t) => total + t.count, 0),
    };
  });
}

/** Each size `runs` times on a fresh database; docs/performance.md gets the median of the runs. */
export async function benchLeads(sizes: readonly number[] = SIZES, runs = 1): Promise<void> {
  const bySize = new Map<number, Timing[]>();
  for (const size of sizes) {
    const all: Timing[][] = [];
    for (let run = 0; run < runs; run++) all.push(await benchSize(size));
    bySize.set(size, medianOfRuns(all));
  }
  writeReadme(bySize, runs);
}
