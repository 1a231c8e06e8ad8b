/** Admin lead uploads (product rules 5, 15): single aged leads, newest first (call-backs: features/callbacks/callback-admin.ts). */
import { desc } from "drizzle-orm";
import { storedLead } from "../../../src/features/aged-leads/leads";
import type { AdminAgedLead } from "../../../src/features/aged-leads/schemas/admin-leads";
import { agedLeadPrice } from "../../../src/features/orders/index";
import { agedLeads } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError } from "../../errors";
import { registryHolds } from "../do-not-call/index";

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
