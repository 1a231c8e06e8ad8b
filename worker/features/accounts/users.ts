/**
 * User management (product rules 28, 29): looking a user up to sign in or reset a password, the admins' list
 * and password changes. Reading a session's user is the kernel's (worker/services/users.ts).
 */
import { desc, eq, sql } from "drizzle-orm";
import type { PublicUser } from "../../../src/domain/user";
import { CURRENT_PASSWORD_REQUIRED, CURRENT_PASSWORD_WRONG } from "../../../src/features/accounts/password-rule";
import { users } from "../../db/schema";
import type { Deps } from "../../deps";
import { InvalidError, NotFoundError } from "../../errors";
import { findUserById, toPublicUser, type UserRecord } from "../../services/users";
import { assertNewPasswordAllowed } from "./password-policy";
import { hashPassword, verifyPassword } from "./passwords";

export async function findUserByUsername(deps: Deps, username: string): Promise<UserRecord | undefined> {
  return deps.db.select().from(users).where(sql`lower(${users.username}) = lower(${username})`).get();
}

export async function findUserByEmail(deps: Deps, email: string): Promise<UserRecord | undefined> {
  return deps.db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`).get();
}

export async function listUsers(deps: Deps): Promise<PublicUser[]> {
  const rows = await deps.db.select().from(users).orderBy(desc(users.createdAt));
  return rows.map(toPublicUser);
}

/** Sets a new password after checking the password rule (throws InvalidError when it breaks it). */
export async function setPassword(deps: Deps, userId: string, password: string): Promise<void> {
  assertNewPasswordAllowed(password);
  await deps.db
    .update(users)
    .set({ passwordHash: await hashPassword(password) })
    .where(eq(users.id, userId));
}

/** An admin changing their own password proves they know the current one (product rule 29). */
async function assertCurrentPassword(deps: Deps, userId: string, currentPassword: string | undefined) {
  if (!currentPassword) {
    throw new InvalidError(CURRENT_PASSWORD_REQUIRED, { errors: { currentPassword: CURRENT_PASSWORD_REQUIRED } });
  }
  const user = await findUserById(deps, userId);
  if (!user || !(await verifyPassword(currentPassword, user.passwordHash))) {
    throw new InvalidError(CURRENT_PASSWORD_WRONG, { errors: { currentPassword: CURRENT_PASSWORD_WRONG } });
  }
}

/** An admin sets a user's password; their own needs the current one (product rule 29). An unknown user is NotFound. */
export async function changeUserPassword(
  deps: Deps,
  adminId: string,
  userId: string,
  { newPassword, currentPassword }: { newPassword: string; currentPassword?: string | undefined },
): Promise<void> {
  if (!(await findUserById(deps, userId))) throw new NotFoundError("User not found");
  if (userId === adminId) await assertCurrentPassword(deps, userId, currentPassword);
  await setPassword(deps, userId, newPassword);
}
