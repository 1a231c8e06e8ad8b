/**
 * Partner API keys: 32 random bytes shown once, only their SHA-256 stored; a short
 * prefix identifies a key in lists. Verification looks the hash up; revoked or unknown keys are refused.
 */
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { and, count, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { PaymentTerms } from "../../../src/features/partners/partner";
import {
  type ApiKeyView,
  MAX_ACTIVE_API_KEYS,
  PARTNER_SUSPENDED,
  TOO_MANY_API_KEYS,
} from "../../../src/features/partners/schemas/partner-account";
import { apiKeys, partners } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError, ForbiddenError, NotFoundError, UnauthenticatedError } from "../../errors";
import { API_KEY_PREFIX, hashApiKey, SHOWN_PREFIX_LENGTH } from "./api-key-format";

export { hashApiKey };

/** A key's last use is written at most this often (not on every request). */
const LAST_USED_RESOLUTION_MS = 60_000;

/** The partner a valid key belongs to. */
export interface KeyOwner {
  apiKeyId: string;
  partnerId: string;
  dailyCallCap: number;
  timeZone: string;
  payPerTransferCents: number;
  paymentTerms: PaymentTerms;
  /** Pings must carry `consent.trustedFormUrl` (an admin's setting, decision 0041). */
  requireTrustedForm: boolean;
  lastUsedAt: number | null;
}

const view = (row: typeof apiKeys.$inferSelect): ApiKeyView => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.createdAt.getTime(),
  revokedAt: row.revokedAt?.getTime() ?? null,
  lastUsedAt: row.lastUsedAt?.getTime() ?? null,
});

const activeKeysOf = (partnerId: string) =>
  sql<number>`(SELECT count(*) FROM ${apiKeys} WHERE ${apiKeys.partnerId} = ${partnerId} AND ${apiKeys.revokedAt} IS NULL)`;

/**
 * Creates a key named `name` (newApiKeySchema's rule) and answers it in clear: the only time it is ever shown. A partner holds at most
 * MAX_ACTIVE_API_KEYS active keys: the insert itself counts them, so keys created at once cannot pass it.
 */
export async function createApiKey(
  deps: Pick<Deps, "db">,
  partnerId: string,
  name: string,
): Promise<{ key: string; apiKey: ApiKeyView }> {
  const { db } = deps;
  const key = API_KEY_PREFIX + encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(32)));
  const [row] = await db
    .insert(apiKeys)
    .select(
      db
        .select({
          id: sql<string>`${crypto.randomUUID()}`.as("id"),
          partnerId: partners.id,
          name: sql<string>`${name}`.as("name"),
          keyHash: sql<string>`${await hashApiKey(key)}`.as("key_hash"),
          prefix: sql<string>`${key.slice(0, SHOWN_PREFIX_LENGTH)}`.as("prefix"),
          createdAt: sql<Date>`(unixepoch('subsec') * 1000)`.as("created_at"),
          revokedAt: sql<null>`NULL`.as("revoked_at"),
          lastUsedAt: sql<null>`NULL`.as("last_used_at"),
        })
        .from(partners)
        .where(and(eq(partners.id, partnerId), sql`${activeKeysOf(partnerId)} < ${MAX_ACTIVE_API_KEYS}`)),
    )
    .returning();
  if (!row) {
    const [partner] = await db.select({ id: partners.id }).from(partners).where(eq(partners.id, partnerId));
    if (!partner) throw new NotFoundError("No such partner.");
    throw new ConflictError(TOO_MANY_API_KEYS);
  }
  return { key, apiKey: view(row) };
}

/** A partner's keys, newest first (revoked ones included, marked, unless `activeOnly`). */
export async function listApiKeys(deps: Deps, partnerId: string, activeOnly = false): Promise<ApiKeyView[]> {
  const rows = await deps.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.partnerId, partnerId), activeOnly ? isNull(apiKeys.revokedAt) : undefined))
    .orderBy(desc(apiKeys.createdAt));
  return rows.map(view);
}

/** How many active keys each partner holds (for the admin's list). */
export async function activeKeyCounts(deps: Deps): Promise<Map<string, number>> {
  const rows = await deps.db
    .select({ partnerId: apiKeys.partnerId, n: count() })
    .from(apiKeys)
    .where(isNull(apiKeys.revokedAt))
    .groupBy(apiKeys.partnerId);
  return new Map(rows.map((row) => [row.partnerId, row.n]));
}

/** Revokes one of the partner's own keys; another partner's or an unknown id is 404. Revoking twice is fine. */
export async function revokeApiKey(deps: Deps, partnerId: string, keyId: string): Promise<ApiKeyView> {
  const { db, now } = deps;
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date(now) })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.partnerId, partnerId), isNull(apiKeys.revokedAt)))
    .returning();
  if (row) return view(row);
  const existing = await db.query.apiKeys.findFirst({
    where: and(eq(apiKeys.id, keyId), eq(apiKeys.partnerId, partnerId)),
  });
  if (!existing) throw new NotFoundError("No such API key.");
  return view(existing);
}

/** The /partner portal's key management for one partner (the routes hold no database handle). */
export function partnerApiKeys(deps: Deps, partnerId: string) {
  return {
    list: () => listApiKeys(deps, partnerId),
    create: (name: string) => createApiKey(deps, partnerId, name),
    revoke: (keyId: string) => revokeApiKey(deps, partnerId, keyId),
  };
}

/** The lookup of a key by its hash, as a query the caller may run in a batch beside others. */
export function keyOwnerQuery(deps: Pick<Deps, "db">, keyHash: string) {
  return deps.db
    .select({
      apiKeyId: apiKeys.id,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
      // Not partners.id: in a D1 batch drizzle maps rows by column name, and two `id` columns would clash.
      partnerId: apiKeys.partnerId,
      dailyCallCap: partners.dailyCallCap,
      timeZone: partners.timeZone,
      payPerTransferCents: partners.payPerTransferCents,
      paymentTerms: partners.paymentTerms,
      requireTrustedForm: partners.requireTrustedForm,
      suspendedAt: partners.suspendedAt,
    })
    .from(apiKeys)
    .innerJoin(partners, eq(partners.id, apiKeys.partnerId))
    .where(eq(apiKeys.keyHash, keyHash))
    .limit(1);
}

/** The owner from keyOwnerQuery's rows; unknown or revoked keys are 401, a suspended partner's keys 403. */
export function keyOwnerOf(rows: Awaited<ReturnType<typeof keyOwnerQuery>>): KeyOwner {
  const [row] = rows;
  if (!row) throw new UnauthenticatedError("This API key is not valid.");
  if (row.revokedAt) throw new UnauthenticatedError("This API key has been revoked.");
  if (row.suspendedAt) throw new ForbiddenError(PARTNER_SUSPENDED);
  const { revokedAt: _revoked, suspendedAt: _suspended, lastUsedAt, ...owner } = row;
  return { ...owner, lastUsedAt: lastUsedAt?.getTime() ?? null };
}

/**
 * The partner of an active key, as a scalar sub-select (null for an unknown or revoked key or a
 * suspended partner): the per-partner rate limit counts it in the same batch as the key's lookup.
 */
export const activePartnerOfKey = (keyHash: string) =>
  sql<
    string | null
  >`(SELECT ${apiKeys.partnerId} FROM ${apiKeys} INNER JOIN ${partners} ON ${partners.id} = ${apiKeys.partnerId}
    WHERE ${apiKeys.keyHash} = ${keyHash} AND ${apiKeys.revokedAt} IS NULL AND ${partners.suspendedAt} IS NULL)`;

/** The hash of an active key (null otherwise), so that unknown keys open no rate-limit window. */
export const activeKeyHash = (keyHash: string) =>
  sql<
    string | null
  >`(SELECT ${apiKeys.keyHash} FROM ${apiKeys} WHERE ${apiKeys.keyHash} = ${keyHash} AND ${apiKeys.revokedAt} IS NULL)`;

/** Records a key's use, at most once a minute per key. */
export function touchApiKey(deps: Deps, owner: KeyOwner) {
  const { db, now } = deps;
  const stale = now - LAST_USED_RESOLUTION_MS;
  if (owner.lastUsedAt !== null && owner.lastUsedAt > stale) return null;
  return db
    .update(apiKeys)
    .set({ lastUsedAt: new Date(now) })
    .where(
      and(eq(apiKeys.id, owner.apiKeyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(stale)))),
    );
}
