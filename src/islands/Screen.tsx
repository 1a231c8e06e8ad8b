/**
 * The root of a dashboard or admin page's island (decision 0074): the page's TanStack Query client around
 * the shared providers and the `user` mirror (`PlainScreen`, which a screen without server data uses alone).
 */
import type { ReactNode } from "react";
import { PlainScreen, type ScreenProps } from "./PlainScreen";
import { QueryProvider } from "./QueryProvider";

export type { ScreenProps };

export function Screen({ user, children }: ScreenProps & { children: ReactNode }) {
  return (
    <QueryProvider>
      <PlainScreen user={user}>{children}</PlainScreen>
    </QueryProvider>
  );
}
