/**
 * The part of D1's binding drizzle's D1 driver calls (`prepare`, `bind`, `all`, `raw`, `run`, `batch`),
 * over a node:sqlite connection to the server's database file: so the browser tests arrange rows with the
 * Worker tests' drizzle factories (tests/worker/factories/) in their own process, through the schema,
 * instead of hand-written SQL (decision 0067). Only what the factories need: no sessions, no `exec`, no
 * `dump`. A batch is one transaction, as in D1.
 */
import type { DatabaseSync, SQLInputValue } from "node:sqlite";

type Params = SQLInputValue[];

class StandInStatement {
  readonly #db: DatabaseSync;
  readonly #sql: string;
  readonly #params: Params;

  constructor(db: DatabaseSync, sql: string, params: Params = []) {
    this.#db = db;
    this.#sql = sql;
    this.#params = params;
  }

  bind(...params: Params): StandInStatement {
    return new StandInStatement(this.#db, this.#sql, params);
  }

  /** Synchronous, for batches inside one transaction. */
  rows(): Record<string, unknown>[] {
    return this.#db.prepare(this.#sql).all(...this.#params) as Record<string, unknown>[];
  }

  async all() {
    return { results: this.rows(), success: true, meta: {} };
  }

  async raw() {
    const statement = this.#db.prepare(this.#sql);
    statement.setReturnArrays(true);
    return statement.all(...this.#params) as unknown as unknown[][];
  }

  async run() {
    const { changes, lastInsertRowid } = this.#db.prepare(this.#sql).run(...this.#params);
    return { results: [], success: true, meta: { changes: Number(changes), last_row_id: Number(lastInsertRowid) } };
  }
}

/** A D1Database-shaped object over `db`, for `drizzle()` from drizzle-orm/d1. */
export function d1StandIn(db: DatabaseSync) {
  return {
    prepare: (sql: string) => new StandInStatement(db, sql),
    async batch(statements: StandInStatement[]) {
      db.exec("BEGIN IMMEDIATE");
      try {
        const results = statements.map((statement) => ({ results: statement.rows(), success: true, meta: {} }));
        db.exec("COMMIT");
        return results;
      } catch (error) {
        db.exec("ROLLBACK");
        throw error;
      }
    },
  };
}
