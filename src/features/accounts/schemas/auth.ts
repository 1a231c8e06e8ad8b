/** Account forms (product rules 29, 32); the same schemas validate the API bodies. */

import { emailAddress, requiredString } from "../../../domain/schemas/common";
import { z } from "../../../domain/schemas/zod";
import { PASSWORD_MAX, PASSWORD_MIN, PASSWORD_TOO_LONG, PASSWORD_TOO_SHORT } from "../password-rule";

export const PASSWORDS_DONT_MATCH = "Passwords don't match";

/** A new password as every form and API takes it (length only; the server also refuses common ones). */
export const newPassword = z
  .string({ error: PASSWORD_TOO_SHORT })
  .min(PASSWORD_MIN, PASSWORD_TOO_SHORT)
  .max(PASSWORD_MAX, PASSWORD_TOO_LONG);

export const loginSchema = z.object({
  username: requiredString("Username is required", 1, 100),
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(200),
});

export const forgotPasswordSchema = z.object({ email: emailAddress("Please enter a valid email address") });

export const RESET_LINK_INVALID = "This password reset link is invalid or has expired";

const resetToken = requiredString("The password reset link is invalid or missing", 1, 200);

export const validateResetTokenSchema = z.object({ token: resetToken });

export const resetPasswordSchema = z.object({ token: resetToken, password: newPassword });

/** `currentPassword` is required when admins change their own password (checked by the server). */
export const changePasswordSchema = z.object({ newPassword, currentPassword: z.string().max(200).optional() });

/** New password + confirmation, as the reset and change-password forms ask for them. */
export const newPasswordFormSchema = z
  .object({
    password: newPassword,
    confirmPassword: z.string({ error: PASSWORDS_DONT_MATCH }),
    currentPassword: z.string().max(200).optional(),
  })
  .refine((v) => v.password === v.confirmPassword, { message: PASSWORDS_DONT_MATCH, path: ["confirmPassword"] });
export type NewPasswordForm = z.infer<typeof newPasswordFormSchema>;
