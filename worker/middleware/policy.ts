/**
 * Who may do what (product rule 28), in one place for pages and APIs alike: the page guards
 * (`page-guards.ts`) and the API guards (`auth.ts`) both ask `mayAct`, and the API answers with the
 * audience's refusal. A buyer's screens admit admins too; partners only their own.
 */
import type { PublicUser } from "../../src/domain/user";

/** Whom a page or a route is for. */
export type Audience = "buyer" | "admin" | "partner";

/** Whether a signed-in user belongs to the audience. */
export const mayAct: Record<Audience, (user: PublicUser) => boolean> = {
  buyer: (user) => user.accountType !== "partner",
  admin: (user) => user.isAdmin,
  partner: (user) => user.accountType === "partner",
};

/** What an API answers an anonymous caller. */
export const SIGN_IN_FIRST = "Please log in to continue.";

/** What an API answers a signed-in user outside the audience. */
export const REFUSAL: Record<Audience, string> = {
  buyer: "Partner accounts cannot do that.",
  admin: "You do not have permission to do that.",
  partner: "Only partner accounts can do that.",
};
