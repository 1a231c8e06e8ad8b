/**
 * What the signed-in screens need of the session in the browser, without the stores library: the logout
 * link and the `user` display mirror (product rules 28, 46). The server's answer, given to the islands as a prop,
 * is the truth; the mirror is a cache for display that the server never reads.
 */
import type { PublicUser } from "../domain/user";

/** The localStorage key of the `user` mirror (src/lib/stores.ts reads and clears it as `$user`). */
export const USER_KEY = "user";

/** Logout links go to the server, which ends the session and sends the browser to /login (which clears the stores). */
export const LOGOUT_URL = "/api/logout";

/** Writes the mirror from what the server said (JSON, as `$user` stores it). */
export function mirrorUser(user: PublicUser): void {
  try {
    localStorage.setItem(USER_KEY, JSON.stringify(user));
  } catch {
    // storage full or blocked: the mirror is only a display cache
  }
}
