/**
 * Aged-lead bundles (docs/decisions/0057-aged-lead-bundles.md): the surveys' "N aged leads of a band"
 * orders, filled from the marketplace's own stock at payment. Shared by the Worker and the wizards.
 */
import type { AgeRange } from "../orders/index";

/** The band as the buyer picked it: "90-180 days". */
const bandLabel = (band: AgeRange) => `${band} days`;

/**
 * The checkout's refusal when the stock cannot fill the bundle: "Only 37 leads of 90-180 days are
 * available" (and "in TX, OK" when the wizard asked for working states).
 */
export function bundleStockMessage(available: number, band: AgeRange, states: readonly string[] = []): string {
  const leads = available === 1 ? "lead" : "leads";
  const verb = available === 1 ? "is" : "are";
  const where = states.length > 0 ? ` in ${states.join(", ")}` : "";
  return `Only ${available} ${leads} of ${bandLabel(band)} ${verb} available${where}`;
}

/** A bundle is delivered to My Leads, so it needs the buyer's account (the survey's, or the signed-in one). */
export const BUNDLE_NEEDS_ACCOUNT = "Aged leads are delivered to My Leads: log in or complete the survey to buy them.";

/** Why part of a paid bundle went back to the card (its reservation ran out and leads were lost meanwhile). */
export const bundleShortfallNote = (undelivered: number, refunded: string) =>
  `${undelivered} ${undelivered === 1 ? "lead" : "leads"} could not be delivered; ${refunded} refunded`;
