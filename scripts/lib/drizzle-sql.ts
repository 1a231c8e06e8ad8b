/**
 * A drizzle statement as SQL text with its parameters inlined by drizzle's own SQLite dialect, for the
 * one place that cannot bind parameters: `wrangler d1 execute --command` (user:create, which must work
 * against the deployed database too, and the e2e tests' arranging).
 */
import type { SQLWrapper } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { drizzle } from "drizzle-orm/sqlite-proxy";
import * as schema from "../../worker/db/schema/index.ts";

/** A drizzle handle that only builds statements (`.getSQL()`); it never runs them. */
export const statements = drizzle(
  async () => {
    throw new Error("statements only build SQL; run it with d1Query");
  },
  { schema },
);

const dialect = new SQLiteSyncDialect();

export function inlinedSql(statement: SQLWrapper): string {
  return dialect.sqlToQuery(statement.getSQL().inlineParams()).sql;
}
