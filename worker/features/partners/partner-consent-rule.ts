/**
 * Whether a partner's pings must carry a TrustedForm certificate (decision 0041): an
 * admin's per-partner setting. The partner API reads it with the key (`KeyOwner.requireTrustedForm`) and
 * answers 400 `TRUSTED_FORM_REQUIRED` to a ping without `consent.trustedFormUrl`, from the next ping on.
 */
import { eq } from "drizzle-orm";
import type { AdminPartnerView } from "../../../src/features/partners/schemas/partner-account";
import { partners } from "../../db/schema";
import type { Deps } from "../../deps";
import { NotFoundError } from "../../errors";
import { onePartner } from "./partner-admin";

export async function setTrustedFormRequired(
  deps: Deps,
  partnerId: string,
  required: boolean,
): Promise<AdminPartnerView> {
  const updated = await deps.db
    .update(partners)
    .set({ requireTrustedForm: required })
    .where(eq(partners.id, partnerId))
    .returning({ id: partners.id });
  if (updated.length === 0) throw new NotFoundError("No such partner.");
  return onePartner(deps, partnerId);
}
