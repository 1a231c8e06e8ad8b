/**
 * Direct access to the e2e server's local D1, for arranging users and reading the mail outbox: the SQLite
 * file under the server's state folder (Miniflare keeps each D1 database in one), opened in this process
 * with node:sqlite instead of spawning `wrangler d1 execute` for every query (seconds each; docs/decisions/0056).
 * SQLite's file locks keep this connection and the server's apart, as they kept wrangler's second workerd
 * (which opened the same file) apart from the server's.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { drizzle } from "drizzle-orm/d1";
import { type NewUser, userRow } from "../../scripts/demo-data.ts";
import { inlinedSql, statements } from "../../scripts/lib/drizzle-sql.ts";
import { sqlLiteral } from "../../scripts/lib/sql.ts";
import * as schema from "../../worker/db/schema";
import { users } from "../../worker/db/schema";
import { type Database, startSequenceAt } from "../worker/factories/db";
import { d1StandIn } from "./d1-stand-in";
import { setupValue } from "./fixtures";

let opened: DatabaseSync | undefined;

/** Opens the D1 database of a local state folder (a server's `persistTo`) in this process. */
export function openD1(persistTo: string): DatabaseSync {
  const folder = join(persistTo, "v3", "d1", "miniflare-D1DatabaseObject");
  // One file per database, named by its Durable Object id (metadata.sqlite beside it is Miniflare's own).
  const files = readdirSync(folder).filter((name) => /^[0-9a-f]{64}\.sqlite$/.test(name));
  if (files.length !== 1) throw new Error(`Expected one D1 database in ${folder}, found ${files.length}`);
  // A statement here waits (up to 15 s) while the server holds the database's write lock.
  return new DatabaseSync(join(folder, files[0] ?? ""), { timeout: 15_000 });
}

function database(): DatabaseSync {
  opened ??= openD1(setupValue("E2E_PERSIST_TO"));
  return opened;
}

/** Runs one SQL statement against the server's D1 and answers its rows (none for a write). */
export function query<Row>(sql: string): Row[] {
  const statement = database().prepare(sql);
  const unprepared = sql.trim().replace(/;$/, "").slice(statement.sourceSQL.trim().replace(/;$/, "").length);
  if (unprepared.trim()) throw new Error(`query() runs one statement; this SQL has more: ${sql}`);
  return statement.all().map((row) => ({ ...row }) as Row);
}

let handle: Database | undefined;

/**
 * The Worker tests' factories' drizzle handle on the server's database (tests/worker/factories/*.ts, not
 * their index: that one brings workerd's `env`). This process takes its own range of factory numbers, as the
 * other test worker and earlier runs on the same state share the database.
 */
export function e2eDb(): Database {
  if (!handle) {
    startSequenceAt(1_000_000 + Math.floor(Math.random() * 90_000_000));
    handle = drizzle(d1StandIn(database()) as unknown as Parameters<typeof drizzle>[0], { schema });
  }
  return handle;
}

let created = 0;

export async function createUser(overrides: Partial<NewUser> = {}): Promise<NewUser> {
  created += 1;
  const tag = `${Date.now().toString(36)}${created}`;
  const user: NewUser = {
    username: `e2e_${tag}`,
    password: "e2e-password-1",
    email: `e2e_${tag}@example.com`,
    isAdmin: false,
    firstName: "Erin",
    lastName: "Example",
    ...overrides,
  };
  query(inlinedSql(statements.insert(users).values(await userRow(user))));
  return user;
}

export function latestMailTo(email: string): { subject: string; text: string } | undefined {
  return query<{ subject: string; text: string }>(
    `SELECT subject, text FROM outbox WHERE "to" = ${sqlLiteral(email)} ORDER BY created_at DESC LIMIT 1`,
  )[0];
}

/**
 * The link to `page` (a reset, invitation or setup link) of the latest mail to `email` as the development
 * server printed it: the outbox keeps links that sign someone in redacted.
 */
export function linkPrintedFor(email: string, page = "/reset-password"): string | undefined {
  const log = readFileSync(setupValue("E2E_SERVER_LOG"), "utf8");
  const at = log.lastIndexOf(`[mail] to ${email}:`);
  if (at < 0) return undefined;
  return new RegExp(`(http://\\S+${page}\\?token=[\\w-]+)`).exec(log.slice(at))?.[1];
}
