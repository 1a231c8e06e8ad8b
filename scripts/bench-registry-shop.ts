/**
 * The shop beside the whole registry, for `npm run bench -- registry` (scripts/bench-registry.ts): 1,000,000
 * aged leads and 10,000 open transfer orders are in the database before the server starts; once the
 * registry is loaded the marketplace queries of `npm run bench -- leads` and pings are timed over HTTP.
 * Half the pings call from a number the registry's full lists hold (answered `suppressed`), half from
 * other numbers. Targets (docs/decisions/0083): the marketplace list p95 ≤ 30 ms at 1,000,000 leads and
 * the ping p95 ≤ 15 ms end to end over 10,000 open orders.
 */
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { API_KEY_PREFIX } from "../worker/features/partners/api-key-format.ts";
import type { Timing } from "./bench-leads.ts";
import { insertBenchLeads } from "./bench-leads-data.ts";
import { listQueries, timePings } from "./bench-suppression.ts";
import { benchDataSql } from "./bench-transfers.ts";
import { d1ExecuteFile } from "./lib/d1.ts";
import { withLocalD1 } from "./lib/local-d1.ts";

const SHOP_TARGETS = { listP95Ms: 30, pingP95Ms: 15 };
const LEADS = 1_000_000;
const ORDERS = 10_000;
const TRANSFERS = 200_000;
const KEYS = 40;
const PINGS = 500;

/** The partners' API keys the shop's data carries (one per bench partner). */
export const shopKeys = () =>
  Array.from({ length: KEYS }, (_, i) => `${API_KEY_PREFIX}bench_${i}_${crypto.randomUUID().replaceAll("-", "")}`);

/** Fills a server's state before it starts: the leads, then the orders and their partners. */
export async function fillShop(persistTo: string, keys: string[]): Promise<void> {
  await withLocalD1(persistTo, (d1) => insertBenchLeads(d1, 0, LEADS, Date.now()));
  const sql = (await benchDataSql(ORDERS, TRANSFERS, Date.now(), keys)).filter((line) => line !== "ANALYZE;");
  const path = join(mkdtempSync(join(tmpdir(), "bench-registry-shop-")), "orders.sql");
  writeFileSync(path, sql.join("\n"));
  d1ExecuteFile(path, { persistTo });
}

/** The first bytes of a file, as text (a registry file's first lines). */
function head(path: string, bytes: number): string {
  const fd = openSync(path, "r");
  const buffer = Buffer.alloc(bytes);
  const read = readSync(fd, buffer, 0, bytes, 0);
  closeSync(fd);
  return buffer.toString("ascii", 0, read);
}

/**
 * Up to `count` numbers the registry holds once loaded: from the start of each area code's full list
 * (`AAA,NNNNNNN` lines), leaving out the ones its change list deletes (`AAA,NNNNNNN,YYYY-MM-DD,D`).
 */
function registeredNumbers(dir: string, count: number): string[] {
  const numbers: string[] = [];
  for (const name of readdirSync(join(dir, "full")).sort()) {
    const deleted = new Set(
      readFileSync(join(dir, "changes", name), "ascii")
        .split("\n")
        .filter((line) => line.endsWith(",D"))
        .map((line) => line.slice(0, 11).replace(",", "")),
    );
    const lines = head(join(dir, "full", name), 4_096)
      .split("\n")
      .slice(0, -1);
    const kept = lines.map((line) => line.replace(",", "")).filter((phone) => !deleted.has(phone));
    numbers.push(...kept.slice(0, 4));
    if (numbers.length >= count) break;
  }
  return numbers.slice(0, count);
}

/**
 * Pings before the registry is loaded (the same callers as `timeShop`'s, none of them listed yet): the
 * figure the loaded registry's pings compare with.
 */
export async function timeShopPingsBefore(baseURL: string, keys: string[], dir: string): Promise<string> {
  const listed = registeredNumbers(dir, 200);
  const ping = await timePings(baseURL, keys, PINGS, (i) => listed[i % listed.length] ?? "", "ping before", {
    listed: false,
  });
  return (
    `  ping over ${ORDERS.toLocaleString("en-US")} open orders before the registry is loaded: median ` +
    `${ping.timing.median.toFixed(1)} / p95 ${ping.timing.p95.toFixed(1)} ms (${ping.statuses})`
  );
}

/** The marketplace and the pings with the registry loaded: printable lines, and whether both targets were met. */
export async function timeShop(
  baseURL: string,
  keys: string[],
  dir: string,
): Promise<{ lines: string[]; met: boolean }> {
  const lists: Timing[] = await listQueries(baseURL);
  const slowest = lists.reduce((worst, t) => (t.p95 > worst.p95 ? t : worst));
  const listed = registeredNumbers(dir, 200);
  const ping = await timePings(
    baseURL,
    keys,
    PINGS,
    (i) => listed[i % listed.length] ?? "",
    "ping (POST /api/v1/transfers), half the callers on the registry",
  );
  const listMet = slowest.p95 <= SHOP_TARGETS.listP95Ms;
  const pingMet = ping.timing.p95 <= SHOP_TARGETS.pingP95Ms;
  return {
    met: listMet && pingMet,
    lines: [
      `  marketplace at ${LEADS.toLocaleString("en-US")} leads, slowest query p95 ${slowest.p95.toFixed(1)} ms ` +
        `(${slowest.label}; target ≤ ${SHOP_TARGETS.listP95Ms}) ${listMet ? "✓" : "✗"}`,
      ...lists.map((t) => `    ${t.label}: median ${t.median.toFixed(1)} / p95 ${t.p95.toFixed(1)} ms`),
      `  ping over ${ORDERS.toLocaleString("en-US")} open orders: median ${ping.timing.median.toFixed(1)} / ` +
        `p95 ${ping.timing.p95.toFixed(1)} ms (target ≤ ${SHOP_TARGETS.pingP95Ms}) ${pingMet ? "✓" : "✗"} (${ping.statuses})`,
      ...ping.byStatus.map(
        (t) => `    answered ${t.label}: median ${t.median.toFixed(1)} / p95 ${t.p95.toFixed(1)} ms`,
      ),
    ],
  };
}
