/**
 * The partner API and consent (decision 0041): the ping's consent evidence is checked and
 * stored normalized, and a partner an admin has set to send TrustedForm certificates gets 400 without one.
 */

import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { TRUSTED_FORM_REQUIRED } from "../../../../src/features/consent/consent";
import type { AdminPartnerView } from "../../../../src/features/partners/schemas/partner-account";
import { testDb } from "../../../../tests/worker/factories";
import { callApi, login, signedIn } from "../../../../tests/worker/helpers";
import {
  clearTransfers,
  createOpenOrder,
  createPartner,
  pingBody,
  routeAtCallingHours,
} from "../../../../tests/worker/transfer-fixtures";
import { transfers } from "../../../db/schema";

// Pings route only inside the prospect's legal calling hours (docs/decisions/0064).
routeAtCallingHours();

const CERT_ID = "9a8b7c6d5e".repeat(4);
const CERT_URL = `https://cert.trustedform.com/${CERT_ID}`;
// Not the template's sample token: that is a placeholder, refused and never a certificate (docs/decisions/0054).
const LEAD_ID = "9C2B7E14-3A5D-4F60-8B1C-2D3E4F5A6B7C";

beforeEach(clearTransfers);

const ping = (auth: Record<string, string>, consent: Record<string, string> = {}) => {
  const body = pingBody();
  return callApi("/api/v1/transfers", { json: { ...body, consent: { ...body.consent, ...consent } }, headers: auth });
};

const setRequired = (partnerId: string, required: boolean, cookie: string) =>
  callApi(`/api/admin/partners/${partnerId}/trusted-form`, { json: { required }, cookie });

describe("the ping's consent evidence", () => {
  it("is stored as the consent rules normalize it: https certificate URL, LeadiD in capitals, IP in lower case", async () => {
    await createOpenOrder();
    const partner = await createPartner();
    const response = await ping(partner.auth, {
      trustedFormUrl: `http://cert.trustedform.com/${CERT_ID}/`,
      jornayaLeadId: LEAD_ID.toLowerCase(),
      consentText: "tcpa-consent-v3",
      ipAddress: "2001:DB8::7",
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const { transferId } = await response.json<{ transferId: string }>();
    const [row] = await testDb()
      .select({
        trustedFormUrl: transfers.trustedFormUrl,
        jornayaLeadId: transfers.jornayaLeadId,
        consentText: transfers.consentText,
        ipAddress: transfers.ipAddress,
      })
      .from(transfers)
      .where(eq(transfers.id, transferId));
    expect(row).toEqual({
      trustedFormUrl: CERT_URL,
      jornayaLeadId: LEAD_ID,
      consentText: "tcpa-consent-v3",
      ipAddress: "2001:db8::7",
    });
  });

  it.each([
    [
      "a URL that is no TrustedForm certificate",
      { trustedFormUrl: "https://example.com/cert" },
      "consent.trustedFormUrl",
    ],
    ["a malformed LeadiD", { jornayaLeadId: "not-a-token" }, "consent.jornayaLeadId"],
    ["a malformed IP address", { ipAddress: "300.1.1.1" }, "consent.ipAddress"],
  ])("answers 400 naming the field for %s, and routes nothing", async (_name, consent, field) => {
    const order = await createOpenOrder();
    const partner = await createPartner();
    const response = await ping(partner.auth, consent);
    expect(response.status).toBe(400);
    expect((await response.json<{ message: string }>()).message).toMatch(new RegExp(`^${field.replace(".", "\\.")} `));
    expect(await testDb().$count(transfers, eq(transfers.orderId, order.id))).toBe(0);
  });
});

describe("a partner required to send TrustedForm certificates", () => {
  it("gets 400 with the message without consent.trustedFormUrl, 201 with it, and again 201 once the admin lifts it", async () => {
    await createOpenOrder({ quantity: 5 });
    const partner = await createPartner();
    const admin = await signedIn({ isAdmin: true });
    const first = await ping(partner.auth);
    expect(first.status, await first.text()).toBe(201);

    const set = await setRequired(partner.id, true, admin.cookie);
    expect(set.status).toBe(200);
    expect(await set.json<AdminPartnerView>()).toMatchObject({ id: partner.id, requireTrustedForm: true });
    const refused = await ping(partner.auth);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ message: TRUSTED_FORM_REQUIRED });
    expect((await ping(partner.auth, { jornayaLeadId: LEAD_ID })).status).toBe(400);
    expect((await ping(partner.auth, { trustedFormUrl: CERT_URL })).status).toBe(201);

    const list = await (await callApi("/api/admin/partners", { cookie: admin.cookie })).json<AdminPartnerView[]>();
    expect(list.find((view) => view.id === partner.id)?.requireTrustedForm).toBe(true);
    // The partner's portal says so.
    const portal = await callApi("/api/partner/profile", { cookie: await login(partner.user) });
    expect(await portal.json()).toMatchObject({ requireTrustedForm: true });

    expect((await setRequired(partner.id, false, admin.cookie)).status).toBe(200);
    expect((await ping(partner.auth)).status).toBe(201);
  });

  it("is an admin's setting: buyers are refused, an unknown partner is 404, a body without `required` is 400", async () => {
    const partner = await createPartner();
    const buyer = await signedIn();
    const admin = await signedIn({ isAdmin: true });
    expect((await setRequired(partner.id, true, buyer.cookie)).status).toBe(403);
    const unknown = await setRequired(crypto.randomUUID(), true, admin.cookie);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: "No such partner." });
    const bad = await callApi(`/api/admin/partners/${partner.id}/trusted-form`, { json: {}, cookie: admin.cookie });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ message: "required must be true or false" });
  });

  it("is documented in the OpenAPI document, with the consent fields", async () => {
    const document = (await (await callApi("/api/v1/openapi.json")).json()) as {
      components: {
        schemas: { Ping: { properties: { consent: { properties: Record<string, { description?: string }> } } } };
      };
    };
    const consent = document.components.schemas.Ping.properties.consent.properties;
    expect(Object.keys(consent)).toEqual(
      expect.arrayContaining(["optInAt", "optInUrl", "trustedFormUrl", "jornayaLeadId", "consentText", "ipAddress"]),
    );
    expect(consent.trustedFormUrl?.description).toContain(TRUSTED_FORM_REQUIRED);
  });
});
