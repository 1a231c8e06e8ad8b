/**
 * Buying aged leads (product rule 14): reserve, then a card payment for exactly those leads. One buyer
 * holds one open reservation: a new purchase replaces the previous unpaid one and cancels its payment.
 */

import type { PaymentStart } from "../../../src/domain/schemas/payments";
import type { PublicUser } from "../../../src/domain/user";
import type { BalanceApplied } from "../../../src/features/orders/index";
import type { Deps } from "../../deps";
import { ConflictError } from "../../errors";
import type { PaymentProvider } from "../orders/index";
import {
  applyBalance,
  BALANCE_INTENT_PREFIX,
  cancelPendingOrder,
  paymentIntentOf,
  pendingLeadOrders,
  processPaymentEvent,
  refundBalance,
  startPayment,
} from "../orders/index";
import { liveReservationSize, releaseLeads, reserveLeads } from "./leads";

const REPLACED = "Replaced by a newer purchase";

export async function purchaseAgedLeads(
  deps: Deps,
  provider: PaymentProvider,
  user: PublicUser,
  leadIds: readonly string[],
): Promise<PaymentStart & BalanceApplied & { count: number }> {
  const orderId = crypto.randomUUID();
  const prices = await reserveLeads(deps, { orderId, userId: user.id, leadIds });
  const totalCents = prices.reduce((sum, lead) => sum + lead.priceCents, 0);
  // The reservation released the buyer's previous leads; their orders can no longer be paid (and the
  // balance they held comes back before this order takes it).
  for (const previous of await pendingLeadOrders(deps, { userId: user.id, except: orderId })) {
    if ((await liveReservationSize(deps, previous.id)) > 0) continue; // a purchase that raced this one and won
    await cancelPendingOrder(deps, previous, REPLACED).catch((error) =>
      console.error(`Could not cancel the payment of order ${previous.id}`, error),
    );
  }
  let balanceAppliedCents = 0;
  let payment: PaymentStart;
  try {
    // The buyer's balance pays first; the card pays the rest.
    balanceAppliedCents = await applyBalance(deps, user.id, orderId, totalCents);
    payment = await startPayment(deps, provider, {
      id: orderId,
      kind: "aged-leads",
      tier: null,
      quote: { ok: true, quantity: prices.length, unitCents: Math.round(totalCents / prices.length), totalCents },
      userId: user.id,
      email: user.email,
      details: { leadIds: prices.map((lead) => lead.id), prices },
      balanceAppliedCents,
    });
  } catch (error) {
    await releaseLeads(deps, orderId);
    await refundBalance(deps, orderId);
    throw error;
  }
  // Two purchases at once: the later reservation wins, and the other is refused rather than left unpayable.
  if ((await liveReservationSize(deps, orderId)) < prices.length) {
    await cancelPendingOrder(deps, { id: orderId, paymentIntentId: await paymentIntentOf(deps, orderId) }, REPLACED);
    throw new ConflictError("Another purchase of yours replaced this one. Please check your selection and try again.");
  }
  const paidWithBalance = balanceAppliedCents > 0 && payment.amountCents === 0;
  if (paidWithBalance) {
    // Nothing left for a card: confirmed at once, through the path a provider's event takes.
    await processPaymentEvent(
      deps,
      {
        id: `${BALANCE_INTENT_PREFIX}${orderId}`,
        type: "payment_intent.succeeded",
        paymentIntentId: `${BALANCE_INTENT_PREFIX}${orderId}`,
        amountCents: 0,
        currency: payment.currency,
      },
      deps.env.PUBLIC_SITE_URL ?? "",
    );
  }
  return { ...payment, count: prices.length, balanceAppliedCents, paidWithBalance };
}
