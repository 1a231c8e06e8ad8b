/**
 * `npm run bench -- revocations`: a shared Do Not Call list's change touches 10,000 sold leads of 50 buyers;
 * every buyer must hold a signed `lead.suppressed` webhook for each of its leads within 5 minutes of the
 * change (docs/decisions/0082). A fresh local D1 gets 10,000 leads sold a day ago, 200 to each of 50 buyers,
 * each buyer with an endpoint subscribed to `lead.suppressed` at one simulated CRM
 * (scripts/lib/crm-receiver.ts, which checks every signature and the documented schema). The local server
 * fires the configured crons on their schedule, as production does. The admin then uploads a litigator list
 * of those 10,000 numbers over HTTP in the admin tab's batches (the Queue applies them 2,000 at a time), and the clock runs
 * from the first batch until the receiver holds every event once. `--revocation-runs N` (default 1) repeats
 * on fresh state; the figures are printed for docs/performance.md.
 */
import { cpus, loadavg } from "node:os";
import { SUPPRESSION_BATCH_NUMBERS } from "../src/features/do-not-call/suppression.ts";
import { signIn } from "./bench-leads.ts";
import { insertBenchLeads } from "./bench-leads-data.ts";
import { cleanFileReport } from "./bench-suppression-data.ts";
import { DEMO_ADMIN, DEMO_BUYER } from "./demo-data.ts";
import { listenCrmReceiver } from "./lib/crm-receiver.ts";
import { withLocalD1 } from "./lib/local-d1.ts";
import { startLocalServer } from "./local-server.ts";

const BUYERS = 50;
const PER_BUYER = 200;
const LEADS = BUYERS * PER_BUYER;
const DEADLINE_MS = 5 * 60_000;
const GIVE_UP_MS = 10 * 60_000;
const DAY = 86_400_000;
const benchBuyer = (i: number) => `revocation-buyer-${i}`;

interface RevocationRun {
  /** From the first batch sent to the list holding every number. */
  listedMs: number;
  /** From the first batch sent to the last event received. */
  toldMs: number;
  received: number;
  duplicates: number;
  rejected: number;
}

/** 10,000 leads sold a day ago, 200 to each bench buyer; answers their numbers (the phone keys). */
async function fill(persistTo: string): Promise<number[]> {
  return withLocalD1(persistTo, async (d1) => {
    const now = Date.now();
    await insertBenchLeads(d1, 0, LEADS, now);
    const addBuyer = d1.prepare(
      `INSERT INTO users (id, username, email, password_hash)
       SELECT ?1, ?2, ?2 || '@example.com', password_hash FROM users WHERE username = ?3`,
    );
    const buyers = Array.from({ length: BUYERS }, () => crypto.randomUUID());
    await d1.batch(buyers.map((id, i) => addBuyer.bind(id, benchBuyer(i), DEMO_BUYER.username)));
    const { results } = await d1
      .prepare("SELECT id, phone_key FROM aged_leads ORDER BY id LIMIT ?")
      .bind(LEADS)
      .all<{ id: string; phone_key: string }>();
    const sell = d1.prepare(
      "UPDATE aged_leads SET sold_to_user_id = ?1, sold_at = ?2 WHERE id IN (SELECT value FROM json_each(?3))",
    );
    await d1.batch(
      buyers.map((buyer, i) =>
        sell.bind(buyer, now - DAY, JSON.stringify(results.slice(i * PER_BUYER, (i + 1) * PER_BUYER).map((r) => r.id))),
      ),
    );
    return results.map((row) => Number(row.phone_key));
  });
}

async function call<T>(baseURL: string, cookie: string, method: string, path: string, json?: unknown): Promise<T> {
  const response = await fetch(`${baseURL}${path}`, {
    method,
    headers: { Cookie: cookie, Origin: baseURL, "Content-Type": "application/json" },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  const body = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${body.slice(0, 300)}`);
  return JSON.parse(body) as T;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function once(runNumber: number): Promise<RevocationRun> {
  let numbers: number[] = [];
  const server = await startLocalServer(
    "bench-revocations",
    {},
    {
      beforeStart: async (persistTo) => {
        numbers = await fill(persistTo);
      },
      crons: ["* * * * *", "*/5 * * * *"],
    },
  );
  const secrets: string[] = [];
  const receiver = await listenCrmReceiver({ secrets, port: 0, log: () => undefined });
  try {
    for (let i = 0; i < BUYERS; i++) {
      const cookie = await signIn(server.baseURL, benchBuyer(i), DEMO_BUYER.password);
      const endpoint = await call<{ secret: string }>(server.baseURL, cookie, "POST", "/api/webhook-endpoints", {
        name: "Bench CRM",
        url: receiver.url,
        events: ["lead.suppressed"],
      });
      secrets.push(endpoint.secret);
    }
    const admin = await signIn(server.baseURL, DEMO_ADMIN.username, DEMO_ADMIN.password);
    const batches = Math.ceil(numbers.length / SUPPRESSION_BATCH_NUMBERS);
    const upload = await call<{ uploadId: number }>(server.baseURL, admin, "POST", "/api/admin/suppression-uploads", {
      name: "Litigators (revocation bench)",
      kind: "litigator",
      contents: "full",
      refreshedOn: new Date().toISOString().slice(0, 10),
      fileName: "litigators.csv",
      report: cleanFileReport(numbers.length),
    });
    const started = performance.now();
    for (let b = 0; b < batches; b++) {
      const add = numbers.slice(b * SUPPRESSION_BATCH_NUMBERS, (b + 1) * SUPPRESSION_BATCH_NUMBERS);
      await call(server.baseURL, admin, "POST", `/api/admin/suppression-uploads/${upload.uploadId}/batches`, {
        batchNumber: b + 1,
        add,
        remove: [],
      });
    }
    await call(server.baseURL, admin, "POST", `/api/admin/suppression-uploads/${upload.uploadId}/finish`, { batches });
    let listedMs = 0;
    while (performance.now() - started < GIVE_UP_MS) {
      if (listedMs === 0) {
        const { status: state } = await call<{ status: string }>(
          server.baseURL,
          admin,
          "GET",
          `/api/admin/suppression-uploads/${upload.uploadId}`,
        );
        if (state === "failed") throw new Error("The upload failed");
        if (state === "done") listedMs = performance.now() - started;
      }
      if (receiver.stats.eventIds.size >= LEADS) break;
      await sleep(250);
    }
    const toldMs = performance.now() - started;
    // A moment more: a duplicate arriving after the last new event would still be counted.
    await sleep(2_000);
    const { eventIds, duplicates, rejected } = receiver.stats;
    console.log(
      `  run ${runNumber}: listed in ${(listedMs / 1000).toFixed(1)} s; ${eventIds.size.toLocaleString("en-US")} of ${LEADS.toLocaleString("en-US")} lead.suppressed events received in ${(toldMs / 1000).toFixed(1)} s, ${duplicates} duplicates, ${rejected} refused`,
    );
    return { listedMs, toldMs, received: eventIds.size, duplicates, rejected };
  } finally {
    await receiver.close();
    server.stop();
  }
}

/** Runs the bench `runs` times; true when every run told every buyer of every lead once, within 5 minutes. */
export async function benchRevocations(runs = 1): Promise<boolean> {
  console.log(
    `\nRevocations: a litigator list's ${LEADS.toLocaleString("en-US")} numbers, sold to ${BUYERS} buyers, told as webhooks (${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)})`,
  );
  const results: RevocationRun[] = [];
  for (let i = 1; i <= runs; i++) results.push(await once(i));
  const sorted = results.map((run) => run.toldMs).sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
  console.log(
    `  median: every buyer told in ${(median / 1000).toFixed(1)} s (target ${DEADLINE_MS / 1000} s); load now ${loadavg()[0]?.toFixed(1)}`,
  );
  const complete = results.every((run) => run.received === LEADS && run.duplicates === 0 && run.rejected === 0);
  if (!complete) console.error("  Not every event arrived exactly once.");
  if (median > DEADLINE_MS) console.error(`  Telling every buyer took longer than ${DEADLINE_MS / 1000} s.`);
  return complete && median <= DEADLINE_MS;
}
