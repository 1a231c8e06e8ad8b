/**
 * Buyers see what they bought it with (decision 0041): My Leads, the Lead Tracker and
 * both CSV exports show each lead's and transfer's consent; the consent record of one lead or transfer
 * shows everything stored and the suppression lists it was checked against (when a check was recorded).
 */
import { env } from "cloudflare:workers";
import Papa from "papaparse";
import { beforeEach, describe, expect, it } from "vitest";
import type { OwnedLeadPage } from "../../../../src/domain/schemas/dashboard";
import type { ConsentRecord } from "../../../../src/features/consent/consent-record";
import type { TrackerPage } from "../../../../src/features/returns/returns";
import { pingSchema } from "../../../../src/features/transfers/schemas/partner-api";
import { createLead, testDb } from "../../../../tests/worker/factories";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import { buyerWithOrder } from "../../../../tests/worker/returns-fixtures";
import {
  clearTransfers,
  createPartner,
  newPhone,
  routeAtCallingHours,
} from "../../../../tests/worker/transfer-fixtures";
import { suppressionChecks } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { recordTransferEvent, routeTransfer } from "../../transfers/transfers";
import { NOT_CONFIGURED_MESSAGES } from "../consent-certificates";

// Pings route only inside the prospect's legal calling hours (docs/decisions/0064).
routeAtCallingHours();

const CERT_URL = `https://cert.trustedform.com/${"0f1e2d3c4b".repeat(4)}`;
// Not the template's sample token: that is a placeholder, refused and never a certificate (docs/decisions/0054).
const LEAD_ID = "9C2B7E14-3A5D-4F60-8B1C-2D3E4F5A6B7C";
const OPT_IN_AT = Date.UTC(2026, 2, 4, 14, 55);

const FULL = {
  optInAt: OPT_IN_AT,
  optInUrl: "https://quotes.example.com/final-expense",
  consentText: "tcpa-consent-v3",
  ipAddress: "203.0.113.7",
  trustedFormUrl: CERT_URL,
  jornayaLeadId: LEAD_ID,
};

/** A lead sold to `userId` in order `orderId`, with the given evidence (none by default). */
function ownedLead(userId: string, orderId: string, evidence: Partial<typeof FULL> = {}) {
  const { optInAt, ...rest } = evidence;
  return createLead(testDb(), {
    name: "Ruth Owner",
    email: "ruth@example.com",
    formFillTime: null,
    soldToUserId: userId,
    soldOrderId: orderId,
    soldAt: new Date(),
    ...rest,
    optInAt: optInAt === undefined ? null : new Date(optInAt),
    certified: Boolean(evidence.trustedFormUrl || evidence.jornayaLeadId),
  });
}

describe("My Leads", () => {
  it("shows each lead's opt-in time, page and certificates, and exports everything stored in the CSV", async () => {
    const buyer = await signedIn();
    const orderId = crypto.randomUUID();
    const certified = await ownedLead(buyer.user.id, orderId, FULL);
    const bare = await ownedLead(buyer.user.id, orderId);
    const page = await (await callApi("/api/my-leads", { cookie: buyer.cookie })).json<OwnedLeadPage>();
    const byId = new Map(page.items.map((lead) => [lead.id, lead.consent]));
    // Without a claim provider a certificate is on file, not verified (docs/decisions/0054).
    expect(byId.get(certified.id)).toEqual({
      optInAt: "2026-03-04T14:55:00.000Z",
      optInUrl: FULL.optInUrl,
      consentText: FULL.consentText,
      ipAddress: FULL.ipAddress,
      trustedFormUrl: CERT_URL,
      jornayaLeadId: LEAD_ID,
      certificate: "unverified",
    });
    expect(byId.get(bare.id)).toEqual({
      optInAt: null,
      optInUrl: null,
      consentText: null,
      ipAddress: null,
      trustedFormUrl: null,
      jornayaLeadId: null,
      certificate: "none",
    });

    const rows = Papa.parse<string[]>(await (await callApi("/api/my-leads.csv", { cookie: buyer.cookie })).text()).data;
    const header = rows[0] ?? [];
    const row = rows.find((cells) => cells[1] === certified.phone) ?? [];
    const cell = (name: string) => row[header.indexOf(name)];
    expect(cell("Opt-in time (UTC)")).toBe("2026-03-04T14:55:00.000Z");
    expect(cell("Opt-in page URL")).toBe(FULL.optInUrl);
    expect(cell("Consent text or version")).toBe(FULL.consentText);
    expect(cell("IP address")).toBe(FULL.ipAddress);
    expect(cell("TrustedForm certificate URL")).toBe(CERT_URL);
    expect(cell("Jornaya LeadiD")).toBe(LEAD_ID);
    expect(cell("Certificate")).toBe("Certificate on file, not verified");
    expect(rows.find((cells) => cells[1] === bare.phone)?.slice(-7)).toEqual([
      "",
      "",
      "",
      "",
      "",
      "",
      "No certificate",
    ]);
  });
});

describe("the consent record of a purchased lead", () => {
  it("shows everything stored, the certificates with what claiming can do, and no suppression check", async () => {
    const buyer = await signedIn();
    const orderId = crypto.randomUUID();
    const lead = await ownedLead(buyer.user.id, orderId, FULL);
    const response = await callApi(`/api/my-leads/${lead.id}/consent`, { cookie: buyer.cookie });
    expect(response.status).toBe(200);
    expect(await response.json<ConsentRecord>()).toMatchObject({
      kind: "aged_lead",
      id: lead.id,
      orderId,
      name: "Ruth Owner",
      phone: lead.phone,
      evidence: FULL,
      certificate: "unverified",
      evidenceShown: true,
      certificates: [
        { provider: "trustedform", value: CERT_URL, claimNote: NOT_CONFIGURED_MESSAGES.trustedform },
        { provider: "jornaya", value: LEAD_ID, claimNote: NOT_CONFIGURED_MESSAGES.jornaya },
      ],
      suppressionChecks: null,
    });
  });

  it("is the buyer's own: another buyer's lead, an unsold lead and an unknown id are 404", async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const lead = await ownedLead(owner.user.id, crypto.randomUUID(), FULL);
    for (const id of [lead.id, crypto.randomUUID()]) {
      const response = await callApi(`/api/my-leads/${id}/consent`, { cookie: other.cookie });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: "No such lead among yours." });
    }
    expect((await callApi(`/api/my-leads/${lead.id}/consent`)).status).toBe(401);
  });

  describe("when the sale's suppression check was recorded (suppression_checks, decision 0042)", () => {
    it("lists each list with its kind, its refreshed-on day at the check and when it was checked", async () => {
      const buyer = await signedIn();
      const orderId = crypto.randomUUID();
      const lead = await ownedLead(buyer.user.id, orderId, FULL);
      const checkedAt = Date.UTC(2026, 5, 1, 12);
      // Name, kind and day are copied into the check: a later rename or refresh of a list does not rewrite it.
      const check = { subjectType: "order", checkedAt: new Date(checkedAt) } as const;
      await testDb()
        .insert(suppressionChecks)
        .values([
          {
            ...check,
            subjectId: orderId,
            listId: 9001,
            listKind: "national_dnc",
            listName: "National DNC, area codes 201-989",
            refreshedOn: "2026-05-28",
            listNumbers: 5000000,
          },
          {
            ...check,
            subjectId: orderId,
            listId: 9002,
            listKind: "litigator",
            listName: "Litigators",
            refreshedOn: "2026-05-30",
            listNumbers: 12000,
          },
          {
            ...check,
            subjectId: "another",
            listId: 9001,
            listKind: "national_dnc",
            listName: "National DNC",
            refreshedOn: "2026-05-01",
            listNumbers: 1,
          },
        ]);
      const record = await (
        await callApi(`/api/my-leads/${lead.id}/consent`, { cookie: buyer.cookie })
      ).json<ConsentRecord>();
      expect(record.suppressionChecks).toEqual([
        { listName: "Litigators", kind: "litigator", refreshedOn: "2026-05-30", checkedAt },
        { listName: "National DNC, area codes 201-989", kind: "national_dnc", refreshedOn: "2026-05-28", checkedAt },
      ]);
    });

    it("says no check was recorded for a sale the table holds nothing of", async () => {
      const buyer = await signedIn();
      const lead = await ownedLead(buyer.user.id, crypto.randomUUID(), FULL);
      const record = await (
        await callApi(`/api/my-leads/${lead.id}/consent`, { cookie: buyer.cookie })
      ).json<ConsentRecord>();
      expect(record.suppressionChecks).toBeNull();
    });
  });
});

describe("a delivered transfer's consent", () => {
  beforeEach(clearTransfers);

  it("shows opt-in time and page at once, the IP and certificates only once the call connects", async () => {
    const partner = await createPartner();
    const buyer = await buyerWithOrder();
    const at = Date.now() - 60_000;
    const { transferId } = await routeTransfer(
      createDeps(env, at),
      partner.owner,
      pingSchema.parse({
        prospect: { firstName: "Mary", lastName: "Johnson", phone: newPhone(), state: "TX" },
        consent: {
          optInAt: new Date(OPT_IN_AT).toISOString(),
          optInUrl: FULL.optInUrl,
          trustedFormUrl: `http://cert.trustedform.com/${CERT_URL.slice(-40)}/`,
          jornayaLeadId: LEAD_ID.toLowerCase(),
          consentText: FULL.consentText,
          ipAddress: FULL.ipAddress,
        },
      }),
    );
    const tracked = async () =>
      (await (await callApi("/api/tracker/transfers", { cookie: buyer.cookie })).json<TrackerPage>()).items[0];
    const record = async () =>
      (await callApi(`/api/tracker/transfers/${transferId}/consent`, { cookie: buyer.cookie })).json<ConsentRecord>();

    expect((await tracked())?.consent).toEqual({
      optInAt: "2026-03-04T14:55:00.000Z",
      optInUrl: FULL.optInUrl,
      consentText: FULL.consentText,
      ipAddress: null,
      trustedFormUrl: null,
      jornayaLeadId: null,
      certificate: "unverified",
    });
    expect(await record()).toMatchObject({
      kind: "transfer",
      name: "Mary J.",
      evidence: { ...FULL, ipAddress: null, trustedFormUrl: null, jornayaLeadId: null },
      certificate: "unverified",
      evidenceShown: false,
      certificates: [],
      // The claim recorded what it was checked against: here the shop's own list, the one list there is.
      suppressionChecks: [{ kind: "internal_dnc", listName: "Do Not Call requests to us", checkedAt: at }],
    });

    await recordTransferEvent(
      createDeps(env, at + 5000),
      partner.id,
      transferId,
      { type: "connected" },
      {
        siteOrigin: "http://localhost",
      },
    );
    expect((await tracked())?.consent).toMatchObject({ trustedFormUrl: CERT_URL, jornayaLeadId: LEAD_ID });
    expect(await record()).toMatchObject({
      name: "Mary Johnson",
      evidence: FULL,
      evidenceShown: true,
      certificates: [
        { provider: "trustedform", value: CERT_URL },
        { provider: "jornaya", value: LEAD_ID },
      ],
    });
    const rows = Papa.parse<string[]>(
      await (await callApi("/api/tracker/transfers.csv", { cookie: buyer.cookie })).text(),
    ).data;
    expect(rows[1]?.slice(-7)).toEqual([
      "2026-03-04T14:55:00.000Z",
      FULL.optInUrl,
      FULL.consentText,
      FULL.ipAddress,
      CERT_URL,
      LEAD_ID,
      "Certificate on file, not verified",
    ]);
  });

  it("is the buyer's own: another buyer's transfer is 404", async () => {
    const partner = await createPartner();
    await buyerWithOrder();
    const other = await signedIn();
    const { transferId } = await routeTransfer(
      createDeps(env),
      partner.owner,
      pingSchema.parse({
        prospect: { firstName: "Mary", lastName: "Johnson", phone: newPhone(), state: "TX" },
        consent: { optInAt: new Date(OPT_IN_AT).toISOString(), optInUrl: FULL.optInUrl },
      }),
    );
    const response = await callApi(`/api/tracker/transfers/${transferId}/consent`, { cookie: other.cookie });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: "No such transfer among yours." });
  });
});
