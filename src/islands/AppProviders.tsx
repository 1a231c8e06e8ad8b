/**
 * What every island root needs: the mark that its tree hydrates (controls wait for it, decision 0009) and
 * the toaster (its code loads with the first toast).
 */
import type { ReactNode } from "react";
import { IslandRoot } from "../ui/hydrated";
import { Toaster } from "../ui/toast";

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <IslandRoot value={true}>
      {children}
      <Toaster />
    </IslandRoot>
  );
}
