/**
 * Password recovery (product rule 32): a reset link (single use, one hour; decision 0028) is
 * e-mailed to a known address; the same answer goes out whether or not the address has an account.
 */
import { RESET_LINK_INVALID } from "../../../src/features/accounts/schemas/auth";
import type { Deps } from "../../deps";
import { emails } from "../../services/email-templates";
import { sendMail } from "../../services/mail";
import { sessions } from "../../services/sessions";
import { newLink, peekLink, redeemLink } from "../../services/single-use-links";
import { assertNewPasswordAllowed } from "./password-policy";
import { findUserByEmail, setPassword } from "./users";

/** E-mails a reset link when `email` has an account; nothing otherwise. Never throws (the caller has answered). */
export async function requestPasswordReset(deps: Deps, email: string, origin: string): Promise<void> {
  try {
    const user = await findUserByEmail(deps, email);
    if (!user) return;
    const link = await newLink(deps, "password_reset", { userId: user.id });
    await link.insert;
    const name = user.firstName || user.username;
    await sendMail(deps, user.email, emails.passwordReset(origin, { name, linkPath: link.path }));
  } catch (error) {
    console.error("Password reset e-mail failed", error);
  }
}

export async function isResetLinkValid(deps: Deps, token: string): Promise<boolean> {
  return (await peekLink(deps, "password_reset", token)) !== undefined;
}

/** Sets the new password through the link (once) and ends every session of the account. */
export async function resetPassword(deps: Deps, token: string, password: string): Promise<void> {
  assertNewPasswordAllowed(password); // before the link is touched
  await redeemLink(deps, { purpose: "password_reset", token, invalid: RESET_LINK_INVALID }, async (link) => {
    if (!link.userId) throw new Error("A reset link without an account");
    await setPassword(deps, link.userId, password);
    await sessions(deps).invalidateUser(link.userId);
  });
}
