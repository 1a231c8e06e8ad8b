/** Admin lead uploads (product rules 5, 15): single aged leads, call-backs and appointments, newest first. */
import { desc, eq } from "drizzle-orm";
import { storedLead } from "../../src/domain/leads";
import type { AdminAgedLead, CallbackOpportunity } from "../../src/domain/schemas/admin-leads";
import { defaultTimeZone } from "../../src/domain/time-zones";
import { agedLeadPrice, dollarsToCents } from "../../src/features/orders/pricing";
import { agedLeads, callbackOpportunities } from "../db/schema";
import type { Deps } from "../deps";
import { ConflictError, NotFoundError } from "../errors";
import { takeCallback } from "../features/callbacks/callbacks";
import { purchasedLeadConsent } from "../features/consent/consent-records";
import { registryHolds } from "../features/do-not-call/index";

/** How many of the latest uploads the admin lists show. */
const RECENT = 50;

/** Lists an aged lead; a lead with the same phone and form fill time is already listed (409). */
export async function addAgedLead(deps: Deps, input: AdminAgedLead) {
  const lead = storedLead(input);
  const id = crypto.randomUUID();
  // A number on a registry copy is stored, not listed (docs/decisions/0084), as the D1 lists' trigger does.
  const onRegistry = lead.phoneKey !== null && (await registryHolds(deps, lead.phoneKey, lead.state)) !== null;
  const inserted = await deps.db
    .insert(agedLeads)
    .values({
      id,
      ...lead,
      formFillTime: lead.formFillTime === null ? null : new Date(lead.formFillTime),
      optInAt: lead.optInAt === null ? null : new Date(lead.optInAt),
      ...(onRegistry ? { registryListedAt: new Date(deps.now), suppressedAt: new Date(deps.now) } : {}),
    })
    .onConflictDoNothing({ target: agedLeads.dedupeKey })
    .returning({ id: agedLeads.id });
  if (inserted.length === 0) throw new ConflictError("This lead is already listed (same phone and form fill time).");
  const priced = agedLeadPrice(lead, deps.now);
  return { id, ageRange: priced.ageRange, priceCents: priced.priceCents };
}

/** The latest aged leads with their price today and whether they are sold, reserved or available. */
export async function recentAgedLeads(deps: Deps) {
  const { db, now } = deps;
  const rows = await db
    .select({
      id: agedLeads.id,
      name: agedLeads.name,
      phone: agedLeads.phone,
      state: agedLeads.state,
      ageRange: agedLeads.ageRange,
      priceCents: agedLeads.priceCents,
      formFillTime: agedLeads.formFillTime,
      soldAt: agedLeads.soldAt,
      reservedUntil: agedLeads.reservedUntil,
      certified: agedLeads.certified,
      withheld: agedLeads.withheld,
      createdAt: agedLeads.createdAt,
    })
    .from(agedLeads)
    .orderBy(desc(agedLeads.createdAt))
    .limit(RECENT);
  return rows.map((row) => {
    const priced = agedLeadPrice(row, now);
    const status = row.soldAt
      ? "sold"
      : row.withheld
        ? "not for sale (no certificate)"
        : row.reservedUntil && row.reservedUntil.getTime() > now
          ? "reserved"
          : "available";
    return {
      id: row.id,
      name: row.name,
      phone: row.phone,
      state: row.state,
      ageRange: priced.ageRange,
      priceCents: priced.priceCents,
      status,
      certified: row.certified,
      createdAt: row.createdAt.toISOString(),
    };
  });
}

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
