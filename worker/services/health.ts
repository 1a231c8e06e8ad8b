/** A real D1 round trip for /api/health: is the database migrated? */
import { sql } from "drizzle-orm";
import { database } from "../db/client";

export type DatabaseState = "ready" | "missing-migrations";

export async function databaseState(d1: D1Database): Promise<DatabaseState> {
  // sqlite_master is SQLite's own catalogue, not a table of the drizzle schema.
  const row = await database(d1).get<{ tables: number } | undefined>(
    sql`SELECT count(*) AS tables FROM sqlite_master WHERE type = 'table' AND name = 'users'`,
  );
  return row?.tables === 1 ? "ready" : "missing-migrations";
}
