/**
 * What a buyer is told of a bought lead's consent (docs/decisions/0054): My Leads, its CSV and the
 * `lead.purchased` webhook carry one consent object; a certificate is "on file, not verified" until a claim
 * provider (TRUSTEDFORM_CLAIM_URL, faked here at the fetch) answers verified, expired or not found; and
 * placeholder certificates (the template's samples, all zeros) are refused at every upload.
 */

import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import Papa from "papaparse";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { OwnedLeadPage } from "../../../../src/domain/schemas/dashboard";
import type { ImportStatus } from "../../../../src/features/aged-leads/schemas/admin-leads";
import { CERTIFICATE_STATUS_LABELS, SAMPLE_CERTIFICATES } from "../../../../src/features/consent/consent";
import {
  type ConsentRecord,
  type ConsentSummary,
  consentCsvCells,
} from "../../../../src/features/consent/consent-record";
import { CONSENT_MESSAGES } from "../../../../src/features/consent/schemas/consent";
import { type WebhookEvent, webhookEventSchema } from "../../../../src/features/webhooks/schemas/webhooks";
import { createLead, testDb } from "../../../../tests/worker/factories";
import { bulkRow, callApi, deliverToQueue, signedIn, uniquePhones } from "../../../../tests/worker/helpers";
import type { Started } from "../../../../tests/worker/payment-fixtures";
import {
  clearTransfers,
  createOpenOrder,
  createPartner,
  pingBody,
  routeAtCallingHours,
} from "../../../../tests/worker/transfer-fixtures";
import { addEndpoint, fakeNetwork, fakeQueue, runQueue } from "../../../../tests/worker/webhook-fixtures";
import { agedLeads, transfers } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { buildPayloads } from "../../webhooks/payloads";

// Pings route only inside the prospect's legal calling hours (docs/decisions/0064).
routeAtCallingHours();

afterEach(() => vi.restoreAllMocks());

const CLAIM_URL = "https://claims.example.test/trustedform";
const VERIFIED_ID = "4f1c2a9e7b3d5086c1e2f3a4b5c6d7e8f9a0b1c2";
const EXPIRED_ID = `ee${VERIFIED_ID.slice(2)}`;
const UNKNOWN_ID = `dead${VERIFIED_ID.slice(4)}`;
const BUSY_ID = `b5${VERIFIED_ID.slice(2)}`;
const certUrl = (id: string) => `https://cert.trustedform.com/${id}`;
const LEAD_ID = "9C2B7E14-3A5D-4F60-8B1C-2D3E4F5A6B7C";
const phone = uniquePhones("6");

const EVIDENCE = {
  optInAt: new Date(Date.UTC(2026, 2, 4, 14, 55)),
  optInUrl: "https://quotes.example.com/final-expense",
  consentText: "tcpa-consent-v3",
  ipAddress: "203.0.113.7",
  jornayaLeadId: LEAD_ID,
};

/** A lead's columns with the evidence and `trustedFormId`'s certificate, certified as the form or the import would. */
const withEvidence = (trustedFormId: string) => ({
  ...EVIDENCE,
  trustedFormUrl: certUrl(trustedFormId),
  certified: true,
});

/** A lead sold to `userId` with the evidence and `trustedFormId`'s certificate (straight into D1). */
function soldLead(userId: string, trustedFormId: string) {
  return createLead(testDb(), {
    ...withEvidence(trustedFormId),
    soldToUserId: userId,
    soldOrderId: crypto.randomUUID(),
    soldAt: new Date(),
  });
}

/** The claim provider at the fetch: each certificate id answers as the stand-in's rule says, BUSY_ID 503. */
function fakeClaims() {
  const real = globalThis.fetch;
  const claimed: string[] = [];
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith(`${CLAIM_URL}/`)) return real(input, init);
    const id = url.slice(CLAIM_URL.length + 1);
    claimed.push(id);
    if (id === BUSY_ID) return new Response("busy", { status: 503 });
    if (id.startsWith("ee")) return Response.json({ outcome: "expired" }, { status: 410 });
    if (id.startsWith("dead")) return Response.json({ outcome: "not_found" }, { status: 404 });
    return Response.json({ outcome: "verified", expires_at: "2027-01-01T00:00:00Z" });
  });
  return { claimed, spy };
}

const claimEnv = { TRUSTEDFORM_CLAIM_URL: CLAIM_URL };

async function myLeadConsent(cookie: string, leadId: string): Promise<ConsentSummary | undefined> {
  const page = await (await callApi("/api/my-leads", { cookie })).json<OwnedLeadPage>();
  return page.items.find((lead) => lead.id === leadId)?.consent;
}

async function csvConsentCells(cookie: string, phoneNumber: string): Promise<string[] | undefined> {
  const rows = Papa.parse<string[]>(await (await callApi("/api/my-leads.csv", { cookie })).text()).data;
  return rows.find((cells) => cells[1] === phoneNumber)?.slice(-7);
}

async function record(cookie: string, leadId: string, withProvider = false) {
  const response = await callApi(`/api/my-leads/${leadId}/consent`, {
    cookie,
    ...(withProvider ? { env: claimEnv } : {}),
  });
  expect(response.status).toBe(200);
  return response.json<ConsentRecord>();
}

/** The lead.purchased payload the webhook would send for the lead now (with or without a claim provider). */
async function purchasedPayload(leadId: string, withProvider = false): Promise<WebhookEvent> {
  const deps = createDeps(withProvider ? { ...env, ...claimEnv } : env);
  const id = `evt_${crypto.randomUUID().replaceAll("-", "")}`;
  const bodies = await buildPayloads(deps, [{ id, type: "lead.purchased", subjectId: leadId, createdAt: new Date() }]);
  return webhookEventSchema.parse(JSON.parse(bodies.get(id) ?? "null"));
}

describe("one consent object for My Leads, its CSV and lead.purchased", () => {
  it("sends the webhook the same fields and values My Leads shows and the CSV exports, for a lead bought at checkout", async () => {
    const buyer = await signedIn();
    await addEndpoint(buyer.cookie, { events: ["lead.purchased"] });
    const queue = fakeQueue();
    const { id: leadId, phone: phoneNumber } = await createLead(testDb(), withEvidence(VERIFIED_ID));
    const started = await callApi("/api/bulk-purchase-leads", {
      cookie: buyer.cookie,
      json: { leadIds: [leadId] },
      env: { WEBHOOK_QUEUE: queue.queue },
    });
    const { clientSecret } = await started.json<Started>();
    const paid = await callApi("/api/simulated-payments/confirm", {
      json: { clientSecret, cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" },
      env: { WEBHOOK_QUEUE: queue.queue },
    });
    expect(paid.status).toBe(200);
    const network = fakeNetwork();
    await runQueue(queue, network, { from: Date.now() });
    const sent = network.received.map((request) => webhookEventSchema.parse(JSON.parse(request.body)));
    const event = sent.find((item) => item.type === "lead.purchased");
    const webhook = event?.type === "lead.purchased" ? event.data.consent : undefined;

    const shown = await myLeadConsent(buyer.cookie, leadId);
    const expected: ConsentSummary = {
      optInAt: "2026-03-04T14:55:00.000Z",
      optInUrl: EVIDENCE.optInUrl,
      consentText: EVIDENCE.consentText,
      ipAddress: EVIDENCE.ipAddress,
      trustedFormUrl: certUrl(VERIFIED_ID),
      jornayaLeadId: LEAD_ID,
      certificate: "unverified",
    };
    expect(shown).toEqual(expected);
    expect(webhook).toEqual(expected);
    const cells = await csvConsentCells(buyer.cookie, phoneNumber);
    expect(cells).toEqual([
      expected.optInAt,
      expected.optInUrl,
      expected.consentText,
      expected.ipAddress,
      expected.trustedFormUrl,
      expected.jornayaLeadId,
      "Certificate on file, not verified",
    ]);
    expect(cells).toEqual(consentCsvCells(expected));
  });
});

describe("claiming a sold lead's certificate", () => {
  it("without a claim provider: on file, not verified, everywhere, and nothing is sent", async () => {
    const buyer = await signedIn();
    const { id: leadId } = await soldLead(buyer.user.id, VERIFIED_ID);
    const claims = fakeClaims();
    expect((await record(buyer.cookie, leadId)).certificate).toBe("unverified");
    expect(((await purchasedPayload(leadId)).data as { consent: ConsentSummary }).consent.certificate).toBe(
      "unverified",
    );
    expect(claims.claimed).toEqual([]);
  });

  it.each([
    [VERIFIED_ID, "verified"],
    [EXPIRED_ID, "expired"],
    [UNKNOWN_ID, "not_found"],
  ] as const)(
    "certificate %s: the record's claim stores %s, and My Leads, the CSV and the webhook say it",
    async (id, status) => {
      const buyer = await signedIn();
      const { id: leadId, phone: phoneNumber } = await soldLead(buyer.user.id, id);
      const claims = fakeClaims();
      expect((await record(buyer.cookie, leadId, true)).certificate).toBe(status);
      expect(claims.claimed).toEqual([id]);
      // Stored: the views without a provider read it, and the lead is not claimed again.
      expect((await myLeadConsent(buyer.cookie, leadId))?.certificate).toBe(status);
      expect((await csvConsentCells(buyer.cookie, phoneNumber))?.at(-1)).toBe(CERTIFICATE_STATUS_LABELS[status]);
      expect(((await purchasedPayload(leadId, true)).data as { consent: ConsentSummary }).consent.certificate).toBe(
        status,
      );
      expect((await record(buyer.cookie, leadId, true)).certificate).toBe(status);
      expect(claims.claimed).toEqual([id]);
    },
  );

  it("claims before the first lead.purchased payload, so the webhook says verified", async () => {
    const buyer = await signedIn();
    const { id: leadId } = await soldLead(buyer.user.id, VERIFIED_ID);
    const claims = fakeClaims();
    const event = await purchasedPayload(leadId, true);
    expect((event.data as { consent: ConsentSummary }).consent).toMatchObject({
      trustedFormUrl: certUrl(VERIFIED_ID),
      certificate: "verified",
    });
    expect(claims.claimed).toEqual([VERIFIED_ID]);
    expect((await myLeadConsent(buyer.cookie, leadId))?.certificate).toBe("verified");
  });

  it("stays not verified while the provider fails, and is claimed again on the next view", async () => {
    const buyer = await signedIn();
    const { id: leadId } = await soldLead(buyer.user.id, BUSY_ID);
    const claims = fakeClaims();
    expect((await record(buyer.cookie, leadId, true)).certificate).toBe("unverified");
    expect((await myLeadConsent(buyer.cookie, leadId))?.certificate).toBe("unverified");
    expect((await record(buyer.cookie, leadId, true)).certificate).toBe("unverified");
    expect(claims.claimed).toEqual([BUSY_ID, BUSY_ID]);
  });
});

describe("placeholder certificates at upload", () => {
  const SAMPLE_URL = certUrl(SAMPLE_CERTIFICATES.trustedFormId);
  const ZERO_TOKEN = "00000000-0000-0000-0000-000000000000";

  it("the single-lead form answers 400 with the message under the field, and stores nothing", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    for (const [field, value, message] of [
      ["trustedFormUrl", SAMPLE_URL, CONSENT_MESSAGES.trustedFormPlaceholder],
      ["trustedFormUrl", certUrl("0".repeat(40)), CONSENT_MESSAGES.trustedFormPlaceholder],
      ["jornayaLeadId", ZERO_TOKEN, CONSENT_MESSAGES.jornayaPlaceholder],
      ["jornayaLeadId", SAMPLE_CERTIFICATES.jornayaLeadId, CONSENT_MESSAGES.jornayaPlaceholder],
    ] as const) {
      const number = phone();
      const response = await callApi("/api/admin/aged-leads", {
        cookie,
        json: { name: "Sample Cert", phone: number, state: "TX", [field]: value },
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ errors: { [field]: message } });
      expect(await testDb().$count(agedLeads, eq(agedLeads.phone, number))).toBe(0);
    }
  });

  it("the CSV import rejects such rows with the message and inserts the rest", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const kept = phone();
    const upload = await callApi("/api/bulk-upload-aged-leads", {
      cookie,
      json: {
        fileName: "template-copy.csv",
        leads: [
          bulkRow(phone(), { rowNumber: 2, trustedFormUrl: SAMPLE_URL }),
          bulkRow(phone(), { rowNumber: 3, jornayaLeadId: ZERO_TOKEN }),
          bulkRow(kept, { rowNumber: 4, trustedFormUrl: certUrl(VERIFIED_ID) }),
        ],
      },
    });
    expect(upload.status).toBe(200);
    const { importId } = await upload.json<{ importId: string }>();
    await deliverToQueue([{ kind: "import-batch", importId, batchNumber: 1 }]);
    const status = await (await callApi(`/api/imports/${importId}`, { cookie })).json<ImportStatus>();
    expect(status).toMatchObject({
      rowsInserted: 1,
      rowsRejected: 2,
      rowsCertified: 1,
      rejections: [
        { rowNumber: 2, reason: CONSENT_MESSAGES.trustedFormPlaceholder },
        { rowNumber: 3, reason: CONSENT_MESSAGES.jornayaPlaceholder },
      ],
    });
    expect(await testDb().$count(agedLeads, eq(agedLeads.importId, importId))).toBe(1);
  });

  describe("a partner's ping", () => {
    beforeEach(clearTransfers);

    it.each([
      ["trustedFormUrl", SAMPLE_URL],
      ["jornayaLeadId", ZERO_TOKEN],
    ])("answers 400 naming consent.%s for a placeholder, and routes nothing", async (field, value) => {
      const order = await createOpenOrder();
      const partner = await createPartner();
      const body = pingBody();
      const response = await callApi("/api/v1/transfers", {
        json: { ...body, consent: { ...body.consent, [field]: value } },
        headers: partner.auth,
      });
      expect(response.status).toBe(400);
      expect((await response.json<{ message: string }>()).message).toMatch(
        new RegExp(`^consent\\.${field} is a sample or placeholder`),
      );
      expect(await testDb().$count(transfers, eq(transfers.orderId, order.id))).toBe(0);
    });
  });
});
