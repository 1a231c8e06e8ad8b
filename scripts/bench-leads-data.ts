/**
 * Generated aged leads for `npm run bench -- leads`, written into the local D1 through its binding
 * (scripts/lib/local-d1.ts) before the local server opens it: 50 states with three area codes each, ages
 * 1-180 days, 5 % sold, 1 % reserved, 30 % with a TrustedForm certificate (the "with certificate" filter).
 * Lead i's phone is its area code followed by i in 7 digits.
 */
import { US_STATE_CODES } from "../src/domain/us-states.ts";
import { leadDedupeKey } from "../src/features/aged-leads/leads.ts";

/** The 50 states (the District of Columbia left out, so that each state keeps its generated area codes). */
export const BENCH_STATES = US_STATE_CODES.filter((code) => code !== "DC");
const AREA_CODES_PER_STATE = 3;

/** The area codes generated for a state (e.g. its first: `benchAreaCode(0, 0)` = "201"). */
export const benchAreaCode = (stateIndex: number, k: number) => String(201 + stateIndex * AREA_CODES_PER_STATE + k);

const DAY = 86_400_000;
const FIRST = ["Mary", "James", "Linda", "Robert", "Patricia", "John", "Barbara", "William", "Dorothy", "Charles"];
const LAST = ["Johnson", "Williams", "Brown", "Davis", "Miller", "Wilson", "Moore", "Taylor", "Anderson", "Thomas"];

/** A small deterministic generator, so every run builds the same table. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Rows per statement: one JSON parameter carries them all, well inside D1's 100 bound parameters. */
const ROWS_PER_STATEMENT = 5_000;
const STATEMENTS_PER_BATCH = 20;

/**
 * Appends leads numbered `from` to `to - 1`. The table's indexes and triggers are dropped for the load and
 * built again afterwards (much faster than keeping them up to date row by row), and the per-state counts
 * that the triggers keep are recomputed the way migration 0006 first filled them.
 */
export async function insertBenchLeads(d1: D1Database, from: number, to: number, now: number): Promise<void> {
  const { results: derived } = await d1
    .prepare(
      "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'aged_leads' AND type IN ('index', 'trigger') AND sql IS NOT NULL",
    )
    .all<{ type: string; name: string; sql: string }>();
  await d1.batch(derived.map(({ type, name }) => d1.prepare(`DROP ${type.toUpperCase()} "${name}"`)));
  await insertRows(d1, from, to, now);
  await d1.batch([
    ...derived.map(({ sql }) => d1.prepare(sql)),
    d1.prepare("DELETE FROM aged_lead_counts"),
    d1.prepare(`INSERT INTO aged_lead_counts (state, area_code, unsold, certified)
      SELECT state, coalesce(area_code, ''), count(*), sum(certified) FROM aged_leads
      WHERE sold_at IS NULL AND withheld = 0 AND suppressed_at IS NULL GROUP BY 1, 2`),
  ]);
  // No ANALYZE here: the bench measures the database as the shop leaves it (the server's start runs the
  // scheduled handler, whose `PRAGMA optimize` gathers statistics as it does after every bulk change).
}

type BenchRow = [
  id: string,
  name: string,
  email: string,
  phone: string,
  state: string,
  areaCode: string,
  formFillTime: number,
  dedupeKey: string,
  reservedByOrderId: string | null,
  reservedUntil: number | null,
  soldOrderId: string | null,
  soldAt: number | null,
  createdAt: number,
  trustedFormUrl: string | null,
];

/** The phones are 10 plain digits, so their key (what Do Not Call lists match) is the number itself. */
const INSERT_ROWS = `INSERT INTO aged_leads (id, name, email, phone, state, area_code, price_cents, form_fill_time, dedupe_key,
    reserved_by_order_id, reserved_until, sold_order_id, sold_at, created_at, trusted_form_url, certified, phone_key)
  SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, 0, value ->> 6, value ->> 7,
    value ->> 8, value ->> 9, value ->> 10, value ->> 11, value ->> 12, value ->> 13, value ->> 13 IS NOT NULL,
    CAST(value ->> 3 AS INTEGER)
  FROM json_each(?)`;

async function insertRows(d1: D1Database, from: number, to: number, now: number): Promise<void> {
  const next = random(from + 1);
  let statements: D1PreparedStatement[] = [];
  let rows: BenchRow[] = [];
  for (let i = from; i < to; i++) {
    const stateIndex = Math.floor(next() * BENCH_STATES.length);
    const areaCode = benchAreaCode(stateIndex, Math.floor(next() * AREA_CODES_PER_STATE));
    const phone = `${areaCode}${String(i).padStart(7, "0")}`;
    const formFillTime = now - Math.floor((1 + next() * 179) * DAY);
    const createdAt = formFillTime + Math.floor(next() * DAY);
    const fate = next();
    const sold = fate < 0.05;
    const reserved = !sold && fate < 0.06;
    const certified = next() < 0.3;
    const first = FIRST[i % FIRST.length] ?? "Pat";
    const last = LAST[Math.floor(i / FIRST.length) % LAST.length] ?? "Smith";
    rows.push([
      `bench-${String(i).padStart(8, "0")}`,
      `${first} ${last}`,
      `lead${i}@example.com`,
      phone,
      BENCH_STATES[stateIndex] ?? "TX",
      areaCode,
      formFillTime,
      leadDedupeKey(phone, formFillTime),
      reserved ? "bench-hold" : null,
      reserved ? now + DAY : null,
      sold ? "bench-sold" : null,
      sold ? now - DAY : null,
      createdAt,
      certified ? `https://cert.trustedform.com/${String(i).padStart(40, "0")}` : null,
    ]);
    if (rows.length === ROWS_PER_STATEMENT || i === to - 1) {
      statements.push(d1.prepare(INSERT_ROWS).bind(JSON.stringify(rows)));
      rows = [];
    }
    if (statements.length === STATEMENTS_PER_BATCH || (i === to - 1 && statements.length)) {
      await d1.batch(statements);
      statements = [];
    }
  }
}
