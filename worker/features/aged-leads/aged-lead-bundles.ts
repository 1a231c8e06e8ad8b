/**
 * Aged-lead bundles at checkout (docs/decisions/0057-aged-lead-bundles.md): a survey or ringcloud order
 * for N aged leads of a band reserves N listed leads of that band (in the buyer's working states, when
 * the wizard asked) before its payment starts, all or none; what the stock cannot fill is refused.
 * At payment the order's leads are sold through the marketplace's sale (aged-lead-bundle-sale.ts).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { PaymentStart } from "../../../src/domain/schemas/payments";
import { US_STATE_CODES } from "../../../src/domain/us-states";
import { BUNDLE_NEEDS_ACCOUNT, bundleStockMessage } from "../../../src/features/aged-leads/aged-lead-bundles";
import type { AgeRange } from "../../../src/features/orders/index";
import { statesFromText } from "../../../src/features/transfers/index";
import { orders } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError, InvalidError } from "../../errors";
import type { NewOrder, PaymentProvider } from "../orders/index";
import { cancelPendingOrder, startPayment } from "../orders/index";
import { type BundleSpec, bundleOf, bundleStock, reserveBundleLeads } from "./aged-lead-bundle-sale";
import { releaseLeads } from "./leads";

const KNOWN_STATES = new Set<string>(US_STATE_CODES);

/** The buyer's working states as state codes ('TX, florida' → TX, FL); words that name no state are left out. */
function workingStateCodes(workingStates: unknown): string[] {
  if (typeof workingStates !== "string") return [];
  return [...new Set(statesFromText(workingStates).filter((state) => KNOWN_STATES.has(state)))];
}

/**
 * The bundle an order would buy: survey "Aged Leads" or ringcloud "partial_apps" with an age band;
 * null for every other order.
 */
export function bundleRequest(order: Pick<NewOrder, "kind" | "quote" | "details">): BundleSpec | null {
  const { details } = order;
  const aged =
    (order.kind === "survey" && details.leadType === "Aged Leads") ||
    (order.kind === "ringcloud" && (details.packageType ?? details.leadType) === "partial_apps");
  if (!aged) return null;
  return {
    band: (details.ageRange as AgeRange | undefined) ?? "30-60",
    quantity: order.quote.quantity,
    states: workingStateCodes(details.workingStates),
    unitCents: order.quote.unitCents,
  };
}

const REPLACED = "Replaced by a newer checkout of the same bundle";

/** The buyer's earlier unpaid bundle checkouts give their leads back before a new one reserves. */
async function cancelEarlierBundles(deps: Deps, userId: string, surveyId: unknown) {
  // Only the same survey's (a retried payment step); a buyer's other bundles keep theirs.
  const sameSurvey = await deps.db
    .select({ id: orders.id, paymentIntentId: orders.paymentIntentId, kind: orders.kind, details: orders.details })
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        inArray(orders.kind, ["survey", "ringcloud"]),
        eq(orders.status, "pending"),
        eq(sql`json_extract(${orders.details}, '$.surveyId')`, String(surveyId ?? "")),
      ),
    );
  for (const order of sameSurvey) {
    if (!bundleOf(order)) continue;
    await cancelPendingOrder(deps, order, REPLACED).catch((error) =>
      console.error(`Could not cancel the payment of order ${order.id}`, error),
    );
  }
}

/**
 * Starts a bundle's payment: reserves its N leads for the new order first (all or none), then the
 * payment for exactly those leads. Stock short → ConflictError "Only 37 leads of 90-180 days are available".
 */
export async function startBundlePayment(
  deps: Deps,
  provider: PaymentProvider,
  order: NewOrder,
  spec: BundleSpec,
): Promise<PaymentStart> {
  const { userId } = order;
  if (!userId) throw new InvalidError(BUNDLE_NEEDS_ACCOUNT);
  if (order.details.surveyId) await cancelEarlierBundles(deps, userId, order.details.surveyId);
  const orderId = crypto.randomUUID();
  const leadIds = await reserveBundleLeads(deps, { id: orderId, userId }, spec, spec.quantity, true);
  if (leadIds.length < spec.quantity) {
    const available = await bundleStock(deps, spec);
    throw new ConflictError(bundleStockMessage(Math.min(available, spec.quantity - 1), spec.band, spec.states));
  }
  // What each lead cost in this bundle (each entry's `priceCents`): an approved return credits it (product rule 25).
  const prices = leadIds.map((id) => ({ id, priceCents: spec.unitCents }));
  const details = { ...order.details, bundle: spec, leadIds, prices };
  try {
    return await startPayment(deps, provider, { ...order, id: orderId, details });
  } catch (error) {
    await releaseLeads(deps, orderId);
    throw error;
  }
}
