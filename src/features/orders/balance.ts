/**
 * The buyer's balance (product rule 26): the ledger's reasons and what the API answers about it. Credited by
 * approved returns, spent at an aged-lead checkout; the ledger is the orders' (worker/features/orders/balance.ts).
 * Pure: shared by the Worker and the views.
 */

/** The balance ledger's reasons. */
export const BALANCE_REASONS = ["return_credit", "checkout_debit", "checkout_refund"] as const;
type BalanceReason = (typeof BALANCE_REASONS)[number];

interface BalanceEntry {
  id: string;
  amountCents: number;
  reason: BalanceReason;
  createdAt: number;
}

export interface BalanceView {
  balanceCents: number;
  entries: BalanceEntry[];
}

/** Aged-lead checkout: the part paid by the balance (0 when none); `paidWithBalance` when no card is needed. */
export interface BalanceApplied {
  balanceAppliedCents: number;
  paidWithBalance: boolean;
}
