/**
 * The user behind a session (docs/decisions/0077: the kernel's, as the session middleware and Astro's page
 * user read it): a `users` row, its public face and the lookup by id. Managing users is the accounts
 * feature's (worker/features/accounts/users.ts).
 */
import { eq, getTableColumns } from "drizzle-orm";
import type { PublicUser } from "../../src/domain/user";
import { users } from "../db/schema";
import type { Deps } from "../deps";

export type UserRecord = typeof users.$inferSelect;

/** The one user → PublicUser mapping (what the browser and the handlers see: never the password hash). */
export function toPublicUser(user: UserRecord): PublicUser {
  return {
    id: user.id,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phone: user.phone,
    agencyName: user.agencyName,
    role: user.role,
    isAdmin: user.isAdmin,
    accountType: user.accountType,
    createdAt: user.createdAt.toISOString(),
  };
}

/**
 * A `users` row as D1 hands it over raw (snake_case columns, 0/1 booleans, epoch-ms times), read through
 * the drizzle table's own column mappings: the sessions module's lucia adapter gets rows this way.
 */
export function userFromRow(row: Record<string, unknown>): UserRecord {
  const entries = Object.entries(getTableColumns(users)).map(([key, column]) => {
    const value = row[column.name];
    return [key, value === null || value === undefined ? value : column.mapFromDriverValue(value)];
  });
  return Object.fromEntries(entries) as UserRecord;
}

export async function findUserById(deps: Deps, id: string): Promise<UserRecord | undefined> {
  return deps.db.select().from(users).where(eq(users.id, id)).get();
}
