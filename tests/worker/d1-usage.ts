/**
 * A D1 binding that records what runs through it, to check Cloudflare's limits that local D1 does not
 * enforce (worker/db/limits.ts): bound parameters and SQL length per statement, bytes per bound value,
 * and queries per Worker invocation (each statement of a batch counts).
 */
import { D1_LIMITS } from "../../worker/db/limits";

interface Executed {
  sql: string;
  params: number;
  largestValueBytes: number;
}

export interface D1Usage {
  /** Every statement run, in order (a batch's statements one by one). */
  statements: Executed[];
}

const byteLength = (value: unknown) =>
  typeof value === "string"
    ? new TextEncoder().encode(value).length
    : value instanceof ArrayBuffer
      ? value.byteLength
      : 8;

type Tracked = { inner: D1PreparedStatement; sql: string; values: unknown[] };

/**
 * Wraps `db`: use the returned binding in place of the real one, then read `usage`. With `refuse`, a
 * statement whose SQL matches fails as D1 would (a batch that holds one fails before anything runs).
 */
export function watchD1(db: D1Database, options: { refuse?: RegExp } = {}): { db: D1Database; usage: D1Usage } {
  const usage: D1Usage = { statements: [] };
  const tracked = new WeakMap<object, Tracked>();
  const record = ({ sql, values }: Tracked) => {
    if (options.refuse?.test(sql)) throw new Error(`D1_ERROR: refused by the test: ${sql.slice(0, 60)}`);
    return usage.statements.push({
      sql,
      params: values.length,
      largestValueBytes: Math.max(0, ...values.map(byteLength)),
    });
  };

  function statement(entry: Tracked): D1PreparedStatement {
    const wrapped = {
      bind: (...values: unknown[]) => statement({ inner: entry.inner.bind(...values), sql: entry.sql, values }),
      first: (column?: string) => {
        record(entry);
        return column === undefined ? entry.inner.first() : entry.inner.first(column);
      },
      all: () => {
        record(entry);
        return entry.inner.all();
      },
      run: () => {
        record(entry);
        return entry.inner.run();
      },
      raw: (options?: { columnNames?: boolean }) => {
        record(entry);
        // biome-ignore lint/suspicious/noExplicitAny: raw()'s overloads differ only in the tuple's first row
        return entry.inner.raw(options as any);
      },
    } as unknown as D1PreparedStatement;
    tracked.set(wrapped, entry);
    return wrapped;
  }

  const wrappedDb = {
    prepare: (sql: string) => statement({ inner: db.prepare(sql), sql, values: [] }),
    batch: async (statements: D1PreparedStatement[]) => {
      const inner = statements.map((s) => {
        const entry = tracked.get(s);
        if (!entry) throw new Error("batch() got a statement this binding did not prepare");
        record(entry);
        return entry.inner;
      });
      return db.batch(inner);
    },
    exec: (sql: string) => {
      for (const part of sql.split(";").filter((s) => s.trim()))
        record({ inner: db.prepare("SELECT 1"), sql: part, values: [] });
      return db.exec(sql);
    },
    withSession: () => {
      throw new Error("watchD1 does not follow sessions");
    },
  } as unknown as D1Database;
  return { db: wrappedDb, usage };
}

/** The limits `usage` breaks, as readable lines (empty when within every limit). */
export function brokenD1Limits(usage: D1Usage): string[] {
  const broken: string[] = [];
  if (usage.statements.length > D1_LIMITS.queriesPerInvocation)
    broken.push(`${usage.statements.length} queries in one invocation`);
  for (const { sql, params, largestValueBytes } of usage.statements) {
    const head = sql.replace(/\s+/g, " ").slice(0, 80);
    if (params > D1_LIMITS.paramsPerStatement) broken.push(`${params} parameters: ${head}`);
    if (new TextEncoder().encode(sql).length > D1_LIMITS.sqlBytesPerStatement) broken.push(`SQL too long: ${head}`);
    if (largestValueBytes > D1_LIMITS.bytesPerValue) broken.push(`a value of ${largestValueBytes} bytes: ${head}`);
  }
  return broken;
}
