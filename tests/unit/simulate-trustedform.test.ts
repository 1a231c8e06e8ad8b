/**
 * `npm run simulate:trustedform` (docs/decisions/0054): the stand-in answers verified, expired or not found
 * per certificate id, and the Worker's TrustedForm claimer reads those answers as the claim outcomes the
 * consent views show; the npm script starts it from its flags.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { listenTrustedFormStandIn, outcomeOf, parseOutcomes } from "../../scripts/lib/trustedform-stand-in.ts";
import { TRUSTEDFORM_CERT_HOST } from "../../src/features/consent/consent.ts";
import { claimerFor, trustedFormClaimer } from "../../worker/features/consent/consent-certificates.ts";
import { scriptOutput } from "./script-output";

const root = resolve(import.meta.dirname, "../..");
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const VERIFIED = "4f1c2a9e7b3d5086c1e2f3a4b5c6d7e8f9a0b1c2";
const EXPIRED = `ee${VERIFIED.slice(2)}`;
const UNKNOWN = `dead${VERIFIED.slice(4)}`;
const certificate = (id: string) => ({ provider: "trustedform" as const, url: `${TRUSTEDFORM_CERT_HOST}${id}` });
const context = { leadId: "lead-1", phone: "2145550101" };

describe("the TrustedForm stand-in", () => {
  it("decides each id by the outcomes file first, else by its rule", () => {
    expect([VERIFIED, EXPIRED, UNKNOWN].map((id) => outcomeOf(id))).toEqual(["verified", "expired", "not_found"]);
    expect(outcomeOf(VERIFIED, { [VERIFIED]: "expired" })).toBe("expired");
    expect(parseOutcomes(`{"${UNKNOWN}":"verified"}`)).toEqual({ [UNKNOWN]: "verified" });
    expect(() => parseOutcomes(`{"${UNKNOWN}":"maybe"}`)).toThrow(/must be one of verified, expired, not_found/);
    expect(() => parseOutcomes("[]")).toThrow(/JSON object/);
  });

  it("answers the Worker's claimer: verified is claimed, expired and not found are refused with their reason", async () => {
    const lines: string[] = [];
    const standIn = await listenTrustedFormStandIn({
      port: 0,
      outcomes: { [UNKNOWN.replace("dead", "0bad")]: "not_found" },
      log: (line) => lines.push(line),
    });
    closers.push(standIn.close);
    const claimer = trustedFormClaimer(standIn.url);
    expect(claimer.configured("trustedform")).toBe(true);
    expect(claimer.configured("jornaya")).toBe(false);
    const verified = await claimer.claim(certificate(VERIFIED), context);
    expect(verified).toMatchObject({ status: "claimed", provider: "trustedform", viewUrl: certificate(VERIFIED).url });
    expect(verified.status === "claimed" && verified.expiresAt).toBeGreaterThan(Date.now());
    expect(await claimer.claim(certificate(EXPIRED), context)).toMatchObject({ status: "refused", reason: "expired" });
    expect(await claimer.claim(certificate(UNKNOWN), context)).toMatchObject({
      status: "refused",
      reason: "not_found",
    });
    expect(await claimer.claim(certificate(UNKNOWN.replace("dead", "0bad")), context)).toMatchObject({
      reason: "not_found",
    });
    expect(lines).toEqual([
      `200 verified ${VERIFIED}`,
      `410 expired ${EXPIRED}`,
      `404 not_found ${UNKNOWN}`,
      expect.any(String),
    ]);
    // Jornaya tokens are not claimed by it.
    expect(
      await claimer.claim({ provider: "jornaya", token: "9C2B7E14-3A5D-4F60-8B1C-2D3E4F5A6B7C" }, context),
    ).toMatchObject({ status: "not_configured" });
  });

  it("is unavailable, not a refusal, when nothing answers; without TRUSTEDFORM_CLAIM_URL nothing is configured", async () => {
    const standIn = await listenTrustedFormStandIn({ port: 0 });
    await standIn.close();
    expect(await trustedFormClaimer(standIn.url).claim(certificate(VERIFIED), context)).toMatchObject({
      status: "unavailable",
    });
    expect(claimerFor({}).configured("trustedform")).toBe(false);
    expect(claimerFor({ TRUSTEDFORM_CLAIM_URL: standIn.url }).configured("trustedform")).toBe(true);
  });
});

describe("npm run simulate:trustedform", () => {
  const run = (args: string[]): ChildProcess => {
    const child = spawn(process.execPath, ["--experimental-strip-types", "scripts/simulate-trustedform.ts", ...args], {
      cwd: root,
    });
    closers.push(() => {
      child.kill("SIGTERM");
    });
    return child;
  };
  const output = scriptOutput;

  it("starts on a random port and answers a claim; refuses an unknown flag", async () => {
    const banner = await output(run(["--port", "0"]), /listening on (http:\S+)/);
    const url = /listening on (http:\S+)/.exec(banner)?.[1] ?? "";
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${url}/${EXPIRED}`, { method: "POST", body: "{}" });
    expect(response.status).toBe(410);
    expect(await response.json()).toMatchObject({ outcome: "expired" });
    expect(await output(run(["--colour", "red"]), /Usage:/)).toMatch(/Unknown option '--colour'/);
  });
});
