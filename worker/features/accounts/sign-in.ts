/** Password sign-in (product rules 30, 31): throttled per address and username, same answer for every failure. */
import type { PublicUser } from "../../../src/domain/user";
import type { Deps } from "../../deps";
import { UnauthenticatedError } from "../../errors";
import { toPublicUser } from "../../services/users";
import { admitLoginAttempt, type LoginAttempt, recordLoginSuccess } from "./login-throttle";
import { hashPassword, verifyPassword } from "./passwords";
import { findUserByUsername } from "./users";

/** Verified against when the username is unknown, so both failures take the same time. */
let decoyHash: Promise<string> | undefined;

/** The user whose username and password these are; Unauthenticated ("Invalid credentials") otherwise. */
export async function checkCredentials(deps: Deps, attempt: LoginAttempt, password: string): Promise<PublicUser> {
  await admitLoginAttempt(deps, attempt);
  const user = await findUserByUsername(deps, attempt.username);
  decoyHash ??= hashPassword(crypto.randomUUID());
  const passwordMatches = await verifyPassword(password, user?.passwordHash ?? (await decoyHash));
  if (!user || !passwordMatches) throw new UnauthenticatedError("Invalid credentials");
  await recordLoginSuccess(deps, attempt);
  return toPublicUser(user);
}
