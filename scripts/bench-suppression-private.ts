/**
 * The private-list part of `npm run bench -- suppression` (docs/decisions/0051): with the shared lists'
 * millions of numbers loaded, a buyer uploads a private list of a million numbers, then uploads it again
 * as a full list (a replacement: every number listed again, the sweep for those it no longer holds), while
 * another buyer's marketplace list is timed. Target: that buyer's list p95 within 20 % of its p95 before.
 * Through the HTTP API as the upload page sends it (batches of 10,000, two in flight).
 */
import { loadavg } from "node:os";
import { drizzle } from "drizzle-orm/d1";
import { PRIVATE_LIST_LIMITS } from "../src/features/do-not-call/private-lists.ts";
import { SUPPRESSION_BATCH_NUMBERS } from "../src/features/do-not-call/suppression.ts";
import * as schema from "../worker/db/schema/index.ts";
import { QUERIES, signIn, summarize, type Timing, timed } from "./bench-leads.ts";
import { insertBenchLeads } from "./bench-leads-data.ts";
import { listQueries } from "./bench-suppression.ts";
import { cleanFileReport, loadNumbersInSql, perAreaOf, suppressedNumber } from "./bench-suppression-data.ts";
import { DEMO_BUYER, userRow } from "./demo-data.ts";
import { withLocalD1 } from "./lib/local-d1.ts";
import { startLocalServer } from "./local-server.ts";

/** The buyer who uploads (the other buyer, whose list is timed, is DEMO_BUYER). */
const UPLOADER = { ...DEMO_BUYER, username: "bench-private", email: "bench-private@example.com" };

/** Makes the uploading buyer (before the server starts). */
export async function insertPrivateUploader(d1: D1Database): Promise<void> {
  await drizzle(d1, { schema })
    .insert(schema.users)
    .values(await userRow(UPLOADER));
}

export interface PrivateReupload {
  numbers: number;
  firstSeconds: number;
  /** The re-upload from its start until the list is replaced (sending, then applying). */
  reuploadSeconds: number;
  /** Of which: from the finish until done (the Queue applying the batches and the sweep). */
  applySeconds: number;
  /** The other buyer's slowest list query during the re-upload. */
  during: Timing;
  /** The same, while the batches were being sent, and from the finish on (the Queue applying them). */
  sending: Timing | null;
  applying: Timing | null;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(baseURL: string, cookie: string, path: string, json?: unknown): Promise<Response> {
  for (;;) {
    const response = await fetch(`${baseURL}/api${path}`, {
      method: json === undefined ? "GET" : "POST",
      headers: { Cookie: cookie, Origin: baseURL, "Content-Type": "application/json" },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    // Past the minute's batches (PRIVATE_LIST_LIMITS): wait, as the upload page does.
    if (response.status === 429) {
      await wait(5_000);
      continue;
    }
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response;
  }
}

/** One upload as the page sends it; answers seconds to done and seconds from the finish to done. */
async function upload(baseURL: string, cookie: string, numbers: number[], onSent = () => {}) {
  const started = performance.now();
  const report = cleanFileReport(numbers.length);
  const start = await call(baseURL, cookie, "/my-suppression-uploads", {
    name: "Bench private list",
    contents: "full",
    refreshedOn: new Date().toISOString().slice(0, 10),
    fileName: "private.txt",
    report,
  });
  const { uploadId } = (await start.json()) as { uploadId: number };
  const batches = Math.ceil(numbers.length / SUPPRESSION_BATCH_NUMBERS);
  let next = 1;
  const sender = async () => {
    while (next <= batches) {
      const batchNumber = next++;
      const add = numbers.slice((batchNumber - 1) * SUPPRESSION_BATCH_NUMBERS, batchNumber * SUPPRESSION_BATCH_NUMBERS);
      await call(baseURL, cookie, `/my-suppression-uploads/${uploadId}/batches`, { batchNumber, add, remove: [] });
    }
  };
  await Promise.all([sender(), sender()]);
  const finished = performance.now();
  onSent();
  await call(baseURL, cookie, `/my-suppression-uploads/${uploadId}/finish`, { batches });
  for (;;) {
    const status = (await (await call(baseURL, cookie, `/my-suppression-uploads/${uploadId}`)).json()) as {
      status: string;
      error: string | null;
    };
    if (status.status === "done") break;
    if (status.status === "failed") throw new Error(`The private upload failed: ${status.error}`);
    await wait(250);
  }
  const done = performance.now();
  return { seconds: (done - started) / 1000, applySeconds: (done - finished) / 1000 };
}

/** The i-th private number: one above a shared number (bench-suppression-data.ts), so the lists interleave by number. */
const privateNumber = (i: number, perArea: number) => suppressedNumber(i, perArea) + 1;

export async function benchPrivateReupload(
  baseURL: string,
  count: number = PRIVATE_LIST_LIMITS.numbers,
): Promise<PrivateReupload> {
  const perArea = perAreaOf(count);
  const numbers = Array.from({ length: count }, (_, i) => privateNumber(i, perArea));
  const uploader = await signIn(baseURL, UPLOADER.username);
  const first = await upload(baseURL, uploader, numbers);
  console.log(`  a ${count.toLocaleString("en-US")}-number private list uploaded in ${first.seconds.toFixed(1)} s`);
  // A new minute of batches, so that the re-upload is timed unpaced.
  await wait(61_000);
  const other = await signIn(baseURL);
  const headers = { Cookie: other, Origin: baseURL };
  const samples = new Map<string, number[]>(QUERIES.map(([label]) => [label, []]));
  // Each phase's samples too: the sending (the batches' requests) and the applying (the Queue's writes).
  const phases = { sending: new Map<string, number[]>(), applying: new Map<string, number[]>() };
  let phase: keyof typeof phases = "sending";
  let uploading = true;
  const reupload = upload(baseURL, uploader, numbers, () => {
    phase = "applying";
  }).finally(() => {
    uploading = false;
  });
  for (let i = 0; uploading; i++) {
    const query = QUERIES[i % QUERIES.length];
    if (!query) break;
    const [label, path] = query;
    const [ms] = await timed(() => fetch(`${baseURL}${path}`, { headers }));
    samples.get(label)?.push(ms);
    const inPhase = phases[phase];
    const phaseSamples = inPhase.get(label);
    if (phaseSamples) phaseSamples.push(ms);
    else inPhase.set(label, [ms]);
  }
  const { seconds, applySeconds } = await reupload;
  const slowest = (of: Map<string, number[]>) =>
    [...of]
      .filter(([, s]) => s.length > 0)
      .map(([label, s]) => summarize(label, s))
      .reduce<Timing | null>((a, b) => (a === null || b.p95 > a.p95 ? b : a), null);
  const during = slowest(samples);
  if (!during) throw new Error("No list request was timed during the re-upload.");
  const sending = slowest(phases.sending);
  const applying = slowest(phases.applying);
  const line = (t: Timing | null) => (t ? `${t.p95.toFixed(1)} ms (${t.label}, ${t.count} samples)` : "no samples");
  console.log(
    `  re-uploaded (full, replacing) in ${seconds.toFixed(1)} s (${applySeconds.toFixed(1)} s applying); the other buyer's slowest list p95 meanwhile ${during.p95.toFixed(1)} ms (${during.label}, ${during.count} samples)`,
  );
  console.log(`    of which while sending: ${line(sending)}; while applying: ${line(applying)}`);
  return {
    numbers: count,
    firstSeconds: first.seconds,
    reuploadSeconds: seconds,
    applySeconds,
    during,
    sending,
    applying,
  };
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ");

/**
 * `npm run bench -- suppression --only private`: this line alone (docs/decisions/0066). `leads` leads and
 * the `numbers` shared numbers are written in SQL before the server starts (the Chromium load is not what
 * is measured here), the marketplace's p95 is measured, then the private list re-uploaded while it is
 * timed again. Prints both and the load average; target: within 20 % (as the full bench's).
 */
export async function benchPrivateOnly(options: { numbers: number; leads: number; privateNumbers: number }) {
  console.log(
    `\n${options.leads.toLocaleString("en-US")} leads, ${options.numbers.toLocaleString("en-US")} shared numbers in SQL; load average ${load()}`,
  );
  const server = await startLocalServer(
    "bench-suppression-private",
    {},
    {
      beforeStart: async (persistTo) => {
        await withLocalD1(persistTo, async (d1) => {
          await insertBenchLeads(d1, 0, options.leads, Date.now());
          await loadNumbersInSql(d1, options.numbers, Date.now());
          await d1.batch([
            d1.prepare("DELETE FROM aged_lead_counts"),
            d1.prepare(`INSERT INTO aged_lead_counts (state, area_code, unsold) SELECT state, coalesce(area_code, ''), count(*)
              FROM aged_leads WHERE sold_at IS NULL AND suppressed_at IS NULL GROUP BY 1, 2`),
          ]);
          await insertPrivateUploader(d1);
        });
      },
    },
  );
  try {
    const before = await listQueries(server.baseURL);
    const worst = before.reduce((a, b) => (b.p95 > a.p95 ? b : a));
    console.log(
      `  list p95 before, slowest query: ${worst.p95.toFixed(1)} ms (${worst.label}); load average ${load()}`,
    );
    const result = await benchPrivateReupload(server.baseURL, options.privateNumbers);
    const ratio = result.during.p95 / worst.p95;
    const met = ratio <= 1.2;
    console.log(
      `  during / before: ${ratio.toFixed(2)} (target ≤ 1.20: ${met ? "met" : "NOT met"}); load average ${load()} (1 / 5 / 15 min)`,
    );
    return met;
  } finally {
    server.stop();
  }
}
