/** A partner (call center) with its user, its row and one working API key (decision 0067). */
import { partners } from "../../../worker/db/schema";
import { createApiKey, hashApiKey, keyOwnerOf, keyOwnerQuery } from "../../../worker/features/partners/api-keys";
import { type Database, nextNumber } from "./db";
import { createBuyer, type UserOverrides } from "./users";

/**
 * Any column of `partners` but its user, which the factory makes (`user` sets that user's columns);
 * `keyName` names its API key.
 */
export type PartnerOverrides = Omit<Partial<typeof partners.$inferInsert>, "userId"> & {
  user?: UserOverrides;
  keyName?: string;
};

/**
 * A partner as an admin's approval leaves it, with an API key (named "Dialer" unless `keyName` says otherwise) made by the service. Answers
 * the partner's user, its id, the key (shown once) and its view, the key's owner as the partner-key
 * middleware reads it, the profile the portal shows, and the Authorization header for the partner API.
 */
export async function createPartner(db: Database, overrides: PartnerOverrides = {}) {
  const { user: userOverrides, keyName = "Dialer", ...columns } = overrides;
  const n = nextNumber();
  const user = await createBuyer(db, {
    username: `partner${n}`,
    email: `partner${n}@example.com`,
    accountType: "partner",
    ...userOverrides,
  });
  const [row] = await db
    .insert(partners)
    .values({
      id: crypto.randomUUID(),
      userId: user.id,
      businessName: "Test Call Center",
      didNumber: "2145550100",
      dailyCallCap: 1000,
      payPerTransferCents: 2500,
      paymentTerms: "Net 15",
      timeZone: "America/Chicago",
      ...columns,
    })
    .returning();
  if (!row) throw new Error("the partner was not inserted");
  const { key, apiKey } = await createApiKey({ db }, row.id, keyName);
  // The partner-key middleware's own lookup: unknown or revoked keys are 401.
  const owner = keyOwnerOf(await keyOwnerQuery({ db }, await hashApiKey(key)));
  const profile = {
    id: row.id,
    businessName: row.businessName,
    dailyCallCap: owner.dailyCallCap,
    timeZone: owner.timeZone,
    payPerTransferCents: owner.payPerTransferCents,
    paymentTerms: owner.paymentTerms,
    requireTrustedForm: owner.requireTrustedForm,
  };
  return { user, row, id: row.id, key, apiKey, owner, profile, auth: { Authorization: `Bearer ${key}` } };
}
