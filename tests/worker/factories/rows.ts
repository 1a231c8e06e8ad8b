/**
 * Reading rows back through the schema as SQLite stores them (decision 0067): column names, times in ms,
 * booleans 0/1, JSON as text. For tests that compare a whole row, or many of its columns, with what the
 * database holds; a test that reads one or two columns selects them with drizzle.
 */
import { getTableColumns, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "./db";

/** One drizzle row of `table` in its stored form. */
function storedForm(table: SQLiteTable, row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, column]) => {
      const value = row[key];
      if (value instanceof Date) return [column.name, value.getTime()];
      if (typeof value === "boolean") return [column.name, value ? 1 : 0];
      if (column.dataType === "json" && value !== null && value !== undefined)
        return [column.name, JSON.stringify(value)];
      return [column.name, value];
    }),
  );
}

/** The rows of `table` matching `where`, in their stored form, ordered by `orderBy` if given. */
export async function storedRows(
  db: Database,
  table: SQLiteTable,
  where?: SQL,
  ...orderBy: SQL[]
): Promise<Record<string, unknown>[]> {
  const query = db.select().from(table).where(where);
  const rows = orderBy.length ? await query.orderBy(...orderBy) : await query;
  return rows.map((row) => storedForm(table, row as Record<string, unknown>));
}

/** The first row of `table` matching `where` in its stored form, or undefined. */
export async function storedRow(
  db: Database,
  table: SQLiteTable,
  where: SQL,
): Promise<Record<string, unknown> | undefined> {
  return (await storedRows(db, table, where))[0];
}
