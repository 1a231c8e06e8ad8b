import { useStore } from "@nanostores/react";
import type { ReadableAtom } from "nanostores";
import { createContext, useContext, useSyncExternalStore } from "react";

const noSubscription = () => () => undefined;

/**
 * False while the server renders and while React hydrates that HTML, true from then on (and at once for
 * anything first rendered in the browser). Controls that need JavaScript stay disabled until it is true
 * (decision 0009), and whatever only the browser knows (the URL's origin, localStorage) is read after it.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

const InIsland = createContext(false);

/** Marks a tree that React hydrates (every island root, src/islands/AppProviders.tsx). */
export const IslandRoot = InIsland.Provider;

/**
 * Whether a control must still wait: true in an island's server HTML until React has hydrated it, never in
 * the forms Astro renders without JavaScript (login, forgot and reset password), which work as plain HTML.
 */
export function useAwaitingHydration(): boolean {
  const inIsland = useContext(InIsland);
  const hydrated = useHydrated();
  return inIsland && !hydrated;
}

/**
 * A store kept in localStorage (src/lib/stores.ts), as a component may render it: undefined while the server
 * renders and while React hydrates (the server cannot know it, and the HTML must match), the stored value after.
 */
export function useStoredValue<T>(store: ReadableAtom<T>): T | undefined {
  const value = useStore(store);
  return useHydrated() ? value : undefined;
}
