/**
 * The migrations folder as drizzle-kit keeps it: the SQL files wrangler applies, and beside them
 * `meta/_journal.json` (one entry per file) and the snapshot of the schema that the next
 * `drizzle-kit generate` diffs against (docs/operations.md, Changing the schema; decision 0036).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import drizzleConfig from "../../drizzle.config.ts";
import { root } from "./paths.ts";

export const migrationsDir = resolve(root, drizzleConfig.out ?? "migrations");
export const metaDir = join(migrationsDir, "meta");
export const journalFile = join(metaDir, "_journal.json");
export const schemaFile = String(drizzleConfig.schema);

export interface JournalEntry {
  idx: number;
  version: string;
  when: number;
  tag: string;
  breakpoints: boolean;
}
export interface Journal {
  version: string;
  dialect: string;
  entries: JournalEntry[];
}
export interface Snapshot {
  id: string;
  prevId: string;
  [key: string]: unknown;
}

export const ZERO_ID = "00000000-0000-0000-0000-000000000000";

/** The SQL migrations in the order wrangler applies them (by file name), as journal tags. */
export function migrationTags(): string[] {
  return readdirSync(migrationsDir)
    .filter((file) => /^\d{4}_.+\.sql$/.test(file))
    .sort()
    .map((file) => file.slice(0, -".sql".length));
}

export function readJournal(): Journal | undefined {
  return existsSync(journalFile) ? (JSON.parse(readFileSync(journalFile, "utf8")) as Journal) : undefined;
}

/** Snapshot files by their migration number, in order. */
export function snapshotFiles(): { index: number; file: string }[] {
  if (!existsSync(metaDir)) return [];
  return readdirSync(metaDir)
    .filter((file) => /^\d{4}_snapshot\.json$/.test(file))
    .sort()
    .map((file) => ({ index: Number(file.slice(0, 4)), file: join(metaDir, file) }));
}

export function readSnapshot(file: string): Snapshot {
  return JSON.parse(readFileSync(file, "utf8")) as Snapshot;
}

export const snapshotFileOf = (index: number) => join(metaDir, `${String(index).padStart(4, "0")}_snapshot.json`);

/**
 * An empty folder for a throw-away `drizzle-kit generate --out`, inside the project (under the ignored
 * .wrangler/): drizzle-kit reads an existing out folder only by a path relative to the project.
 */
export function scratchOutDir(name: string): { path: string; relativePath: string } {
  mkdirSync(join(root, ".wrangler"), { recursive: true });
  const path = mkdtempSync(join(root, ".wrangler", `${name}-`));
  return { path, relativePath: relative(root, path) };
}

interface SnapshotForeignKey {
  tableFrom: string;
  tableTo: string;
  onDelete?: string;
}

/**
 * `DROP TABLE`s that would change other tables' rows: on D1 foreign keys cannot be switched off inside a
 * migration, so dropping a table (as drizzle-kit's rebuild of a table does) runs the ON DELETE CASCADE
 * and SET NULL actions of every table that references it. A migration that keeps those rows itself says
 * so with a line `-- keeps-children: <table>`. Answers one message per such drop.
 */
export function dropsThatTouchChildren(migrations: { tag: string; sql: string }[], latest: Snapshot): string[] {
  const tables = (latest.tables ?? {}) as Record<string, { foreignKeys?: Record<string, SnapshotForeignKey> }>;
  const children = new Map<string, string[]>();
  for (const table of Object.values(tables)) {
    for (const key of Object.values(table.foreignKeys ?? {})) {
      if (key.onDelete !== "cascade" && key.onDelete !== "set null") continue;
      children.set(key.tableTo, [...(children.get(key.tableTo) ?? []), `${key.tableFrom} (on delete ${key.onDelete})`]);
    }
  }
  const problems: string[] = [];
  for (const { tag, sql } of migrations) {
    for (const [, table] of sql.matchAll(/DROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?[`"[]?(\w+)/gi)) {
      const referencing = table ? children.get(table) : undefined;
      if (!table || !referencing || new RegExp(`^--\\s*keeps-children:\\s*${table}\\s*$`, "m").test(sql)) continue;
      problems.push(`${tag} drops ${table}, which would delete or clear rows of ${referencing.join(", ")}`);
    }
  }
  return problems;
}
