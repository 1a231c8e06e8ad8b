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
import { desc, eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import * as schema from "../../worker/db/schema";
import { outbox, users } from "../../worker/db/schema";
import { type Database, startSequenceAt } from "../worker/factories/db";
import { createBuyer, type TestUser, type UserOverrides } from "../worker/factories/users";
import { d1StandIn } from "./d1-stand-in";
import { setupValue } from "./fixtures";

let opened: DatabaseSync | undefined;

/** Opens the D1 database of a local state folder (a server's `persistTo`) in this process. */
export function openD1(persistTo: string): DatabaseSync {
  const folder = join(persistTo, "v3", "d1", "miniflare-D1DatabaseObject");
  // One file per database, named by its Durable Object id (metadata.sqlite beside it is Miniflare's own).
  const files = readdirSync(folder).filter((name) => /^[0-9a-f]{64}\.sqlite$/.test(name));
  if (files.length !== 1) throw new Error(`Expected one D1 database in ${folder}, found ${files.length}`);
  // A statement here waits (up to 15 s) while the server holds the database's write lock. The server does
  // not wait for this process's lock (its write fails with SQLITE_BUSY), so the lock is held as briefly as
  // it can be: a commit here writes to the WAL without waiting for the disk (a test database, nothing to keep).
  const database = new DatabaseSync(join(folder, files[0] ?? ""), { timeout: 15_000 });
  database.exec("PRAGMA synchronous = OFF");
  return database;
}

function database(): DatabaseSync {
  opened ??= openD1(setupValue("E2E_PERSIST_TO"));
  return opened;
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

/**
 * A buyer of this run (`e2e_…`, password "e2e-password-1", "Erin Example") through the factories' `createBuyer`;
 * answers its row, with its id, and the plain password.
 */
export function createUser(overrides: UserOverrides = {}): Promise<TestUser> {
  created += 1;
  const tag = `${Date.now().toString(36)}${created}`;
  return createBuyer(e2eDb(), {
    username: `e2e_${tag}`,
    password: "e2e-password-1",
    email: `e2e_${tag}@example.com`,
    firstName: "Erin",
    lastName: "Example",
    ...overrides,
  });
}

/** The id of the user named `username` (a demo account's, or one a journey signed up). */
export async function userIdOf(username: string): Promise<string | undefined> {
  const [row] = await e2eDb().select({ id: users.id }).from(users).where(eq(users.username, username));
  return row?.id;
}

/** The latest mail to `email` in the local outbox. */
export async function latestMailTo(email: string): Promise<{ subject: string; text: string } | undefined> {
  const [mail] = await e2eDb()
    .select({ subject: outbox.subject, text: outbox.text })
    .from(outbox)
    .where(eq(outbox.to, email))
    .orderBy(desc(outbox.createdAt))
    .limit(1);
  return mail;
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
