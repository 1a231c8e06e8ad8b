/** A real D1 round trip for /api/health: is the database migrated? */
import { sql } from "drizzle-orm";
import type { Deps } from "../deps";

export type DatabaseState = "ready" | "missing-migrations";

export async function databaseState(deps: Deps): Promise<DatabaseState> {
  // sqlite_master is SQLite's own catalogue, not a table of the drizzle schema.
  const row = await deps.db.get<{ tables: number } | undefined>(
    sql`SELECT count(*) AS tables FROM sqlite_master WHERE type = 'table' AND name = 'users'`,
  );
  return row?.tables === 1 ? "ready" : "missing-migrations";
}
