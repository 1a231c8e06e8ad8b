/**
 * Aged-lead bundles at payment (docs/decisions/0057-aged-lead-bundles.md): the survey or ringcloud order's
 * reserved leads are handed to the marketplace's own sale (leads.ts `leadSaleStatements`, in the payment
 * event's batch), so suppression, consent and "a lead is sold once" (product rule 14) hold as for any sale.
 * Also the one reservation statement the checkout uses: N listed leads of a band, all or none.
 */
import { and, count, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { formatUsd } from "../../../src/domain/format";
import { RESERVATION_MINUTES } from "../../../src/domain/schemas/dashboard";
import { bundleShortfallNote } from "../../../src/features/aged-leads/aged-lead-bundles";
import { type AgeRange, ageBandSpanMs } from "../../../src/features/orders/index";
import { agedLeads, orders } from "../../db/schema";
import type { Deps } from "../../deps";
import { leadNotCoveredSql } from "../do-not-call/index";
import { providerOfIntent } from "../orders/index";
import { FOR_SALE, sellableTo } from "./leads";

/** What a bundle order bought, kept in its details. */
export interface BundleSpec {
  band: AgeRange;
  quantity: number;
  /** The buyer's working states (state codes); empty when the wizard did not ask. */
  states: string[];
  unitCents: number;
}

interface BundleOrder {
  id: string;
  userId: string | null;
  kind: string;
  details: Record<string, unknown>;
}

/** The bundle an order carries, or null for every other order. */
export function bundleOf(order: Pick<BundleOrder, "kind" | "details">): BundleSpec | null {
  if (order.kind !== "survey" && order.kind !== "ringcloud") return null;
  const bundle = order.details.bundle as BundleSpec | undefined;
  return bundle && typeof bundle.quantity === "number" ? bundle : null;
}

/** Product rule 5's band, read at `now`: by form-fill age, else the uploaded band, else 30-60. */
function inBand(band: AgeRange, now: number): SQL {
  const { aboveMs, atMostMs } = ageBandSpanMs(band);
  const age = sql`abs(${now} - ${agedLeads.formFillTime})`;
  const byAge = [
    sql`${agedLeads.formFillTime} IS NOT NULL`,
    aboveMs === null ? undefined : sql`${age} > ${aboveMs}`,
    atMostMs === null ? undefined : sql`${age} <= ${atMostMs}`,
  ];
  return sql`((${and(...byAge)}) OR (${agedLeads.formFillTime} IS NULL AND coalesce(${agedLeads.ageRange}, '30-60') = ${band}))`;
}

/**
 * Leads a bundle could take now: for sale, in the band and states, not held by anyone. The same for every
 * buyer: a private Do Not Call list applies only at payment (decision 0049).
 */
function obtainable(spec: Pick<BundleSpec, "band" | "states">, now: number) {
  return and(
    FOR_SALE,
    sql`(${agedLeads.reservedUntil} IS NULL OR ${agedLeads.reservedUntil} < ${now})`,
    inBand(spec.band, now),
    spec.states.length > 0 ? inArray(agedLeads.state, spec.states) : undefined,
    // Not a lead a stale registry copy covers (docs/decisions/0085).
    leadNotCoveredSql(now),
  );
}

/** How many leads a bundle of this band (and states) could have right now. */
export async function bundleStock(deps: Deps, spec: Pick<BundleSpec, "band" | "states">) {
  const [row] = await deps.db.select({ count: count() }).from(agedLeads).where(obtainable(spec, deps.now));
  return row?.count ?? 0;
}

/**
 * Reserves `quantity` leads of the band for the order in one statement (one statement is atomic in D1:
 * racing checkouts never share a lead). `allOrNone`: none unless all `quantity` can be had. The newest
 * leads of the band go first, as the marketplace lists them (product rule 12). Answers the reserved ids.
 */
export async function reserveBundleLeads(
  deps: Deps,
  order: { id: string; userId: string },
  spec: Pick<BundleSpec, "band" | "states">,
  quantity: number,
  allOrNone: boolean,
): Promise<string[]> {
  const { db, now } = deps;
  const candidates = db
    .select({ id: agedLeads.id })
    .from(agedLeads)
    .where(obtainable(spec, now))
    .orderBy(desc(agedLeads.createdAt), desc(agedLeads.id))
    .limit(quantity);
  const rows = await db
    .update(agedLeads)
    // No `reservedByUserId`: that marks the buyer's one marketplace reservation, which a bundle is not.
    .set({ reservedByOrderId: order.id, reservedUntil: new Date(now + RESERVATION_MINUTES * 60_000) })
    .where(
      and(
        inArray(agedLeads.id, candidates),
        allOrNone ? sql`(SELECT count(*) FROM (${candidates})) = ${quantity}` : undefined,
      ),
    )
    .returning({ id: agedLeads.id });
  return rows.map((row) => row.id);
}

/**
 * Just before the payment's sale batch: the leads this paid bundle order can still have. Its reserved
 * leads it still holds (or that are still free after its reservation ran out) are kept; each lost one is
 * replaced from the band's stock when possible. The order's details then name exactly those leads and how
 * many could not be delivered. Null for an order that is not a bundle. When nothing at all can be
 * delivered, the reserved ids come back unchanged: the sale then fails and the existing path refunds it all.
 */
export async function bundleLeadsAtPayment(deps: Deps, order: BundleOrder): Promise<string[] | null> {
  const spec = bundleOf(order);
  if (!spec || !order.userId) return null;
  const { db, now } = deps;
  const reserved = (order.details.leadIds as string[] | undefined) ?? [];
  const kept = await db
    .update(agedLeads)
    .set({ reservedByOrderId: order.id, reservedUntil: new Date(now + RESERVATION_MINUTES * 60_000) })
    .where(
      and(
        sql`${agedLeads.id} IN (SELECT value FROM json_each(${JSON.stringify(reserved)}))`,
        sellableTo(order, now),
        leadNotCoveredSql(now),
      ),
    )
    .returning({ id: agedLeads.id });
  const leadIds = kept.map((row) => row.id);
  if (leadIds.length < spec.quantity) {
    const buyer = { id: order.id, userId: order.userId };
    leadIds.push(...(await reserveBundleLeads(deps, buyer, spec, spec.quantity - leadIds.length, false)));
  }
  if (leadIds.length === 0) return reserved;
  const unchanged = leadIds.length === reserved.length && leadIds.every((id) => reserved.includes(id));
  if (!unchanged) {
    const prices = leadIds.map((id) => ({ id, priceCents: spec.unitCents }));
    const details = { ...order.details, leadIds, prices, undeliveredCount: spec.quantity - leadIds.length };
    await db.update(orders).set({ details }).where(eq(orders.id, order.id));
  }
  return leadIds;
}

/**
 * After the bundle's sale: what could not be delivered goes back to the card at once, through the
 * provider's refund (the same call a full refund makes); the order says so. A failed refund is left on
 * the order as due, for an admin.
 */
export async function refundBundleShortfall(
  deps: Deps,
  order: BundleOrder & { paymentIntentId: string; unitPriceCents: number },
) {
  const undelivered = Number(order.details.undeliveredCount ?? 0);
  if (!bundleOf(order) || undelivered <= 0) return;
  const refundCents = undelivered * order.unitPriceCents;
  let note = bundleShortfallNote(undelivered, formatUsd(refundCents));
  try {
    await providerOfIntent(deps, order.paymentIntentId).refund(order.paymentIntentId, refundCents);
  } catch (error) {
    console.error(`Order ${order.id}: the refund of its undelivered leads failed`, error);
    note = `Refund due: ${note}`;
  }
  await deps.db
    .update(orders)
    .set({ paymentError: note, updatedAt: new Date(deps.now) })
    .where(eq(orders.id, order.id));
}
