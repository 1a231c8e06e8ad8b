/**
 * The server's half of the password rule (product rule 29): the length of src/features/accounts/password-rule.ts
 * plus the bundled list of the 10,000 most common passwords. Imports carry their `.ts` extension so that
 * `npm run user:create` (plain Node) applies the very same rule.
 */
import {
  PASSWORD_MAX,
  PASSWORD_MIN,
  PASSWORD_TOO_COMMON,
  PASSWORD_TOO_LONG,
  PASSWORD_TOO_SHORT,
} from "../../../src/features/accounts/password-rule.ts";
import { InvalidError } from "../../errors.ts";
import { COMMON_PASSWORDS_TEXT } from "./common-passwords-list.ts";

let commonPasswords: Set<string> | undefined;

/** True for one of the 10,000 most common passwords, in any letter case. */
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(COMMON_PASSWORDS_TEXT.split("\n"));
  return commonPasswords.has(password.toLowerCase());
}

/** The message for a password that breaks the rule, or null when it may be used. */
export function newPasswordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN) return PASSWORD_TOO_SHORT;
  if (password.length > PASSWORD_MAX) return PASSWORD_TOO_LONG;
  if (isCommonPassword(password)) return PASSWORD_TOO_COMMON;
  return null;
}

/** Throws InvalidError (naming the form field) unless the password may be set on an account. */
export function assertNewPasswordAllowed(password: string, field = "password"): void {
  const problem = newPasswordProblem(password);
  if (problem) throw new InvalidError(problem, { errors: { [field]: problem } });
}
