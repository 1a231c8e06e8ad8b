/**
 * Toasts (product rule 50): one visible at a time, 5,000 ms by default; a dismissed toast leaves the store after
 * 1,000,000 ms. Any island may call `toast()` (./toast.tsx); the Toaster in AppProviders shows the store's
 * toasts through ./toast-view.tsx, which it loads with the first one.
 */
import { atom } from "nanostores";
import type { NoticeVariant } from "./styles";

export const TOAST_DURATION_MS = 5000;
const TOAST_REMOVE_DELAY_MS = 1_000_000;

export interface ToastInput {
  title: string;
  description?: string;
  variant?: NoticeVariant;
}

interface ToastState extends ToastInput {
  id: number;
  open: boolean;
}

export const $toasts = atom<ToastState[]>([]);
let nextId = 1;

export function toast(input: ToastInput): void {
  // TOAST_LIMIT = 1: a new toast replaces whatever is showing.
  $toasts.set([{ ...input, id: nextId++, open: true }]);
}

export function dismiss(id: number): void {
  $toasts.set($toasts.get().map((t) => (t.id === id ? { ...t, open: false } : t)));
  setTimeout(() => $toasts.set($toasts.get().filter((t) => t.id !== id)), TOAST_REMOVE_DELAY_MS);
}
