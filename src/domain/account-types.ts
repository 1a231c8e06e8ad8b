/** Who an account belongs to (`users.account_type`); admins are buyers with `is_admin` (a partner is never an admin). */
export const ACCOUNT_TYPES = ["buyer", "partner"] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
