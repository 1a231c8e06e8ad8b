/** Browser-storage keys of spec §3, as nanostores. None of them is trusted by the server. */
import { persistentJSON } from "@nanostores/persistent";
import type { PublicUser } from "../domain/user";

/** `user`: mirrors the session for display only (D5). */
export const $user = persistentJSON<PublicUser | null>("user", null);

/** Logout: forget the local mirror, then let the server end the session and send us to /login. */
export function logout(): void {
  $user.set(null);
  window.location.assign("/api/logout");
}

/** Only same-site paths are followed after login, never another host. */
export function safeNextPath(next: string | null): string | null {
  return next?.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : null;
}
