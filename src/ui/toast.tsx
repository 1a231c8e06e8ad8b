/**
 * Toasts (spec §9): one visible at a time, 5,000 ms by default; a dismissed toast leaves the store after
 * 1,000,000 ms. Any island may call `toast()`; the Toaster in AppProviders shows it.
 */
import { useStore } from "@nanostores/react";
import * as RadixToast from "@radix-ui/react-toast";
import { atom } from "nanostores";

export const TOAST_DURATION_MS = 5000;
const TOAST_REMOVE_DELAY_MS = 1_000_000;

export interface ToastInput {
  title: string;
  description?: string;
  variant?: "default" | "success" | "destructive";
}

interface ToastState extends ToastInput {
  id: number;
  open: boolean;
}

const $toasts = atom<ToastState[]>([]);
let nextId = 1;

export function toast(input: ToastInput): void {
  // TOAST_LIMIT = 1: a new toast replaces whatever is showing.
  $toasts.set([{ ...input, id: nextId++, open: true }]);
}

function dismiss(id: number): void {
  $toasts.set($toasts.get().map((t) => (t.id === id ? { ...t, open: false } : t)));
  setTimeout(() => $toasts.set($toasts.get().filter((t) => t.id !== id)), TOAST_REMOVE_DELAY_MS);
}

const variantClass: Record<NonNullable<ToastInput["variant"]>, string> = {
  default: "border-line bg-white text-ink",
  success: "border-brand-100 bg-brand-50 text-ink",
  destructive: "border-red-200 bg-red-50 text-red-900",
};

export function Toaster() {
  const toasts = useStore($toasts);
  return (
    <RadixToast.Provider duration={TOAST_DURATION_MS} swipeDirection="right">
      {toasts.map((t) => (
        <RadixToast.Root
          key={t.id}
          open={t.open}
          onOpenChange={(open) => !open && dismiss(t.id)}
          type={t.variant === "destructive" ? "foreground" : "background"}
          className={`flex items-start gap-3 rounded-xl border p-4 shadow-lg ${variantClass[t.variant ?? "default"]}`}
          data-variant={t.variant ?? "default"}
        >
          <div className="flex-1">
            <RadixToast.Title className="font-semibold">{t.title}</RadixToast.Title>
            {t.description && (
              <RadixToast.Description className="mt-1 text-sm opacity-90">{t.description}</RadixToast.Description>
            )}
          </div>
          <RadixToast.Close aria-label="Dismiss" className="rounded p-1 text-current opacity-60 hover:opacity-100">
            ×
          </RadixToast.Close>
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport className="fixed right-0 bottom-0 z-[100] flex w-full max-w-sm flex-col gap-2 p-4 outline-none" />
    </RadixToast.Provider>
  );
}
