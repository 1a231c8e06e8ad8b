/** Buyers and admins straight into D1, with a password the test can sign in with (decision 0067). */
import { users } from "../../../worker/db/schema";
import { hashPassword } from "../../../worker/features/accounts/passwords";
import { type Database, nextNumber } from "./db";

const DEFAULT_PASSWORD = "secret-password-1";

/** Any column of `users`, and the plain password to store the hash of. */
export type UserOverrides = Partial<typeof users.$inferInsert> & { password?: string };

export type TestUser = typeof users.$inferSelect & { password: string };

/** PBKDF2 is slow on purpose: a file hashes each password once and reuses the hash. */
const hashes = new Map<string, Promise<string>>();
const hashOf = (password: string) => {
  const known = hashes.get(password) ?? hashPassword(password);
  hashes.set(password, known);
  return known;
};

/** A buyer account (`buyer7`, `buyer7@example.com`, "Test User"); answers the row and its password. */
export async function createBuyer(db: Database, overrides: UserOverrides = {}): Promise<TestUser> {
  const { password = DEFAULT_PASSWORD, ...columns } = overrides;
  const n = nextNumber();
  const [row] = await db
    .insert(users)
    .values({
      id: crypto.randomUUID(),
      username: `buyer${n}`,
      email: `buyer${n}@example.com`,
      passwordHash: await hashOf(password),
      firstName: "Test",
      lastName: "User",
      ...columns,
    })
    .returning();
  if (!row) throw new Error("the user was not inserted");
  return { ...row, password };
}

/** An admin account: a buyer with `isAdmin` (an admin's account type is 'buyer' too). */
export async function createAdmin(db: Database, overrides: UserOverrides = {}): Promise<TestUser> {
  const n = nextNumber();
  return createBuyer(db, { username: `admin${n}`, email: `admin${n}@example.com`, isAdmin: true, ...overrides });
}
