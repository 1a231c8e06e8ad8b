/**
 * Multi-row inserts within D1's bound-parameter limit (worker/db/limits.ts). Every multi-row insert of
 * the Worker goes through `insertInChunks`: the rows per statement follow from the parameters one row
 * really binds (drizzle binds one for every column it has a value or a default for, not only the
 * columns the caller named), so a new column can never push a statement over the limit unnoticed.
 */
import type { SQLiteInsertValue, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "./client";
import { D1_LIMITS } from "./limits";

/** The most parameters any one of `rows` binds in an insert into `table`. */
export function paramsPerRow<T extends SQLiteTable>(db: Database, table: T, rows: SQLiteInsertValue<T>[]): number {
  return Math.max(0, ...rows.map((row) => db.insert(table).values(row).toSQL().params.length));
}

/** Inserts of `rows` into `table`, as many rows to a statement as D1's parameter limit allows (none for no rows). */
export function insertInChunks<T extends SQLiteTable>(db: Database, table: T, rows: SQLiteInsertValue<T>[]) {
  const perRow = paramsPerRow(db, table, rows);
  if (perRow > D1_LIMITS.paramsPerStatement) {
    throw new Error(`One row of ${table._.name} binds ${perRow} parameters, over D1's ${D1_LIMITS.paramsPerStatement}`);
  }
  const size = Math.max(1, Math.floor(D1_LIMITS.paramsPerStatement / Math.max(1, perRow)));
  return Array.from({ length: Math.ceil(rows.length / size) }, (_, i) =>
    db.insert(table).values(rows.slice(i * size, (i + 1) * size)),
  );
}
