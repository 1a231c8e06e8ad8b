/**
 * Claiming consent certificates (docs/decisions/0038, 0054). One interface, so that a claimer can be
 * swapped without touching its callers, and two implementations: "not configured", which claims nothing
 * and says so, and a TrustedForm claimer that asks the claim endpoint named by `TRUSTEDFORM_CLAIM_URL`
 * (locally the stand-in `npm run simulate:trustedform`). Jornaya authentication is not set up.
 *
 * A claimer never throws for an answer about the certificate; it throws only for a bug. Callers store the
 * outcome beside the lead (certificate-checks.ts) and show it in the consent view.
 */
import { type ConsentCertificate, trustedFormCertId } from "../../../src/features/consent/consent";
import type { Env } from "../../env";

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
  /** The issuer says the certificate is not good: expired, or unknown (not found, already claimed, not matching). */
  | { status: "refused"; provider: CertificateProvider; reason: "expired" | "not_found"; message: string }
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

/** How long a claim may take before it counts as unavailable (it is tried again later). */
const CLAIM_TIMEOUT_MS = 5_000;

type Fetcher = (url: string, init: RequestInit) => Promise<Response>;

/**
 * TrustedForm claims through `POST <claimUrl>/<certificate id>` with the lead's reference, vendor, phone
 * and email as JSON: 200 is a claimed (verified) certificate, 410 an expired one, 404 one the issuer does
 * not know; anything else, or no answer, is "unavailable". Jornaya tokens stay not configured.
 */
export function trustedFormClaimer(claimUrl: string, fetcher: Fetcher = (url, init) => fetch(url, init)) {
  const base = claimUrl.replace(/\/+$/, "");
  return {
    configured: (provider) => provider === "trustedform",
    async claim(certificate, context) {
      if (certificate.provider !== "trustedform") return notConfiguredClaimer.claim(certificate, context);
      const id = trustedFormCertId(certificate.url);
      const provider = "trustedform" as const;
      if (!id)
        return { status: "refused", provider, reason: "not_found", message: "Not a TrustedForm certificate URL." };
      let response: Response;
      try {
        response = await fetcher(`${base}/${encodeURIComponent(id)}`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({
            reference: context.leadId,
            vendor: context.vendor ?? null,
            match_lead: { phone: context.phone ?? null, email: context.email ?? null },
          }),
          signal: AbortSignal.timeout(CLAIM_TIMEOUT_MS),
        });
      } catch (error) {
        return { status: "unavailable", provider, message: `TrustedForm did not answer: ${String(error)}` };
      }
      const answer = (await response.json().catch(() => ({}))) as { expires_at?: unknown; message?: unknown };
      const message = typeof answer.message === "string" ? answer.message : `TrustedForm answered ${response.status}.`;
      if (response.status === 200) {
        const expiresAt = typeof answer.expires_at === "string" ? Date.parse(answer.expires_at) : Number.NaN;
        return {
          status: "claimed",
          provider,
          claimedAt: Date.now(),
          expiresAt: Number.isNaN(expiresAt) ? null : expiresAt,
          viewUrl: certificate.url,
        };
      }
      if (response.status === 410) return { status: "refused", provider, reason: "expired", message };
      if (response.status === 404) return { status: "refused", provider, reason: "not_found", message };
      return { status: "unavailable", provider, message };
    },
  } satisfies ConsentCertificateClaimer;
}

/** The claimer the Worker's settings give: TrustedForm once `TRUSTEDFORM_CLAIM_URL` is set, else none. */
export function claimerFor(env: Pick<Env, "TRUSTEDFORM_CLAIM_URL">): ConsentCertificateClaimer {
  return env.TRUSTEDFORM_CLAIM_URL ? trustedFormClaimer(env.TRUSTEDFORM_CLAIM_URL) : notConfiguredClaimer;
}
