import { describe, expect, it } from "vitest";
import {
  type ClaimOutcome,
  type ConsentCertificateClaimer,
  claimAll,
  NOT_CONFIGURED_MESSAGES,
  notConfiguredClaimer,
} from "../../../../worker/features/consent/consent-certificates";
import { consentCertificates } from "../consent";

const certificates = consentCertificates({
  trustedFormUrl: "https://cert.trustedform.com/4f1c2a9e7b3d5086c1e2f3a4b5c6d7e8f9a0b1c2",
  jornayaLeadId: "9C2B7E14-3A5D-4F60-8B1C-2D3E4F5A6B7C",
});
const context = { leadId: "lead-1", phone: "3055550100" };

describe("claiming consent certificates while no issuer is set up", () => {
  it("claims nothing and says so, for each provider", async () => {
    expect(notConfiguredClaimer.configured("trustedform")).toBe(false);
    expect(notConfiguredClaimer.configured("jornaya")).toBe(false);
    expect(await claimAll(notConfiguredClaimer, certificates, context)).toEqual([
      { status: "not_configured", provider: "trustedform", message: NOT_CONFIGURED_MESSAGES.trustedform },
      { status: "not_configured", provider: "jornaya", message: NOT_CONFIGURED_MESSAGES.jornaya },
    ]);
  });

  it("sends nothing anywhere", async () => {
    const realFetch = globalThis.fetch;
    let calls = 0;
    globalThis.fetch = async () => {
      calls += 1;
      return new Response(null, { status: 500 });
    };
    try {
      await claimAll(notConfiguredClaimer, certificates, context);
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(calls).toBe(0);
  });

  it("lets a real claimer take its place behind the same interface, in order", async () => {
    const seen: string[] = [];
    const fake: ConsentCertificateClaimer = {
      configured: (provider) => provider === "trustedform",
      async claim(certificate, claimContext): Promise<ClaimOutcome> {
        seen.push(`${certificate.provider}:${claimContext.leadId}`);
        return certificate.provider === "trustedform"
          ? { status: "claimed", provider: "trustedform", claimedAt: 1, expiresAt: null, viewUrl: certificate.url }
          : { status: "unavailable", provider: "jornaya", message: "try later" };
      },
    };
    const outcomes = await claimAll(fake, certificates, context);
    expect(seen).toEqual(["trustedform:lead-1", "jornaya:lead-1"]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["claimed", "unavailable"]);
  });
});
