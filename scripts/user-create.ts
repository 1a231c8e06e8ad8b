/**
 * Creates a user from the command line, the only way to make the first admin (product rule 28):
 *   npm run user:create -- --username U --password P --email E [--admin] [--remote]
 */

import { parseArgs } from "node:util";
import { or, sql } from "drizzle-orm";
import { z } from "zod";
import { isEmailAddress } from "../src/domain/email.ts";
import { USERNAME_MAX, USERNAME_MIN, USERNAME_TOO_SHORT } from "../src/domain/user.ts";
import { users } from "../worker/db/schema/index.ts";
import { newPasswordProblem } from "../worker/features/accounts/password-policy.ts";
import { userRow } from "./demo-data.ts";
import { applyMigrations, d1Query } from "./lib/d1.ts";
import { inlinedSql, statements } from "./lib/drizzle-sql.ts";

const usage = "Usage: npm run user:create -- --username U --password P --email E [--admin] [--remote]";

const flagsSchema = z.object({
  username: z.string().trim().min(USERNAME_MIN, USERNAME_TOO_SHORT).max(USERNAME_MAX),
  password: z.string().refine((password) => newPasswordProblem(password) === null, {
    error: (issue) => newPasswordProblem(String(issue.input)) ?? "Invalid password",
  }),
  email: z.string().trim().refine(isEmailAddress, "Please enter a valid email address"),
});

/** The flags as given; an unknown flag, a missing value or a stray argument exits 2 with the usage. */
function readFlags() {
  try {
    return parseArgs({
      options: {
        username: { type: "string" },
        password: { type: "string" },
        email: { type: "string" },
        admin: { type: "boolean", default: false },
        remote: { type: "boolean", default: false },
      },
      strict: true,
    }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(2);
  }
}

const flags = readFlags();
const parsed = flagsSchema.safeParse(flags);
if (!parsed.success) {
  for (const issue of parsed.error.issues) console.error(`--${issue.path.join(".")}: ${issue.message}`);
  console.error(usage);
  process.exit(2);
}

const { remote, admin: isAdmin } = flags;
const { username, password, email } = parsed.data;

if (!remote) applyMigrations({});
// Statements of the app's drizzle schema; `wrangler d1 execute` takes no bound parameters, so drizzle inlines them.
const taken = d1Query<{ id: string }>(
  inlinedSql(
    statements
      .select({ id: users.id })
      .from(users)
      .where(or(sql`lower(${users.username}) = lower(${username})`, sql`lower(${users.email}) = lower(${email})`)),
  ),
  { remote },
);
if (taken.length > 0) {
  console.error("A user with that username or e-mail already exists.");
  process.exit(1);
}
d1Query(inlinedSql(statements.insert(users).values(await userRow({ username, password, email, isAdmin }))), { remote });
console.log(`Created ${isAdmin ? "admin" : "user"} '${username}' in the ${remote ? "remote" : "local"} database.`);
