/** Direct access to the e2e server's local D1, for arranging users and reading the mail outbox. */
import { readFileSync } from "node:fs";
import { type NewUser, userRow } from "../../scripts/demo-data.ts";
import { d1Query } from "../../scripts/lib/d1.ts";
import { inlinedSql, statements } from "../../scripts/lib/drizzle-sql.ts";
import { sqlLiteral } from "../../scripts/lib/sql.ts";
import { users } from "../../worker/db/schema";
import { setupValue } from "./fixtures";

const target = () => ({ persistTo: setupValue("E2E_PERSIST_TO") });

export function query<Row>(sql: string): Row[] {
  return d1Query<Row>(sql, target());
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
