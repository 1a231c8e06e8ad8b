/** What every island root needs: the toaster (its code loads with the first toast). */
import type { ReactNode } from "react";
import { Toaster } from "../ui/toast";

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <Toaster />
    </>
  );
}
