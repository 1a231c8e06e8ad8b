/** Account forms (spec §5 "Login", "Passwords and recovery"); the same schemas validate the API bodies. */

import { emailAddress, requiredString } from "./common";
import { z } from "./zod";

export const PASSWORD_MIN = 8;
const passwordTooShort = `Password must be at least ${PASSWORD_MIN} characters`;
export const PASSWORDS_DONT_MATCH = "Passwords don't match";

export const loginSchema = z.object({
  username: requiredString("Username is required", 1, 100),
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(200),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const forgotPasswordSchema = z.object({ email: emailAddress("Please enter a valid email address") });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

const newPassword = z.string({ error: passwordTooShort }).min(PASSWORD_MIN, passwordTooShort).max(200);
const resetToken = requiredString("The password reset link is invalid or missing", 1, 200);

export const validateResetTokenSchema = z.object({ token: resetToken });

export const resetPasswordSchema = z.object({ token: resetToken, password: newPassword });

export const changePasswordSchema = z.object({ newPassword });

/** New password + confirmation, as the reset and change-password forms ask for them. */
export const newPasswordFormSchema = z
  .object({ password: newPassword, confirmPassword: z.string({ error: PASSWORDS_DONT_MATCH }) })
  .refine((v) => v.password === v.confirmPassword, { message: PASSWORDS_DONT_MATCH, path: ["confirmPassword"] });
export type NewPasswordForm = z.infer<typeof newPasswordFormSchema>;
