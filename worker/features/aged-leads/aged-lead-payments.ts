/**
 * Aged leads as an order's product (docs/decisions/0077): a marketplace order sells the leads it reserved,
 * a survey or ringcloud bundle (decision 0057) reserves its leads before its payment and sells what it
 * still holds; a cancel frees them, a full refund marks them refunded. Registered with orders by
 * worker/order-products.ts.
 */
import { notChargedMessage, SUPPRESSED_LEAD_MESSAGE } from "../../../src/features/do-not-call/index";
import type { Deps } from "../../deps";
import { staleRegistryLeadRefusal, suppressedLeadIds } from "../do-not-call/index";
import type { Order, OrderProduct, PaymentSale } from "../orders/index";
import { recordNotCharged } from "../orders/index";
import { leadsPurchasedFacts } from "../webhook-outbox/index";
import { bundleLeadsAtPayment, refundBundleShortfall } from "./aged-lead-bundle-sale";
import { bundleRequest, startBundlePayment } from "./aged-lead-bundles";
import { leadSaleStatements, privateListLeadIds, refundLeadsStatement, releaseLeadsStatement } from "./leads";

/** The leads an order buys: a marketplace order's reserved ones, a bundle's (re-reserved at payment), else null. */
async function leadsOf(deps: Deps, order: Order): Promise<string[] | null> {
  if (order.kind === "aged-leads") return (order.details.leadIds as string[] | undefined) ?? [];
  return bundleLeadsAtPayment(deps, order);
}

/**
 * Why the sale was refused: a lead whose number reached a Do Not Call list after it was reserved is never
 * sold (product rule 40); every lead on the buyer's private list means nothing sold and nothing charged
 * (decision 0049); else null (the leads went to another buyer).
 */
async function leadRefusal(deps: Deps, order: Order, leadIds: readonly string[]): Promise<string | null> {
  if ((await suppressedLeadIds(deps, leadIds)).size > 0) return `${SUPPRESSED_LEAD_MESSAGE} Refunded.`;
  const stale = await staleRegistryLeadRefusal(deps, leadIds);
  if (stale) return stale;
  const privateIds = await privateListLeadIds(deps, order.userId, leadIds);
  if (leadIds.length === 0 || privateIds.length !== leadIds.length) return null;
  await recordNotCharged(deps, order.id, privateIds);
  return notChargedMessage(privateIds.length);
}

export const agedLeadPayments: OrderProduct = {
  name: "aged-leads",
  startPayment: (deps, provider, order) => {
    // Aged leads of a band are reserved before the payment starts, and sold when it succeeds (decision 0057).
    const bundle = bundleRequest(order);
    return bundle ? startBundlePayment(deps, provider, order, bundle) : null;
  },
  saleAtPayment: async (deps, order): Promise<PaymentSale | null> => {
    const leadIds = await leadsOf(deps, order);
    if (!leadIds) return null;
    return {
      ...leadSaleStatements(deps, { id: order.id, userId: order.userId, leadIds }),
      facts: leadsPurchasedFacts({ id: order.id, userId: order.userId, leadIds }, deps.now),
      refusal: () => leadRefusal(deps, order, leadIds),
    };
  },
  // A bundle whose reservation ran out gives back what it could not deliver (decision 0057).
  settlePaid: (deps, order) => refundBundleShortfall(deps, order),
  releaseStatements: (deps, orderId) => [releaseLeadsStatement(deps, orderId)],
  refundStatements: (deps, order) => [refundLeadsStatement(deps, order)],
};
