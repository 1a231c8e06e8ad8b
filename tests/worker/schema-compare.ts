/**
 * What drizzle's table configs (worker/db/schema/) say the database holds, and what the migrated D1's
 * catalogue (sqlite_master and its pragmas) says it holds, in one comparable shape.
 * Every table exported by the schema is read: nothing here names a table.
 */
import { is, SQL } from "drizzle-orm";
import { getTableConfig, type Index, type SQLiteColumn, SQLiteSyncDialect, SQLiteTable } from "drizzle-orm/sqlite-core";

const dialect = new SQLiteSyncDialect();

interface ColumnShape {
  type: string;
  notNull: boolean;
  default: string | null;
}

export interface TableShape {
  columns: Record<string, ColumnShape>;
  primaryKey: string[];
  foreignKeys: string[];
  indexes: Record<string, string>;
  checks: string[];
}

/** SQL text compared without quoting, letter case, whitespace or a table prefix on column names. */
export function normalizeSql(text: string, table: string): string {
  return text
    .replace(/[`"[\]]/g, "")
    .replaceAll(`${table}.`, "")
    .replace(/\s+/g, "")
    .toLowerCase();
}

/** A default compared as SQL text without its outer parentheses; a boolean's `false` is the integer 0. */
function normalizeDefault(value: string | null, table: string): string | null {
  if (value === null) return null;
  let text = normalizeSql(value, table);
  while (/^\(.*\)$/.test(text) && balanced(text.slice(1, -1))) text = text.slice(1, -1);
  return text === "false" ? "0" : text === "true" ? "1" : text;
}

function balanced(text: string): boolean {
  let depth = 0;
  for (const c of text) {
    depth += c === "(" ? 1 : c === ")" ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/** Every `CHECK (…)` of a CREATE TABLE statement, column constraints and table constraints alike. */
export function checksOf(createTable: string): string[] {
  const checks: string[] = [];
  const pattern = /\bCHECK\s*\(/gi;
  for (let match = pattern.exec(createTable); match; match = pattern.exec(createTable)) {
    let depth = 1;
    let at = match.index + match[0].length;
    let quote: string | null = null;
    for (; at < createTable.length && depth > 0; at++) {
      const c = createTable[at];
      if (quote) quote = c === quote ? null : quote;
      else if (c === "'" || c === '"' || c === "`") quote = c;
      else if (c === "(") depth++;
      else if (c === ")") depth--;
    }
    checks.push(createTable.slice(match.index + match[0].length, at - 1));
  }
  return checks;
}

// ——— the schema (worker/db/schema/) ———

export const tableName = (table: SQLiteTable) => getTableConfig(table).name;

export function schemaTables(schema: Record<string, unknown>): SQLiteTable[] {
  return Object.values(schema).filter((value): value is SQLiteTable => is(value, SQLiteTable));
}

function sqlText(value: SQL, table: string): string {
  return normalizeSql(dialect.sqlToQuery(value, "indexes").sql, table);
}

function drizzleDefault(column: SQLiteColumn): string | null {
  if (!column.hasDefault || column.default === undefined) return null;
  if (is(column.default, SQL)) return dialect.sqlToQuery(column.default, "indexes").sql;
  const driver: unknown = column.mapToDriverValue(column.default);
  if (typeof driver === "number" || typeof driver === "bigint") return String(driver);
  if (typeof driver === "boolean") return driver ? "1" : "0";
  return `'${String(driver).replaceAll("'", "''")}'`;
}

function indexSql(table: string, index: Index): string {
  const { name, unique, columns, where } = index.config;
  const on = columns.map((column) => (is(column, SQL) ? sqlText(column, table) : column.name)).join(",");
  const filter = where ? `where${sqlText(where, table)}` : "";
  return normalizeSql(`create${unique ? "unique" : ""}index${name}on${table}(${on})${filter}`, table);
}

export function drizzleShape(table: SQLiteTable): TableShape {
  const config = getTableConfig(table);
  const columns: TableShape["columns"] = {};
  for (const column of config.columns) {
    columns[column.name] = {
      type: column.getSQLType().toLowerCase(),
      notNull: column.notNull,
      default: normalizeDefault(drizzleDefault(column), config.name),
    };
  }
  const composite = config.primaryKeys[0]?.columns.map((column) => column.name);
  return {
    columns,
    primaryKey: composite ?? config.columns.filter((column) => column.primary).map((column) => column.name),
    foreignKeys: config.foreignKeys
      .map((key) => {
        const { columns: from, foreignColumns, foreignTable } = key.reference();
        const target = getTableConfig(foreignTable).name;
        const names = (list: SQLiteColumn[]) => list.map((column) => column.name).join(",");
        return `(${names(from)}) → ${target}(${names(foreignColumns)}) on delete ${key.onDelete ?? "no action"}`;
      })
      .sort(),
    indexes: Object.fromEntries(config.indexes.map((index) => [index.config.name, indexSql(config.name, index)])),
    checks: config.checks.map((check) => sqlText(check.value, config.name)).sort(),
  };
}

// ——— the migrated database ———

interface PragmaColumn {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}
interface PragmaForeignKey {
  id: number;
  seq: number;
  table: string;
  from: string;
  to: string;
  on_delete: string;
}

export async function databaseTables(db: D1Database): Promise<string[]> {
  const { results } = await db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations' ORDER BY name",
    )
    .all<{ name: string }>();
  return results.map((row) => row.name);
}

export async function databaseShape(db: D1Database, table: string): Promise<TableShape> {
  const [created, columns, keys, indexes] = await db.batch<Record<string, unknown>>([
    db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").bind(table),
    db.prepare('SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_xinfo(?) WHERE hidden = 0').bind(table),
    db.prepare('SELECT id, seq, "table", "from", "to", on_delete FROM pragma_foreign_key_list(?)').bind(table),
    db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL")
      .bind(table),
  ]);
  const createTable = String(created?.results[0]?.sql ?? "");
  const columnRows = (columns?.results ?? []) as unknown as PragmaColumn[];
  const keyRows = (keys?.results ?? []) as unknown as PragmaForeignKey[];
  const byKey = new Map<number, PragmaForeignKey[]>();
  for (const row of keyRows) byKey.set(row.id, [...(byKey.get(row.id) ?? []), row]);
  return {
    columns: Object.fromEntries(
      columnRows.map((column) => [
        column.name,
        {
          type: column.type.toLowerCase(),
          // SQLite reports a PRIMARY KEY column without NOT NULL as nullable; drizzle's primaryKey() is NOT NULL.
          notNull: column.notnull === 1 || (column.pk > 0 && column.type.toLowerCase() !== "integer"),
          default: normalizeDefault(column.dflt_value, table),
        },
      ]),
    ),
    primaryKey: columnRows
      .filter((column) => column.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((column) => column.name),
    foreignKeys: [...byKey.values()]
      .map((rows) => {
        const sorted = rows.sort((a, b) => a.seq - b.seq);
        const from = sorted.map((row) => row.from).join(",");
        const to = sorted.map((row) => row.to).join(",");
        return `(${from}) → ${sorted[0]?.table}(${to}) on delete ${sorted[0]?.on_delete.toLowerCase()}`;
      })
      .sort(),
    indexes: Object.fromEntries(
      ((indexes?.results ?? []) as { name: string; sql: string }[]).map((row) => [
        row.name,
        normalizeSql(row.sql, table),
      ]),
    ),
    checks: checksOf(createTable)
      .map((check) => normalizeSql(check, table))
      .sort(),
  };
}

/** Triggers the migrations create and do not drop again, by name, with the migration that created each. */
export function triggersOfMigrations(migrations: { name: string; queries: string[] }[]): Map<string, string> {
  const triggers = new Map<string, string>();
  for (const migration of migrations) {
    for (const query of migration.queries) {
      for (const [, name] of query.matchAll(/CREATE\s+TRIGGER\s+(?:IF\s+NOT\s+EXISTS\s+)?[`"]?(\w+)/gi)) {
        if (name) triggers.set(name, migration.name);
      }
      for (const [, name] of query.matchAll(/DROP\s+TRIGGER\s+(?:IF\s+EXISTS\s+)?[`"]?(\w+)/gi)) {
        if (name) triggers.delete(name);
      }
    }
  }
  return triggers;
}
