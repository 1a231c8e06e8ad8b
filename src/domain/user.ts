import type { AccountType } from "./account-types";

/** A username's length (product rule 42), for the survey, the delivery setup and `npm run user:create`. */
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 50;
export const USERNAME_TOO_SHORT = `Username must be at least ${USERNAME_MIN} characters`;

/** A user as the API shows it: never a password or hash (product rule 29). */
export interface PublicUser {
  id: string;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  agencyName: string;
  role: string;
  isAdmin: boolean;
  /** A buyer (the shop's customers; admins are buyers with isAdmin) or a partner (a call center). */
  accountType: AccountType;
  createdAt: string;
}

export const displayName = (user: Pick<PublicUser, "firstName" | "lastName" | "username">) =>
  `${user.firstName} ${user.lastName}`.trim() || user.username;

/** Where a user lands after signing in: admins on /admin, partners on /partner, buyers on /dashboard. */
export function homePath(user: Pick<PublicUser, "isAdmin" | "accountType">): "/admin" | "/partner" | "/dashboard" {
  if (user.isAdmin) return "/admin";
  return user.accountType === "partner" ? "/partner" : "/dashboard";
}
