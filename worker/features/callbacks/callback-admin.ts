/** The admin's call-backs and appointments (product rule 45, docs/decisions/0059): one added, the latest, one's consent record. */
import { desc, eq } from "drizzle-orm";
import { defaultTimeZone } from "../../../src/domain/time-zones";
import type { CallbackOpportunity } from "../../../src/features/callbacks/schemas/callback-opportunity";
import { dollarsToCents } from "../../../src/features/orders/index";
import { callbackOpportunities } from "../../db/schema";
import type { Deps } from "../../deps";
import { NotFoundError } from "../../errors";
import { purchasedLeadConsent } from "../consent/index";
import { takeCallback } from "./callbacks";

/** How many of the latest call-backs the admin's list shows. */
const RECENT = 50;

/**
 * The admin's call-back or appointment (docs/decisions/0059): taken in by the call-back service, so it is
 * scrubbed against the shared Do Not Call lists and placed in a paid call-back order exactly like a
 * partner's; the admin's price is its own. Answers its window and the order it went to (null: waiting).
 */
export async function addCallbackOpportunity(deps: Deps, opportunity: CallbackOpportunity, createdBy: string) {
  const { name, email, phone, state, price, kind, date, from, to, timeZone, ...consent } = opportunity;
  const accepted = await takeCallback(
    deps,
    {
      kind,
      prospect: { firstName: name, lastName: "", email, phone, state, timeZone },
      window: { date, from, to },
      consent,
    },
    // The spec's callback-opportunity `price` is in dollars; the schema allows whole cents only.
    { source: "admin", createdBy, priceCents: dollarsToCents(price) ?? 0 },
  );
  const [placed] = await deps.db
    .select({ orderId: callbackOpportunities.orderId })
    .from(callbackOpportunities)
    .where(eq(callbackOpportunities.id, accepted.callbackId));
  const { callbackId, ...window } = accepted;
  return { id: callbackId, ...window, orderId: placed?.orderId ?? null };
}

/** The latest call-backs and appointments: the window (with the prospect's zone) and where each went. */
export async function recentCallbackOpportunities(deps: Deps) {
  const rows = await deps.db
    .select({
      id: callbackOpportunities.id,
      kind: callbackOpportunities.kind,
      name: callbackOpportunities.name,
      email: callbackOpportunities.email,
      phone: callbackOpportunities.phone,
      state: callbackOpportunities.state,
      priceCents: callbackOpportunities.priceCents,
      timeZone: callbackOpportunities.timeZone,
      windowStart: callbackOpportunities.windowStart,
      windowEnd: callbackOpportunities.windowEnd,
      orderId: callbackOpportunities.orderId,
      deliveredAt: callbackOpportunities.deliveredAt,
      createdAt: callbackOpportunities.createdAt,
    })
    .from(callbackOpportunities)
    .orderBy(desc(callbackOpportunities.createdAt))
    .limit(RECENT);
  return rows.map((row) => ({
    ...row,
    timeZone: row.timeZone ?? defaultTimeZone(row.state),
    windowStart: row.windowStart?.toISOString() ?? null,
    windowEnd: row.windowEnd?.toISOString() ?? null,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  }));
}

/**
 * The whole consent record of one call-back or appointment, for the admin's Callbacks rows
 * (docs/decisions/0063): the prospect, where it came from, its window, the order it went to, and every
 * piece of consent evidence stored, summed up as a bought lead's is (`purchasedLeadConsent`).
 */
export async function callbackConsentRecord(deps: Deps, id: string) {
  const [row] = await deps.db.select().from(callbackOpportunities).where(eq(callbackOpportunities.id, id));
  if (!row) throw new NotFoundError("No such call-back.");
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    phone: row.phone,
    email: row.email,
    state: row.state,
    zip: row.zip,
    source: row.source,
    timeZone: row.timeZone ?? defaultTimeZone(row.state),
    windowStart: row.windowStart?.toISOString() ?? null,
    windowEnd: row.windowEnd?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    orderId: row.orderId,
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    consent: purchasedLeadConsent({ ...row, certificateCheck: null }),
  };
}
