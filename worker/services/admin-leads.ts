/** Admin lead uploads (product rules 5, 15): single aged leads and callback opportunities, newest first. */
import { desc } from "drizzle-orm";
import { storedLead } from "../../src/domain/leads";
import { agedLeadPrice, dollarsToCents } from "../../src/domain/pricing";
import type { AdminAgedLead, CallbackOpportunity } from "../../src/domain/schemas/admin-leads";
import { agedLeads, callbackOpportunities } from "../db/schema";
import type { Deps } from "../deps";
import { ConflictError } from "../errors";

/** How many of the latest uploads the admin lists show. */
const RECENT = 50;

/** Lists an aged lead; a lead with the same phone and form fill time is already listed (409). */
export async function addAgedLead(deps: Deps, input: AdminAgedLead) {
  const lead = storedLead(input);
  const id = crypto.randomUUID();
  const inserted = await deps.db
    .insert(agedLeads)
    .values({
      id,
      ...lead,
      formFillTime: lead.formFillTime === null ? null : new Date(lead.formFillTime),
      optInAt: lead.optInAt === null ? null : new Date(lead.optInAt),
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

export async function addCallbackOpportunity(deps: Deps, opportunity: CallbackOpportunity, createdBy: string) {
  const id = crypto.randomUUID();
  await deps.db.insert(callbackOpportunities).values({
    id,
    name: opportunity.name,
    email: opportunity.email,
    phone: opportunity.phone,
    state: opportunity.state,
    priceCents: dollarsToCents(opportunity.price) ?? 0, // the spec's callback-opportunity `price` is in dollars
    createdBy,
  });
  return { id };
}

export async function recentCallbackOpportunities(deps: Deps) {
  const rows = await deps.db
    .select({
      id: callbackOpportunities.id,
      name: callbackOpportunities.name,
      email: callbackOpportunities.email,
      phone: callbackOpportunities.phone,
      state: callbackOpportunities.state,
      priceCents: callbackOpportunities.priceCents,
      createdAt: callbackOpportunities.createdAt,
    })
    .from(callbackOpportunities)
    .orderBy(desc(callbackOpportunities.createdAt))
    .limit(RECENT);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}
