/**
 * Buying aged leads (PRODUCT.md D6): reserve, then a card payment for exactly those leads. One buyer
 * holds one open reservation: a new purchase replaces the previous unpaid one and cancels its payment.
 */
import type { PaymentStart } from "../../src/domain/schemas/payments";
import type { PublicUser } from "../../src/domain/user";
import type { Env } from "../env";
import { ConflictError } from "../errors";
import { liveReservationSize, releaseLeads, reserveLeads } from "./leads";
import { cancelPendingOrder, paymentIntentOf, pendingLeadOrders, startPayment } from "./orders";
import type { PaymentProvider } from "./payments/provider";

const REPLACED = "Replaced by a newer purchase";

export async function purchaseAgedLeads(
  env: Env,
  provider: PaymentProvider,
  user: PublicUser,
  leadIds: readonly string[],
): Promise<PaymentStart & { count: number }> {
  const orderId = crypto.randomUUID();
  const prices = await reserveLeads(env.DB, { orderId, userId: user.id, leadIds });
  const totalCents = prices.reduce((sum, lead) => sum + lead.priceCents, 0);
  let payment: PaymentStart;
  try {
    payment = await startPayment(env, provider, {
      id: orderId,
      kind: "aged-leads",
      tier: null,
      quote: { ok: true, quantity: prices.length, unitCents: Math.round(totalCents / prices.length), totalCents },
      userId: user.id,
      email: user.email,
      details: { leadIds: prices.map((lead) => lead.id), prices },
    });
  } catch (error) {
    await releaseLeads(env.DB, orderId);
    throw error;
  }
  // The reservation released the buyer's previous leads; their orders can no longer be paid.
  for (const previous of await pendingLeadOrders(env.DB, { userId: user.id, except: orderId })) {
    if ((await liveReservationSize(env.DB, previous.id)) > 0) continue; // a purchase that raced this one and won
    await cancelPendingOrder(env, previous, REPLACED).catch((error) =>
      console.error(`Could not cancel the payment of order ${previous.id}`, error),
    );
  }
  // Two purchases at once: the later reservation wins, and the other is refused rather than left unpayable.
  if ((await liveReservationSize(env.DB, orderId)) < prices.length) {
    await cancelPendingOrder(env, { id: orderId, paymentIntentId: await paymentIntentOf(env.DB, orderId) }, REPLACED);
    throw new ConflictError("Another purchase of yours replaced this one. Please check your selection and try again.");
  }
  return { ...payment, count: prices.length };
}
