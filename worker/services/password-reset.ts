/**
 * Password recovery (docs/product-rules.md D10): a reset link (single use, one hour; decision 0028) is
 * e-mailed to a known address; the same answer goes out whether or not the address has an account.
 */
import { RESET_LINK_INVALID } from "../../src/domain/schemas/auth";
import { database } from "../db/client";
import type { Env } from "../env";
import { emails } from "./email-templates";
import { sendMail } from "./mail";
import { assertNewPasswordAllowed } from "./password-policy";
import { sessions } from "./sessions";
import { newLink, peekLink, redeemLink } from "./single-use-links";
import { findUserByEmail, setPassword } from "./users";

/** E-mails a reset link when `email` has an account; nothing otherwise. Never throws (the caller has answered). */
export async function requestPasswordReset(env: Env, email: string, origin: string): Promise<void> {
  try {
    const user = await findUserByEmail(env.DB, email);
    if (!user) return;
    const link = await newLink(database(env.DB), "password_reset", { userId: user.id });
    await link.insert;
    const name = user.firstName || user.username;
    await sendMail(env, user.email, emails.passwordReset(origin, { name, linkPath: link.path }));
  } catch (error) {
    console.error("Password reset e-mail failed", error);
  }
}

export async function isResetLinkValid(env: Env, token: string): Promise<boolean> {
  return (await peekLink(database(env.DB), "password_reset", token)) !== undefined;
}

/** Sets the new password through the link (once) and ends every session of the account. */
export async function resetPassword(env: Env, token: string, password: string): Promise<void> {
  assertNewPasswordAllowed(password); // before the link is touched
  await redeemLink(
    database(env.DB),
    { purpose: "password_reset", token, invalid: RESET_LINK_INVALID },
    async (link) => {
      if (!link.userId) throw new Error("A reset link without an account");
      await setPassword(env.DB, link.userId, password);
      await sessions(env.DB).invalidateUser(link.userId);
    },
  );
}
