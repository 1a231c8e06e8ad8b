/**
 * Verifying a sold lead's consent certificates with their issuer (docs/decisions/0054): the first time a
 * bought lead's consent is built for its buyer (the `lead.purchased` payload or the consent record) and a
 * claim provider is configured, its certificates are claimed and the answer stored beside the lead
 * (`aged_leads.certificate_check`), so My Leads, its CSV and the webhook all say the same from then on.
 * Without a provider, or while the issuer does not answer, nothing is stored: "on file, not verified".
 */
import { eq } from "drizzle-orm";
import { type CertificateCheck, consentCertificates } from "../../../src/features/consent/consent";
import { agedLeads } from "../../db/schema";
import type { Deps } from "../../deps";
import { type ClaimOutcome, type ConsentCertificateClaimer, claimAll, claimerFor } from "./consent-certificates";

/** What a check needs of a lead (the claim sends its phone and e-mail for the issuer to match). */
export interface CheckableLead {
  id: string;
  phone: string;
  email: string | null;
  trustedFormUrl: string | null;
  jornayaLeadId: string | null;
  certificateCheck: CertificateCheck | null;
}

/** One verified certificate verifies the lead; else the first refusal says why; else nothing was learnt. */
function checkOf(outcomes: readonly ClaimOutcome[]): CertificateCheck | null {
  if (outcomes.some((outcome) => outcome.status === "claimed")) return "verified";
  const refused = outcomes.find((outcome) => outcome.status === "refused");
  return refused?.status === "refused" ? refused.reason : null;
}

/**
 * Each lead's stored or newly learnt check (absent: not checked). Claims only leads not checked yet whose
 * certificates a configured provider can claim, one after another (a purchase holds a few hundred leads at
 * most, and the first payload or record view of each asks once).
 */
export async function checkLeadCertificates(
  deps: Deps,
  leads: readonly CheckableLead[],
  claimer: ConsentCertificateClaimer = claimerFor(deps.env),
): Promise<Map<string, CertificateCheck>> {
  const checks = new Map<string, CertificateCheck>();
  for (const lead of leads) {
    if (lead.certificateCheck) {
      checks.set(lead.id, lead.certificateCheck);
      continue;
    }
    const claimable = consentCertificates(lead).filter((certificate) => claimer.configured(certificate.provider));
    if (claimable.length === 0) continue;
    const outcomes = await claimAll(claimer, claimable, {
      leadId: lead.id,
      phone: lead.phone,
      ...(lead.email ? { email: lead.email } : {}),
    });
    const check = checkOf(outcomes);
    if (!check) continue;
    await deps.db
      .update(agedLeads)
      .set({ certificateCheck: check, certificateCheckedAt: new Date(deps.now) })
      .where(eq(agedLeads.id, lead.id));
    checks.set(lead.id, check);
  }
  return checks;
}
