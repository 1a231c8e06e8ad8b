/**
 * Aged leads carry consent evidence (decision 0041): the single form and the CSV
 * import store it, the import report counts rows with and without a certificate, an upload that requires a
 * certificate keeps its uncertified leads off sale, and the marketplace filters for "with certificate".
 */

import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { AgedLeadPage } from "../../../../src/domain/schemas/dashboard";
import type { ImportStatus } from "../../../../src/features/aged-leads/schemas/admin-leads";
import { CONSENT_MESSAGES } from "../../../../src/features/consent/schemas/consent";
import { createLeads as createFactoryLeads, testDb } from "../../../../tests/worker/factories";
import { storedRow, storedRows } from "../../../../tests/worker/factories/rows";
import { bulkRow, callApi, deliverToQueue, signedIn, uniquePhones } from "../../../../tests/worker/helpers";
import { createLeads, payWithCard, type Started } from "../../../../tests/worker/payment-fixtures";
import { agedLeads, orders } from "../../../db/schema";

const CERT_ID = "a1b2c3d4e5".repeat(4);
const CERT_URL = `https://cert.trustedform.com/${CERT_ID}`;
// Not the template's sample token: that is a placeholder, refused and never a certificate (docs/decisions/0054).
const LEAD_ID = "9C2B7E14-3A5D-4F60-8B1C-2D3E4F5A6B7C";
const phone = uniquePhones("8");

interface LeadRow {
  opt_in_at: number | null;
  opt_in_url: string | null;
  consent_text: string | null;
  ip_address: string | null;
  trusted_form_url: string | null;
  jornaya_lead_id: string | null;
  certified: number;
  withheld: number;
}

const LEAD_COLUMNS = [
  "opt_in_at",
  "opt_in_url",
  "consent_text",
  "ip_address",
  "trusted_form_url",
  "jornaya_lead_id",
  "certified",
  "withheld",
] as const;
/** A lead's consent columns as stored (times in ms, flags 0/1), found by its id or phone. */
const leadRow = async (where: "id" | "phone", value: string): Promise<LeadRow | null> => {
  const row = await storedRow(testDb(), agedLeads, eq(where === "id" ? agedLeads.id : agedLeads.phone, value));
  return row ? (Object.fromEntries(LEAD_COLUMNS.map((column) => [column, row[column]])) as unknown as LeadRow) : null;
};

/** Uploads `rows` as one batch (the import's first) and runs the queue consumer on it. */
async function importRows(cookie: string, rows: ReturnType<typeof bulkRow>[], certificateRequired?: boolean) {
  const upload = await callApi("/api/bulk-upload-aged-leads", {
    cookie,
    json: {
      fileName: "consent.csv",
      leads: rows,
      ...(certificateRequired === undefined ? {} : { certificateRequired }),
    },
  });
  expect(upload.status).toBe(200);
  const { importId } = await upload.json<{ importId: string }>();
  await deliverToQueue([{ kind: "import-batch", importId, batchNumber: 1 }]);
  const status = await callApi(`/api/imports/${importId}`, { cookie });
  return { importId, status: await status.json<ImportStatus>() };
}

describe("the single-lead form", () => {
  it("stores the consent evidence as the lead schema normalizes it, and marks the lead certified", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const response = await callApi("/api/admin/aged-leads", {
      cookie,
      json: {
        name: "Ann Consent",
        phone: phone(),
        state: "TX",
        optInAt: "2026-03-04 14:55:00",
        optInUrl: "https://quotes.example.com/final-expense",
        consentText: "tcpa-consent-v3",
        ipAddress: "2001:DB8::7",
        trustedFormUrl: `http://cert.trustedform.com/${CERT_ID}/`,
        jornayaLeadId: LEAD_ID.toLowerCase(),
      },
    });
    expect(response.status).toBe(201);
    const { id } = await response.json<{ id: string }>();
    expect(await leadRow("id", id)).toEqual({
      opt_in_at: Date.UTC(2026, 2, 4, 14, 55),
      opt_in_url: "https://quotes.example.com/final-expense",
      consent_text: "tcpa-consent-v3",
      ip_address: "2001:db8::7",
      trusted_form_url: CERT_URL,
      jornaya_lead_id: LEAD_ID,
      certified: 1,
      withheld: 0,
    });
  });

  it("refuses a malformed certificate with the schema's message under its field, and stores nothing", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const number = phone();
    const response = await callApi("/api/admin/aged-leads", {
      cookie,
      json: { name: "Bad Cert", phone: number, state: "TX", trustedFormUrl: "https://cert.trustedform.com/short" },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ errors: { trustedFormUrl: CONSENT_MESSAGES.trustedFormUrl } });
    expect(await leadRow("phone", number)).toBeNull();
  });

  it("stores a lead without evidence as before: no certificate, for sale", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const response = await callApi("/api/admin/aged-leads", {
      cookie,
      json: { name: "No Evidence", phone: phone(), state: "TX" },
    });
    const { id } = await response.json<{ id: string }>();
    expect(await leadRow("id", id)).toMatchObject({
      opt_in_at: null,
      trusted_form_url: null,
      certified: 0,
      withheld: 0,
    });
  });
});

describe("the CSV import", () => {
  it("stores each row's consent and reports how many inserted rows have a certificate and how many do not", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const [a, b, c] = [phone(), phone(), phone()];
    const { importId, status } = await importRows(cookie, [
      bulkRow(a, { rowNumber: 2, trustedFormUrl: `${CERT_URL}/`, optInAt: "2026-03-04T09:55:00-05:00" }),
      bulkRow(b, { rowNumber: 3, jornayaLeadId: LEAD_ID.toLowerCase(), ipAddress: "203.0.113.7" }),
      bulkRow(c, { rowNumber: 4, optInUrl: "https://quotes.example.com/a", consentText: "v3" }),
      bulkRow(phone(), { rowNumber: 5, trustedFormUrl: "https://example.com/not-a-certificate" }),
    ]);
    expect(status).toMatchObject({
      rowsReceived: 4,
      rowsInserted: 3,
      rowsRejected: 1,
      rowsCertified: 2,
      rowsUncertified: 1,
      certificateRequired: false,
      rejections: [{ rowNumber: 5, reason: CONSENT_MESSAGES.trustedFormUrl }],
    });
    expect(await leadRow("phone", a)).toMatchObject({
      trusted_form_url: CERT_URL,
      opt_in_at: Date.UTC(2026, 2, 4, 14, 55),
      certified: 1,
    });
    expect(await leadRow("phone", b)).toMatchObject({
      jornaya_lead_id: LEAD_ID,
      ip_address: "203.0.113.7",
      certified: 1,
    });
    expect(await leadRow("phone", c)).toMatchObject({
      opt_in_url: "https://quotes.example.com/a",
      consent_text: "v3",
      certified: 0,
      withheld: 0,
    });
    const report = await (await callApi(`/api/imports/${importId}/report.csv`, { cookie })).text();
    expect(report.split("\r\n").slice(-2)).toEqual(["With certificate,2", "Without certificate,1"]);
  });
});

async function listed(cookie: string, query: string) {
  const response = await callApi(`/api/aged-leads?${query}`, { cookie });
  expect(response.status).toBe(200);
  return response.json<AgedLeadPage>();
}

describe("an upload that sells only leads with a certificate", () => {
  it("stores its uncertified leads withheld: never listed, counted or reserved; another upload's are sold", async () => {
    const admin = await signedIn({ isAdmin: true });
    const buyer = await signedIn();
    const required = await importRows(
      admin.cookie,
      [
        bulkRow(phone(), { rowNumber: 2, state: "CQ", trustedFormUrl: CERT_URL }),
        bulkRow(phone(), { rowNumber: 3, state: "CQ", jornayaLeadId: LEAD_ID }),
        bulkRow(phone(), { rowNumber: 4, state: "CQ" }),
        bulkRow(phone(), { rowNumber: 5, state: "CQ", optInUrl: "https://quotes.example.com/b" }),
      ],
      true,
    );
    expect(required.status).toMatchObject({
      rowsInserted: 4,
      rowsCertified: 2,
      rowsUncertified: 2,
      certificateRequired: true,
    });
    const report = await (await callApi(`/api/imports/${required.importId}/report.csv`, admin)).text();
    expect(report).toContain('"Without certificate (stored, not for sale)",2');

    const list = await listed(buyer.cookie, "location=CQ");
    expect(list.total).toBe(2);
    expect(list.items.map((lead) => lead.certified)).toEqual([true, true]);
    const withheld = await testDb()
      .select({ id: agedLeads.id })
      .from(agedLeads)
      .where(and(eq(agedLeads.importId, required.importId), eq(agedLeads.withheld, true)));
    expect(withheld).toHaveLength(2);
    const reserve = await callApi("/api/bulk-purchase-leads", {
      cookie: buyer.cookie,
      json: { leadIds: withheld.map((row) => row.id) },
    });
    expect(reserve.status).toBe(400);
    expect(await reserve.json()).toMatchObject({ message: expect.stringMatching(/^Unknown leads/) });

    // The setting is the upload's own: another upload's uncertified leads are for sale.
    await importRows(admin.cookie, [bulkRow(phone(), { rowNumber: 2, state: "CQ" })], false);
    expect((await listed(buyer.cookie, "location=CQ")).total).toBe(3);
    expect((await listed(buyer.cookie, "location=CQ&certified=true")).total).toBe(2);
  });

  it("withholds every lead of a file without consent columns when its upload requires a certificate", async () => {
    const admin = await signedIn({ isAdmin: true });
    const buyer = await signedIn();
    const { importId, status } = await importRows(
      admin.cookie,
      [bulkRow(phone(), { rowNumber: 2, state: "CW" }), bulkRow(phone(), { rowNumber: 3, state: "CW" })],
      true,
    );
    expect(status).toMatchObject({ rowsInserted: 2, rowsCertified: 0, rowsUncertified: 2, certificateRequired: true });
    expect(await testDb().$count(agedLeads, and(eq(agedLeads.importId, importId), eq(agedLeads.withheld, true)))).toBe(
      2,
    );
    expect((await listed(buyer.cookie, "location=CW")).total).toBe(0);
  });

  it("does not sell a reserved lead that became withheld before the payment", async () => {
    const buyer = await signedIn();
    const [leadId = ""] = await createLeads(1);
    const started = await callApi("/api/bulk-purchase-leads", { cookie: buyer.cookie, json: { leadIds: [leadId] } });
    expect(started.status).toBe(200);
    const { clientSecret, orderId } = await started.json<Started>();
    await testDb().update(agedLeads).set({ withheld: true }).where(eq(agedLeads.id, leadId));
    await payWithCard(clientSecret);
    const [lead] = await testDb()
      .select({ soldAt: agedLeads.soldAt, soldToUserId: agedLeads.soldToUserId })
      .from(agedLeads)
      .where(eq(agedLeads.id, leadId));
    expect(lead).toEqual({ soldAt: null, soldToUserId: null });
    const [order] = await testDb().select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
    expect(order?.status).not.toBe("paid");
  });
});

describe("the marketplace's 'with certificate' filter", () => {
  /** Leads through the lead factory: every third certified, some sold, reserved or withheld. */
  async function insertMix(count: number) {
    const base = Date.now() + 20 * 86_400_000;
    await createFactoryLeads(testDb(), count, (i) => {
      const certified = i % 3 === 1 || i % 7 === 0;
      const id = `cert-${i}-${crypto.randomUUID().slice(0, 8)}`;
      return {
        id,
        name: "Mary Johnson",
        email: null,
        phone: `${["601", "602", "603", "604"][i % 4]}556${String(i).padStart(4, "0")}`,
        state: ["PX", "PY", "Pennsylvania-ish"][i % 3],
        formFillTime: new Date(base + Math.floor(i / 4)),
        dedupeKey: id,
        createdAt: new Date(base + Math.floor(i / 4)),
        certified,
        trustedFormUrl: certified ? CERT_URL : null,
        withheld: i % 11 === 5 && !certified,
        soldAt: i % 13 === 4 ? new Date() : null,
        reservedUntil: i % 17 === 2 ? new Date(Date.now() + 600_000) : null,
      };
    });
  }

  /** The certified list as the rule defines it, from every row (newest first, then id). */
  async function expectedIds(location: string) {
    const { parseLocationFilter, leadMatchesLocation } = await import(
      "../../../../src/features/aged-leads/location-filter"
    );
    const { leadAreaCode } = await import("../../../../src/domain/phone");
    const results = (await storedRows(testDb(), agedLeads)) as {
      id: string;
      phone: string;
      state: string;
      created_at: number;
      sold_at: number | null;
      reserved_until: number | null;
      certified: number;
      withheld: number;
    }[];
    const terms = parseLocationFilter(location);
    const now = Date.now();
    return results
      .filter((row) => row.sold_at === null && row.withheld === 0 && row.certified === 1)
      .filter((row) => row.reserved_until === null || row.reserved_until < now)
      .filter((row) => leadMatchesLocation({ state: row.state, areaCode: leadAreaCode(row.phone) }, terms))
      .sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((row) => row.id);
  }

  it("lists exactly the certified leads for sale, with their total and pages, whichever index plan answers", async () => {
    const { cookie } = await signedIn();
    await insertMix(600);
    for (const location of ["", "PX", "py, 603", "p", "601", "px, py, 604", "zzz", "12345"]) {
      const expected = await expectedIds(location);
      const query = `certified=true&location=${encodeURIComponent(location)}`;
      const first = await listed(cookie, query);
      expect(first.total, location).toBe(expected.length);
      const pages = [first];
      for (let page = 2; page <= Math.min(first.pageCount, 3); page++)
        pages.push(await listed(cookie, `${query}&page=${page}`));
      expect(
        pages.flatMap((page) => page.items.map((lead) => lead.id)),
        location,
      ).toEqual(expected.slice(0, pages.length * 50));
      expect(pages.every((page) => page.items.every((lead) => lead.certified))).toBe(true);
    }
  }, 60_000);

  it("says only 'certificate: yes or no' before purchase, never the certificate URL", async () => {
    const { cookie } = await signedIn();
    await insertMix(30);
    const response = await callApi("/api/aged-leads?location=601", { cookie });
    const text = await response.text();
    expect(text).not.toContain("trustedform");
    const page = JSON.parse(text) as AgedLeadPage;
    expect(new Set(page.items.map((lead) => lead.certified))).toEqual(new Set([true, false]));
  });

  it("answers 400 to a certified filter that is neither true nor false", async () => {
    const { cookie } = await signedIn();
    const response = await callApi("/api/aged-leads?certified=maybe", { cookie });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ message: "certified must be true or false" });
  });
});
