/**
 * Browser-storage keys (product rule 46), as nanostores. None of them is trusted by the server. Setting a
 * store to `undefined` removes its key.
 */
import { persistentAtom } from "@nanostores/persistent";
import type { PaymentStart } from "../domain/schemas/payments";
import type { PublicUser } from "../domain/user";
import { LOGOUT_URL, USER_KEY } from "./session";

export { LOGOUT_URL };

function jsonKey<T>(key: string) {
  return persistentAtom<T | undefined>(key, undefined, {
    encode: JSON.stringify,
    decode: (text) => {
      try {
        return JSON.parse(text) as T;
      } catch {
        return undefined;
      }
    },
  });
}

/** `user`: mirrors the session for display only (product rule 28). */
export const $user = jsonKey<PublicUser | null>(USER_KEY);

/** `projectedTransfers`: a count suggested before a checkout opens (removed once a checkout has read it). */
export const $projectedTransfers = jsonKey<number | string>("projectedTransfers");

export interface HighVolumeData {
  volume?: number;
  pricePerCall?: number;
  total?: number;
  tier?: string;
}
/** `highVolumeData`: the high-volume checkout's preloaded package (removed once read). */
export const $highVolumeData = jsonKey<HighVolumeData>("highVolumeData");

/** The pending call-transfer order (product rule 46), so /transfer-checkout can resume its payment. */
export interface PendingTransferOrder {
  transferDetails: { totalTransfers: number; transfersPerDay: number; states: string[] };
  /** Dollars. */
  totalPrice: number;
  clientSecret: string;
  payment: PaymentStart;
}
export const $pendingTransferOrder = jsonKey<PendingTransferOrder>("pendingTransferOrder");

/** The kept order is settled (paid: the thank-you page says so): its copy goes, whatever page shows next. */
export function forgetSettledTransferOrder(orderId: string): void {
  if ($pendingTransferOrder.get()?.payment.orderId === orderId) $pendingTransferOrder.set(undefined);
}

/** On the way out, forget what this browser kept about the user. */
export function clearUserStores(): void {
  $user.set(undefined);
  $pendingTransferOrder.set(undefined);
}
