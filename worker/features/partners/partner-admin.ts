/**
 * Admins stopping a partner: suspend and reinstate a partner account (a suspended
 * partner's keys answer 403, see api-keys.ts), see a partner's keys and revoke them, e.g. after resetting
 * the partner's password.
 */
import { desc, eq } from "drizzle-orm";
import type { AdminPartnerView, ApiKeyView } from "../../../src/features/partners/schemas/partner-account";
import type { Database } from "../../db/client";
import { partners, users } from "../../db/schema";
import type { Deps } from "../../deps";
import { NotFoundError } from "../../errors";
import { activeKeyCounts, listApiKeys, revokeApiKey } from "./api-keys";

const partnerColumns = {
  id: partners.id,
  userId: partners.userId,
  applicationId: partners.applicationId,
  businessName: partners.businessName,
  username: users.username,
  suspendedAt: partners.suspendedAt,
  requireTrustedForm: partners.requireTrustedForm,
};

type PartnerRow = Awaited<ReturnType<typeof partnerSelect>>[number];

const partnerSelect = (db: Database) =>
  db.select(partnerColumns).from(partners).innerJoin(users, eq(users.id, partners.userId));

const toView = (row: PartnerRow, activeKeys: number): AdminPartnerView => ({
  ...row,
  suspendedAt: row.suspendedAt?.getTime() ?? null,
  activeKeys,
});

/** Every partner account, newest first, with its number of active keys. */
export async function listPartners(deps: Deps): Promise<AdminPartnerView[]> {
  const [rows, counts] = await Promise.all([
    partnerSelect(deps.db).orderBy(desc(partners.createdAt)).limit(500),
    activeKeyCounts(deps),
  ]);
  return rows.map((row) => toView(row, counts.get(row.id) ?? 0));
}

export async function onePartner(deps: Deps, partnerId: string): Promise<AdminPartnerView> {
  const [row] = await partnerSelect(deps.db).where(eq(partners.id, partnerId));
  if (!row) throw new NotFoundError("No such partner.");
  const keys = await listApiKeys(deps, partnerId, true);
  return toView(row, keys.length);
}

/**
 * Suspends or reinstates a partner. Suspending twice keeps the first date; the partner API refuses the
 * partner's keys from the next request on, and reinstating lets the same keys work again.
 */
export async function setPartnerSuspended(
  deps: Deps,
  partnerId: string,
  suspended: boolean,
): Promise<AdminPartnerView> {
  const { db, now } = deps;
  const partner = await onePartner(deps, partnerId);
  if (suspended === (partner.suspendedAt !== null)) return partner;
  await db
    .update(partners)
    .set({ suspendedAt: suspended ? new Date(now) : null })
    .where(eq(partners.id, partnerId));
  return onePartner(deps, partnerId);
}

/** The admin's view of one partner's keys (404 for an unknown partner). */
export function adminPartnerKeys(deps: Deps, partnerId: string) {
  return {
    list: async () => {
      await onePartner(deps, partnerId);
      return listApiKeys(deps, partnerId);
    },
    revoke: (keyId: string) => revokeApiKey(deps, partnerId, keyId),
  };
}

/** The active keys of a partner user (null for anyone else), shown to the admin who reset its password. */
export async function activeKeysOfUser(
  deps: Deps,
  userId: string,
): Promise<{ partnerId: string; keys: ApiKeyView[] } | null> {
  const [partner] = await deps.db.select({ id: partners.id }).from(partners).where(eq(partners.userId, userId));
  if (!partner) return null;
  return { partnerId: partner.id, keys: await listApiKeys(deps, partner.id, true) };
}

/** When the partner was suspended (null while active): the portal says so. */
export async function partnerSuspendedAt(deps: Deps, partnerId: string): Promise<number | null> {
  const [row] = await deps.db
    .select({ suspendedAt: partners.suspendedAt })
    .from(partners)
    .where(eq(partners.id, partnerId));
  return row?.suspendedAt?.getTime() ?? null;
}
