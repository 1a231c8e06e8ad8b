/**
 * The pending call-transfer order this browser kept (`pendingTransferOrder`, product rule 46), checked against the
 * server: the order's status there is the truth. An order that is paid, cancelled or
 * unknown is no longer pending: its leftover copy is removed, and the buyer gets a new order form instead
 * of a payment card for something already settled.
 */

import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { ApiError } from "../../../lib/api";
import { $pendingTransferOrder, type PendingTransferOrder } from "../../../lib/stores";
import { useStoredValue } from "../../../ui/hydrated";
import { orderStatusQuery } from "../../orders/views/index";

export interface CheckedPendingOrder {
  /** The kept order, once the server has said it still waits for payment. */
  pending: PendingTransferOrder | undefined;
  /** A kept order is being checked (or the page is still hydrating). */
  checking: boolean;
}

export function usePendingTransferOrder(): CheckedPendingOrder {
  const kept = useStoredValue($pendingTransferOrder);
  const params = new URLSearchParams(
    kept ? { order: kept.payment.orderId, payment_intent_client_secret: kept.clientSecret } : {},
  );
  const status = useQuery(orderStatusQuery(params));
  // Unknown to the server (404) or past pending: settled. A failed check (network) keeps the order as it was.
  const unknown = status.error instanceof ApiError && status.error.status === 404;
  const settled = kept !== undefined && (unknown || (status.data !== undefined && status.data.status !== "pending"));
  useEffect(() => {
    if (settled) $pendingTransferOrder.set(undefined);
  }, [settled]);
  if (!kept) return { pending: undefined, checking: false };
  if (settled) return { pending: undefined, checking: false };
  return status.data?.status === "pending" || status.isError
    ? { pending: kept, checking: false }
    : { pending: undefined, checking: true };
}
