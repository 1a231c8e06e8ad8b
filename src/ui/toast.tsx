/**
 * Toasts (product rule 50): any island may call `toast()`; the Toaster in AppProviders shows it. The store is
 * ./toast-store.ts, shared with the view this file loads with the first toast.
 */
import { useStore } from "@nanostores/react";
import { lazy, Suspense } from "react";
import { $toasts } from "./toast-store";

export { toast } from "./toast-store";

const ToastView = lazy(() => import("./toast-view"));

/** Renders nothing (and loads no toast code) until the first toast. */
export function Toaster() {
  const shown = useStore($toasts).length > 0;
  return shown ? (
    <Suspense>
      <ToastView />
    </Suspense>
  ) : null;
}
