import type { AccountType } from "./transfers";

/** A user as the API shows it: never a password or hash (spec §3 "User"). */
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
