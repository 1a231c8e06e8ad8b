/**
 * Raw statements in a D1 batch. drizzle 0.45 batches `db.run(sql…)`/`db.all(sql…)` only without bound
 * parameters: with parameters its D1 session binds them on a prepared statement that a raw query does
 * not have. `batchable` gives the raw query that statement, so it binds and runs inside `db.batch`
 * like a builder (and still runs on its own when awaited).
 */
import type { Database } from "./client";

interface RawQuery {
  getQuery(): { sql: string };
}

export function batchable<T extends RawQuery>(db: Database, raw: T): T {
  return Object.assign(raw, { stmt: db.$client.prepare(raw.getQuery().sql) });
}
