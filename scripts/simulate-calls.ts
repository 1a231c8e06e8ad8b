/**
 * `npm run simulate:calls -- --partner KEY [--rate 20/min] [--minutes 5] [--url http://localhost:8787]
 * [--time-scale 30] [--no-callbacks]`: plays a partner's dialer against a running shop through the public partner API
 * only. Each ping routes a made-up caller; routed calls connect, then end after a duration drawn around
 * the 120-second buffer (a few go unanswered or fail). Durations are reported as drawn but waited out
 * `--time-scale` times faster, so a 5-minute run shows complete calls. A ping refused because no order
 * could take the caller now (no open order, outside hours, caps reached) is posted again as a call-back
 * for tomorrow in the caller's state's zone, morning, afternoon or evening, every 4th an appointment, with
 * the ping's consent (`POST /api/v1/callbacks`; `--no-callbacks` turns this off). A ping refused by the
 * calling rules (`calling_window`: outside the prospect's legal hours; `call_limit`: over their state's
 * calls in 24 hours; docs/decisions/0064) is logged with the moment it may next be routed and is not
 * offered a call-back. A summary prints every minute and at the end, always with those two counts, and
 * the routed calls per number answered (an order with agents rings each agent's own number,
 * docs/decisions/0072).
 */
import { parseArgs } from "node:util";
import { US_STATE_CODES } from "../src/domain/us-states.ts";
import { TRANSFER_BUFFER_SECONDS } from "../src/features/transfers/transfers.ts";
import { becomesCallback, drawSlot, planCallback } from "./lib/simulated-callbacks.ts";

const USAGE =
  "Usage: npm run simulate:calls -- --partner <API key> [--rate 20/min] [--minutes 5] [--url URL] [--time-scale 30] [--no-callbacks]";

/** The flags as given; an unknown flag, a missing value or a stray argument exits 2 with the usage. */
function readFlags() {
  try {
    return parseArgs({
      options: {
        partner: { type: "string" },
        rate: { type: "string", default: "20/min" },
        minutes: { type: "string", default: "5" },
        url: { type: "string", default: process.env.SHOP_URL ?? "http://localhost:8787" },
        "time-scale": { type: "string", default: "30" },
        "no-callbacks": { type: "boolean", default: false },
      },
      strict: true,
    }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

const flags = readFlags();
const key = flags.partner;
if (key === undefined) {
  console.error(USAGE);
  process.exit(2);
}
const rateText = flags.rate;
const rateMatch = /^(\d+(?:\.\d+)?)\/(s|sec|min|h|hour)$/.exec(rateText);
if (!rateMatch) throw new Error(`--rate must look like 20/min or 2/s, not ${rateText}`);
const perUnitMs = { s: 1000, sec: 1000, min: 60_000, h: 3_600_000, hour: 3_600_000 }[rateMatch[2] as "s"];
const intervalMs = perUnitMs / Number(rateMatch[1]);
const minutes = Number(flags.minutes);
const baseUrl = flags.url.replace(/\/$/, "");
const timeScale = Number(flags["time-scale"]);
const postCallbacks = !flags["no-callbacks"];

const FIRST = ["Mary", "James", "Patricia", "Robert", "Linda", "Michael", "Barbara", "William", "Dorothy", "Harold"];
const LAST = ["Johnson", "Smith", "Williams", "Brown", "Jones", "Miller", "Davis", "Wilson", "Moore", "Taylor"];
/** Busy final-expense states come up more often. */
const STATES = ["TX", "TX", "FL", "FL", "CA", "GA", "OH", "NC", "PA", "IL", ...US_STATE_CODES];

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A normal draw (Box-Muller). */
const gaussian = () => Math.sqrt(-2 * Math.log(1 - Math.random())) * Math.cos(2 * Math.PI * Math.random());

/** Durations cluster around the buffer, so some calls are billable and some are not. */
function drawDuration(): number {
  return Math.max(5, Math.round(TRANSFER_BUFFER_SECONDS + gaussian() * 75));
}

const tally = {
  pings: 0,
  routed: 0,
  // The calling rules' refusals are always in the summary, at 0 too (a run in the prospects' night shows many).
  refused: new Map<string, number>([
    ["calling_window", 0],
    ["call_limit", 0],
  ]),
  billable: 0,
  notCharged: 0,
  noAnswer: 0,
  failed: 0,
  errors: 0,
  callbacksPosted: 0,
  callbacksTaken: 0,
  callbacksRefused: new Map<string, number>(),
  /** Routed calls per number the answers gave (the order's, or its agents'). */
  numbers: new Map<string, number>(),
};
const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
const clock = () => new Date().toISOString().slice(11, 19);

async function call(path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await response.json().catch(() => ({ message: `HTTP ${response.status}` }))) as Record<string, unknown>;
  return { status: response.status, json };
}

async function event(transferId: string, body: Record<string, unknown>) {
  const { status, json } = await call(`/transfers/${transferId}/events`, body);
  if (status !== 200) throw new Error(`${body.type} → ${status} ${json.message}`);
  return json;
}

/** Offers the caller a call-back: tomorrow in the state's zone, in a day part drawn at random. */
async function callBack(label: string, prospect: { state: string }, consent: Record<string, string>) {
  tally.callbacksPosted += 1;
  const { kind, timeZone, window } = planCallback(
    Date.now(),
    prospect.state,
    drawSlot(Math.random),
    tally.callbacksPosted,
  );
  const { status, json } = await call("/callbacks", { kind, prospect: { ...prospect, timeZone }, window, consent });
  const when = `${window.date} ${window.from}${window.to ? `-${window.to}` : ""} ${timeZone}`;
  if (status === 201) {
    tally.callbacksTaken += 1;
    console.log(`${label}: ${kind} taken for ${when} (${String(json.callbackId).slice(0, 8)})`);
    return;
  }
  const reason = String(json.reason ?? status);
  count(tally.callbacksRefused, reason);
  if (status !== 409) tally.errors += 1;
  console.log(`${label}: ${kind} for ${when} refused (${status} ${reason}): ${json.message}`);
}

async function dial(n: number): Promise<void> {
  const state = pick(STATES);
  const prospect = {
    firstName: pick(FIRST),
    lastName: pick(LAST),
    phone: `${pick(["214", "305", "404", "512", "614", "704", "813", "919"])}${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`,
    state,
    age: 55 + Math.floor(Math.random() * 30),
  };
  const consent = {
    optInAt: new Date(Date.now() - 90_000).toISOString(),
    optInUrl: "https://example.com/final-expense-quote",
  };
  tally.pings += 1;
  const label = `#${String(n).padStart(3)} ${clock()} ${state} ${prospect.firstName} ${prospect.lastName}`;
  const { status, json } = await call("/transfers", { prospect, consent });
  if (status !== 201) {
    const reason = String(json.reason ?? status);
    count(tally.refused, reason);
    if (status !== 409) tally.errors += 1;
    const next = json.nextAllowedAt ? ` Next allowed at ${json.nextAllowedAt}.` : "";
    console.log(`${label}: not routed (${status} ${reason}): ${json.message}${next}`);
    if (postCallbacks && becomesCallback(status, json.reason)) await callBack(label, prospect, consent);
    return;
  }
  tally.routed += 1;
  count(tally.numbers, String(json.phoneNumber));
  const transferId = String(json.transferId);
  console.log(`${label}: routed to ${json.phoneNumber} (transfer ${transferId.slice(0, 8)})`);
  await sleep(1000 + Math.random() * 3000);
  const roll = Math.random();
  if (roll < 0.08) {
    await event(transferId, { type: "no-answer" });
    tally.noAnswer += 1;
    console.log(`${label}: no answer`);
    return;
  }
  if (roll < 0.11) {
    await event(transferId, { type: "failed" });
    tally.failed += 1;
    console.log(`${label}: failed`);
    return;
  }
  await event(transferId, { type: "connected" });
  const durationSeconds = drawDuration();
  await sleep((durationSeconds * 1000) / timeScale);
  const result = await event(transferId, { type: "completed", durationSeconds });
  if (result.billable) tally.billable += 1;
  else tally.notCharged += 1;
  console.log(`${label}: completed after ${durationSeconds}s: ${result.outcome}`);
}

function printSummary(title: string) {
  console.log(`\n${title}`);
  console.table({
    pings: tally.pings,
    routed: tally.routed,
    billable: tally.billable,
    "under 2 minutes": tally.notCharged,
    "no answer": tally.noAnswer,
    failed: tally.failed,
    ...Object.fromEntries([...tally.refused].map(([reason, n]) => [`refused: ${reason}`, n])),
    ...(postCallbacks && {
      "call-backs posted": tally.callbacksPosted,
      "call-backs taken": tally.callbacksTaken,
      ...Object.fromEntries([...tally.callbacksRefused].map(([reason, n]) => [`call-back refused: ${reason}`, n])),
    }),
    errors: tally.errors,
  });
  if (tally.numbers.size > 0) {
    console.log("Routed calls per number answered:");
    console.table(Object.fromEntries([...tally.numbers].sort(([a], [b]) => (a < b ? -1 : 1))));
  }
}

console.log(
  `Dialing ${baseUrl} at ${rateText} for ${minutes} min (calls ${timeScale}× faster than real time; billable past ${TRANSFER_BUFFER_SECONDS}s; ${postCallbacks ? "callers no order can take now are posted as call-backs" : "no call-backs"}).`,
);
const calls: Promise<void>[] = [];
const start = Date.now();
const end = start + minutes * 60_000;
let nextSummary = start + 60_000;
for (let n = 1; Date.now() < end; n++) {
  if (Date.now() >= nextSummary) {
    printSummary(`After ${Math.round((Date.now() - start) / 60_000)} min`);
    nextSummary += 60_000;
  }
  calls.push(
    dial(n).catch((error: unknown) => {
      tally.errors += 1;
      console.log(`#${n}: error: ${(error as Error).message}`);
    }),
  );
  await sleep(intervalMs);
}
await Promise.all(calls);
printSummary("Summary");
if (tally.errors > 0) process.exitCode = 1;
