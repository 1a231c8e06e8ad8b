/** Password sign-in (PRODUCT.md D4, D11): throttled per address and username, same answer for every failure. */
import type { PublicUser } from "../../src/domain/user";
import { UnauthenticatedError } from "../errors";
import { admitLoginAttempt, type LoginAttempt, recordLoginSuccess } from "./login-throttle";
import { hashPassword, verifyPassword } from "./passwords";
import { findUserByUsername, toPublicUser } from "./users";

/** Verified against when the username is unknown, so both failures take the same time. */
let decoyHash: Promise<string> | undefined;

/** The user whose username and password these are; Unauthenticated ("Invalid credentials") otherwise. */
export async function checkCredentials(d1: D1Database, attempt: LoginAttempt, password: string): Promise<PublicUser> {
  await admitLoginAttempt(d1, attempt);
  const user = await findUserByUsername(d1, attempt.username);
  decoyHash ??= hashPassword(crypto.randomUUID());
  const passwordMatches = await verifyPassword(password, user?.passwordHash ?? (await decoyHash));
  if (!user || !passwordMatches) throw new UnauthenticatedError("Invalid credentials");
  await recordLoginSuccess(d1, attempt);
  return toPublicUser(user);
}
