/**
 * `npm run bench -- transfers`: loads 10,000 open live-transfer orders and
 * 1,000,000 delivered transfers into a fresh local D1, serves the shop (scripts/serve.ts), then times
 * pings (`POST /api/v1/transfers`) and events (`POST /api/v1/transfers/:id/events`) one at a time
 * (latency, p50/p95/p99 on the client, HTTP included), and routed pings with several dialers at once
 * (the write rate one D1 database sustains here). A tenth of the orders ring three agents each
 * (docs/decisions/0072). Flags: --orders, --transfers, --pings, --concurrency.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { US_TIME_ZONES } from "../src/domain/time-zones.ts";
import { US_STATE_CODES } from "../src/domain/us-states.ts";
import { apiKeys, partners, users } from "../worker/db/schema/index.ts";
import { API_KEY_PREFIX, hashApiKey, SHOWN_PREFIX_LENGTH } from "../worker/features/partners/api-key-format.ts";
import { type D1Target, d1ExecuteFile, d1Query } from "./lib/d1.ts";
import { inlinedSql, statements } from "./lib/drizzle-sql.ts";
import { OPEN_CALLING_HOURS_VARS } from "./lib/env.ts";
import { startLocalServer } from "./local-server.ts";

const DAY_MS = 86_400_000;
/** Every bench order's own transfer phone (its agents' numbers differ). */
const ORDER_PHONE = "2145559000";
/**
 * One key serves at most 20 requests a second and one partner 50 across its keys (PARTNER_KEY_RULE,
 * PARTNER_RULE): the bench rotates through enough keys of enough partners to never wait.
 */
const KEY_COUNT = 40;
const BENCH_PARTNERS = 10;
const benchPartner = (i: number) => `bench-partner-${i % BENCH_PARTNERS}`;
const BENCH_PARTNER = benchPartner(0);

const seq = (count: number) =>
  `(WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < ${count - 1}) SELECT n FROM seq)`;
const STATES = US_STATE_CODES.join("");
const stateOf = (expression: string) => `substr('${STATES}', ((${expression}) % ${US_STATE_CODES.length}) * 2 + 1, 2)`;
const zoneOf = (expression: string) =>
  `CASE (${expression}) % ${US_TIME_ZONES.length} ${US_TIME_ZONES.map((zone, i) => `WHEN ${i} THEN '${zone}'`).join(" ")} END`;

/** The bench's data, generated inside SQLite (recursive CTEs), so a million rows load in one statement. */
export async function benchDataSql(orders: number, transfers: number, now: number, keys: string[]): Promise<string[]> {
  const keyRows = await Promise.all(
    keys.map(async (key, i) =>
      inlinedSql(
        statements.insert(apiKeys).values({
          id: `bench-key-${i}`,
          partnerId: benchPartner(i),
          name: `Bench ${i}`,
          keyHash: await hashApiKey(key),
          prefix: key.slice(0, SHOWN_PREFIX_LENGTH),
        }),
      ),
    ),
  );
  const spacing = Math.floor((60 * DAY_MS) / transfers);
  const partnerRows = Array.from({ length: BENCH_PARTNERS }, (_, i) => [
    inlinedSql(
      statements.insert(users).values({
        id: `${benchPartner(i)}-user`,
        username: benchPartner(i),
        email: `${benchPartner(i)}@example.com`,
        passwordHash: "!",
        accountType: "partner",
      }),
    ),
    inlinedSql(
      statements.insert(partners).values({
        id: benchPartner(i),
        userId: `${benchPartner(i)}-user`,
        businessName: `Bench Dialing ${i}`,
        didNumber: "5550109999",
        dailyCallCap: 1_000_000_000,
        payPerTransferCents: 2500,
        paymentTerms: "Net 15",
        timeZone: "America/Chicago",
      }),
    ),
  ]).flat();
  return [
    ...partnerRows.map((statement) => `${statement};`),
    ...keyRows.map((statement) => `${statement};`),
    // Open orders: each takes three states (every tenth takes all), a quarter keep 8:00-20:00 hours.
    `INSERT INTO orders (id, kind, tier, quantity, unit_price_cents, total_cents, email, details, payment_intent_id, status, paid_at)
     SELECT 'bench-o-' || n, 'transfer', 'standard', 1000, 5000, 5000000, 'bench-buyer-' || (n % 2000) || '@example.com',
       '{}', 'pi_bench_' || n, 'paid', ${now - 90 * DAY_MS} + n * 1000 - (n % 10 = 5) * ${DAY_MS} FROM ${seq(orders)};`,
    `INSERT INTO order_delivery (order_id, setup_status, transfer_phone, states, hours_start_minute, hours_end_minute,
       time_zone, per_day_cap, transfers_total, transfers_billable)
     SELECT 'bench-o-' || n, 'ready', '${ORDER_PHONE}',
       CASE WHEN n % 10 = 0 THEN '[]' ELSE json_array(${stateOf("n * 7")}, ${stateOf("n * 7 + 13")}, ${stateOf("n * 7 + 29")}) END,
       CASE WHEN n % 4 = 0 THEN 480 ELSE 0 END, CASE WHEN n % 4 = 0 THEN 1200 ELSE 0 END,
       ${zoneOf("n")}, 1000, 1000, 50 FROM ${seq(orders)};`,
    `INSERT INTO order_delivery_states (state, order_id)
     SELECT j.value, d.order_id FROM order_delivery d, json_each(d.states) j WHERE d.order_id LIKE 'bench-o-%';`,
    `INSERT INTO order_delivery_states (state, order_id)
     SELECT 'ALL', order_id FROM order_delivery WHERE states = '[]' AND order_id LIKE 'bench-o-%';`,
    // A tenth of the orders ring agents (docs/decisions/0072), paid first so most pings reach them (the
    // agents' costs at their worst), three each: one licensed in two of the order's states all day, one
    // in the third from 8:00 to 20:00 in its zone, one in all three from 22:00 to 6:00 on weekdays,
    // switched on for every other order.
    `INSERT INTO order_agents (id, order_id, name, transfer_phone, states, time_zone, days, hours_start_minute,
       hours_end_minute, taking_calls)
     SELECT 'bench-a-' || n || '-' || k, 'bench-o-' || n, 'Bench Agent ' || k, printf('2145%06d', n * 3 + k),
       CASE k WHEN 0 THEN json_array(${stateOf("n * 7")}, ${stateOf("n * 7 + 13")}) WHEN 1 THEN json_array(${stateOf("n * 7 + 29")})
         ELSE json_array(${stateOf("n * 7")}, ${stateOf("n * 7 + 13")}, ${stateOf("n * 7 + 29")}) END,
       ${zoneOf("n + k")}, CASE k WHEN 2 THEN '[1,2,3,4,5]' ELSE '[0,1,2,3,4,5,6]' END,
       CASE k WHEN 1 THEN 480 WHEN 2 THEN 1320 ELSE 0 END, CASE k WHEN 1 THEN 1200 WHEN 2 THEN 360 ELSE 0 END,
       k < 2 OR n % 20 = 5
     FROM ${seq(orders)}, (SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 2) WHERE n % 10 = 5;`,
    // Delivered transfers over the last 60 days, spread over the orders; durations 60-239 s.
    `INSERT INTO transfers (id, partner_id, order_id, buyer_key, first_name, last_name, phone, state, opt_in_at, opt_in_url,
       transfer_phone, status, routed_at, expires_at, connected_at, ended_at, duration_seconds, billable,
       buyer_local_day, partner_local_day)
     SELECT 'bench-t-' || n, '${BENCH_PARTNER}', 'bench-o-' || (n % ${orders}),
       'email:bench-buyer-' || ((n % ${orders}) % 2000) || '@example.com', 'Bench', 'Caller', printf('2%09d', n),
       ${stateOf("n")}, t - 60000, 'https://example.com/quote', '${ORDER_PHONE}', 'completed', t, t + 200000, t + 5000,
       t + 200000, 60 + n % 180, (60 + n % 180) > 120, date(t / 1000, 'unixepoch'), date(t / 1000, 'unixepoch')
     FROM (SELECT n, ${now - 60 * DAY_MS} + n * ${spacing} AS t FROM ${seq(transfers)});`,
    "ANALYZE;",
  ];
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function summary(name: string, samples: number[], statuses: Map<number, number>) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    request: name,
    n: samples.length,
    "p50 ms": Number(percentile(sorted, 50).toFixed(1)),
    "p95 ms": Number(percentile(sorted, 95).toFixed(1)),
    "p99 ms": Number(percentile(sorted, 99).toFixed(1)),
    statuses: [...statuses].map(([status, count]) => `${status}×${count}`).join(" "),
  };
}

let phoneCounter = 0;
function pingBody() {
  phoneCounter += 1;
  return {
    prospect: {
      firstName: "Bench",
      lastName: "Prospect",
      phone: `9${String(Date.now() % 1e5).padStart(5, "0")}${String(phoneCounter).padStart(4, "0")}`,
      state: US_STATE_CODES[Math.floor(Math.random() * US_STATE_CODES.length)],
    },
    consent: { optInAt: new Date(Date.now() - 60_000).toISOString(), optInUrl: "https://example.com/quote" },
  };
}

async function post(baseURL: string, key: string, path: string, body: unknown) {
  const started = performance.now();
  const response = await fetch(`${baseURL}/api/v1${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { transferId?: string; phoneNumber?: string };
  const serverMs = Number(/dur=([\d.]+)/.exec(response.headers.get("Server-Timing") ?? "")?.[1] ?? Number.NaN);
  return { ms: performance.now() - started, serverMs, status: response.status, json };
}

export async function benchTransfers(options: {
  orders: number;
  transfers: number;
  pings: number;
  concurrency: number;
}) {
  const keys = Array.from(
    { length: KEY_COUNT },
    (_, i) => `${API_KEY_PREFIX}bench_${i}_${crypto.randomUUID().replaceAll("-", "")}`,
  );
  const loadStarted = performance.now();
  const server = await startLocalServer("bench-transfers-state", OPEN_CALLING_HOURS_VARS, {
    beforeStart: async (persistTo) => {
      const target: D1Target = { persistTo };
      const file = join(mkdtempSync(join(tmpdir(), "bench-transfers-")), "data.sql");
      writeFileSync(file, (await benchDataSql(options.orders, options.transfers, Date.now(), keys)).join("\n"));
      d1ExecuteFile(file, target);
      const [counts] = d1Query<{ orders: number; transfers: number; agents: number }>(
        "SELECT (SELECT count(*) FROM order_delivery) AS orders, (SELECT count(*) FROM transfers) AS transfers, (SELECT count(*) FROM order_agents) AS agents",
        target,
      );
      console.log(
        `Loaded ${counts?.orders} open orders (${counts?.agents} agents) and ${counts?.transfers} transfers.`,
      );
    },
  });
  console.log(`Data loaded and server up in ${((performance.now() - loadStarted) / 1000).toFixed(0)} s.`);
  try {
    let k = 0;
    const nextKey = () => keys[k++ % keys.length] as string;
    // Warm up the isolate and SQLite's page cache.
    for (let i = 0; i < 20; i++) await post(server.baseURL, nextKey(), "/transfers", pingBody());

    const pingMs: number[] = [];
    const eventMs: number[] = [];
    const pingServerMs: number[] = [];
    const eventServerMs: number[] = [];
    const pingStatuses = new Map<number, number>();
    let rangAgents = 0;
    const eventStatuses = new Map<number, number>();
    for (let i = 0; i < options.pings; i++) {
      const key = nextKey();
      const ping = await post(server.baseURL, key, "/transfers", pingBody());
      pingMs.push(ping.ms);
      pingServerMs.push(ping.serverMs);
      pingStatuses.set(ping.status, (pingStatuses.get(ping.status) ?? 0) + 1);
      if (ping.status !== 201 || !ping.json.transferId) continue;
      if (ping.json.phoneNumber !== ORDER_PHONE) rangAgents += 1;
      const id = ping.json.transferId;
      for (const body of [{ type: "connected" }, { type: "completed", durationSeconds: 60 + (i % 180) }]) {
        const event = await post(server.baseURL, key, `/transfers/${id}/events`, body);
        eventMs.push(event.ms);
        eventServerMs.push(event.serverMs);
        eventStatuses.set(event.status, (eventStatuses.get(event.status) ?? 0) + 1);
      }
    }
    console.log(
      `\nPartner API latency, one request at a time, ${options.orders} open orders and ${options.transfers} transfers in D1:`,
    );
    console.table([
      summary("ping (client round trip)", pingMs, pingStatuses),
      summary("ping (Worker, Server-Timing)", pingServerMs, pingStatuses),
      summary("event (client round trip)", eventMs, eventStatuses),
      summary("event (Worker, Server-Timing)", eventServerMs, eventStatuses),
    ]);
    console.log(`${rangAgents} of ${pingStatuses.get(201) ?? 0} routed pings rang an order's agent.`);
    console.log(
      `Load average while measuring: ${loadavg()
        .map((load) => load.toFixed(1))
        .join(" ")} on ${cpus().length} CPUs.`,
    );

    // Several dialers at once: routed pings per second through the one database.
    const started = performance.now();
    let routed = 0;
    let sent = 0;
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (sent < options.pings) {
          sent += 1;
          const ping = await post(server.baseURL, nextKey(), "/transfers", pingBody());
          if (ping.status === 201) routed += 1;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `\n${options.concurrency} dialers at once: ${sent} pings in ${seconds.toFixed(1)} s = ${(sent / seconds).toFixed(0)} pings/s, ${(routed / seconds).toFixed(0)} routed (written) transfers/s.`,
    );
    const pingP95 = percentile(
      [...pingMs].sort((a, b) => a - b),
      95,
    );
    const eventP95 = percentile(
      [...eventMs].sort((a, b) => a - b),
      95,
    );
    const met = pingP95 <= 50 && eventP95 <= 30;
    console.log(`Targets p95 ping ≤ 50 ms, event ≤ 30 ms: ${met ? "met" : "NOT met"}.`);
    return { met };
  } finally {
    server.stop();
  }
}
