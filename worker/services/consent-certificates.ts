/**
 * Claiming consent certificates (issue 24, out of scope for now: this Worker has no network to TrustedForm
 * or Jornaya). One interface, so that a real claimer (TrustedForm's claim API, Jornaya's authentication
 * API) can be added later without touching its callers, and the one implementation there is today: "not
 * configured", which claims nothing and says so.
 *
 * A claimer never throws for an answer about the certificate; it throws only for a bug. Callers store the
 * outcome beside the lead (docs/decisions/0038) and show it in the consent view.
 */
import type { ConsentCertificate } from "../../src/domain/consent";

export type CertificateProvider = ConsentCertificate["provider"];

/** What a claim is about: the lead or transfer it proves consent for, and what the issuer may match. */
export interface ClaimContext {
  /** The aged lead's or transfer's id, sent as the claim's reference. */
  leadId: string;
  /** Who delivered the lead (TrustedForm's `vendor`). */
  vendor?: string;
  /** Checked by the issuer against what the person typed (TrustedForm fingerprints, Jornaya data integrity). */
  phone?: string;
  email?: string;
}

export type ClaimOutcome =
  /** Retained by the issuer until `expiresAt` (epoch ms; null: the account's retention). */
  | { status: "claimed"; provider: CertificateProvider; claimedAt: number; expiresAt: number | null; viewUrl: string }
  /** The issuer says the certificate is not good: unknown, expired, already claimed, or not matching. */
  | { status: "refused"; provider: CertificateProvider; message: string }
  /** The issuer could not be reached or failed: try again later (the certificate may still be claimable). */
  | { status: "unavailable"; provider: CertificateProvider; message: string }
  /** No account with this issuer is set up: nothing was claimed. */
  | { status: "not_configured"; provider: CertificateProvider; message: string };

export interface ConsentCertificateClaimer {
  /** Whether claiming with this provider can do anything at all (the consent view says so when it cannot). */
  configured(provider: CertificateProvider): boolean;
  claim(certificate: ConsentCertificate, context: ClaimContext): Promise<ClaimOutcome>;
}

export const NOT_CONFIGURED_MESSAGES: Record<CertificateProvider, string> = {
  trustedform: "Claiming TrustedForm certificates is not set up: the certificate URL is stored as it was given.",
  jornaya: "Authenticating Jornaya LeadiD tokens is not set up: the token is stored as it was given.",
};

/** The claimer while no issuer account is set up: every claim answers `not_configured`, and nothing is sent. */
export const notConfiguredClaimer: ConsentCertificateClaimer = {
  configured: () => false,
  async claim(certificate) {
    return {
      status: "not_configured",
      provider: certificate.provider,
      message: NOT_CONFIGURED_MESSAGES[certificate.provider],
    };
  },
};

/** Claims each certificate in turn (a lead carries at most one of each provider). */
export async function claimAll(
  claimer: ConsentCertificateClaimer,
  certificates: readonly ConsentCertificate[],
  context: ClaimContext,
): Promise<ClaimOutcome[]> {
  const outcomes: ClaimOutcome[] = [];
  for (const certificate of certificates) outcomes.push(await claimer.claim(certificate, context));
  return outcomes;
}
