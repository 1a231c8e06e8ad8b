/**
 * The root of a dashboard or admin page's island without server data (decision 0074): the shared providers,
 * and the `user` mirror in localStorage written from the server's answer (a display cache, product rule 28).
 */
import { type ReactNode, useEffect } from "react";
import type { PublicUser } from "../domain/user";
import { mirrorUser } from "../lib/session";
import { AppProviders } from "./AppProviders";

export interface ScreenProps {
  /** Who is signed in, as the server read it from the session. */
  user: PublicUser;
}

export function PlainScreen({ user, children }: ScreenProps & { children: ReactNode }) {
  useEffect(() => mirrorUser(user), [user]);
  return <AppProviders>{children}</AppProviders>;
}
