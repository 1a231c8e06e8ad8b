/**
 * The password rule (product rule 29), for every form, the API and `npm run user:create`: at least
 * PASSWORD_MIN characters. The server also refuses the 10,000 most common passwords
 * (worker/features/accounts/password-policy.ts); the browser checks the length only, so that list never ships
 * to it. No imports: Node scripts load this file as it is.
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;
export const PASSWORD_TOO_SHORT = `Password must be at least ${PASSWORD_MIN} characters`;
export const PASSWORD_TOO_LONG = `Password must be at most ${PASSWORD_MAX} characters`;
export const PASSWORD_HINT = `At least ${PASSWORD_MIN} characters`;
export const PASSWORD_TOO_COMMON = "This password is too common. Please choose another.";
export const CURRENT_PASSWORD_REQUIRED = "Enter your current password";
export const CURRENT_PASSWORD_WRONG = "Current password is incorrect";
