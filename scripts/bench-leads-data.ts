/**
 * Generated aged leads for `npm run bench -- leads`, written straight into a local D1 SQLite file (before
 * the local server opens it): 50 states with three area codes each, ages 1-180 days, 5 % sold, 1 % reserved.
 */
import type { DatabaseSync } from "node:sqlite";
import { leadDedupeKey } from "../src/domain/leads.ts";
import { US_STATE_CODES } from "../src/domain/us-states.ts";

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

/**
 * Appends leads numbered `from` to `to - 1`. The table's indexes and triggers are dropped for the load and
 * built again afterwards (much faster than keeping them up to date row by row), and the per-state counts
 * that the triggers keep are recomputed the way migration 0006 first filled them.
 */
export function insertBenchLeads(db: DatabaseSync, from: number, to: number, now: number): void {
  const derived = db
    .prepare(
      "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'aged_leads' AND type IN ('index', 'trigger') AND sql IS NOT NULL",
    )
    .all() as { type: string; name: string; sql: string }[];
  db.exec("PRAGMA synchronous = OFF");
  for (const { type, name } of derived) db.exec(`DROP ${type.toUpperCase()} "${name}"`);
  insertRows(db, from, to, now);
  db.exec("BEGIN");
  for (const { sql } of derived) db.exec(sql);
  db.exec(`DELETE FROM aged_lead_counts;
    INSERT INTO aged_lead_counts (state, area_code, unsold)
    SELECT state, coalesce(area_code, ''), count(*) FROM aged_leads WHERE sold_at IS NULL GROUP BY 1, 2;
    ANALYZE;`);
  db.exec("COMMIT");
}

function insertRows(db: DatabaseSync, from: number, to: number, now: number): void {
  const next = random(from + 1);
  const insert = db.prepare(
    `INSERT INTO aged_leads (id, name, email, phone, state, area_code, price_cents, form_fill_time, dedupe_key,
       reserved_by_order_id, reserved_until, sold_order_id, sold_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?)`,
  );
  db.exec("BEGIN");
  for (let i = from; i < to; i++) {
    const stateIndex = Math.floor(next() * BENCH_STATES.length);
    const areaCode = benchAreaCode(stateIndex, Math.floor(next() * AREA_CODES_PER_STATE));
    const phone = `${areaCode}${String(i).padStart(7, "0")}`;
    const formFillTime = now - Math.floor((1 + next() * 179) * DAY);
    const createdAt = formFillTime + Math.floor(next() * DAY);
    const fate = next();
    const sold = fate < 0.05;
    const reserved = !sold && fate < 0.06;
    const first = FIRST[i % FIRST.length];
    const last = LAST[Math.floor(i / FIRST.length) % LAST.length];
    insert.run(
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
    );
  }
  db.exec("COMMIT");
}
