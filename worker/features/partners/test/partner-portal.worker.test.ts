/** The /partner portal's API through the partner's session. */
import { describe, expect, it } from "vitest";
import { callApi } from "../../../../tests/worker/helpers";
import { signedInPartner } from "../../../../tests/worker/partner-helpers";
import { pingBody, routeAtCallingHours } from "../../../../tests/worker/transfer-fixtures";

// Pings route only inside the prospect's legal calling hours (docs/decisions/0064).
routeAtCallingHours();

const createKey = (cookie: string, name: unknown) => callApi("/api/partner/keys", { json: { name }, cookie });

describe("API keys in the portal", () => {
  it("creates a key shown once, lists it by prefix, and revokes it so the partner API answers 401", async () => {
    const partner = await signedInPartner();
    const created = await createKey(partner.cookie, "Main dialer");
    expect(created.status).toBe(201);
    const { key, apiKey } = await created.json<{ key: string; apiKey: { id: string; prefix: string } }>();
    expect(key.startsWith(apiKey.prefix)).toBe(true);

    const listed = await (await callApi("/api/partner/keys", { cookie: partner.cookie })).text();
    expect(listed).toContain(apiKey.prefix);
    expect(listed).toContain("Main dialer");
    expect(listed).not.toContain(key);

    const auth = { Authorization: `Bearer ${key}` };
    const before = await callApi("/api/v1/transfers", { json: pingBody(), headers: auth });
    expect(before.status).not.toBe(401);

    const revoked = await callApi(`/api/partner/keys/${apiKey.id}`, { method: "DELETE", cookie: partner.cookie });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toMatchObject({ id: apiKey.id, revokedAt: expect.any(Number) });
    const after = await callApi("/api/v1/transfers", { json: pingBody(), headers: auth });
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ message: expect.any(String) });
  });

  it("refuses a nameless key with 400 and another partner's key id with 404", async () => {
    const partner = await signedInPartner();
    const other = await signedInPartner();
    for (const name of ["", "x".repeat(61), 42]) {
      const response = await createKey(partner.cookie, name);
      expect(response.status, String(name)).toBe(400);
      expect(await response.json()).toMatchObject({ message: expect.any(String) });
    }
    const { apiKey } = await (await createKey(partner.cookie, "Mine")).json<{ apiKey: { id: string } }>();
    const foreign = await callApi(`/api/partner/keys/${apiKey.id}`, { method: "DELETE", cookie: other.cookie });
    expect(foreign.status).toBe(404);
    const list = await (await callApi("/api/partner/keys", { cookie: partner.cookie })).json<
      { revokedAt: unknown }[]
    >();
    expect(list.every((k) => k.revokedAt === null)).toBe(true);
  });
});

describe("portal figures", () => {
  it("shows the partner's own profile, today's calls against its cap, no transfers and no payouts yet", async () => {
    const partner = await signedInPartner({ dailyCallCap: "25", payPerTransfer: "$18", paymentTerms: "Net 7" });
    const profile = await (await callApi("/api/partner/profile", { cookie: partner.cookie })).json();
    expect(profile).toMatchObject({ dailyCallCap: 25, payPerTransferCents: 1800, paymentTerms: "Net 7" });
    const stats = await (await callApi("/api/partner/stats", { cookie: partner.cookie })).json();
    expect(stats).toMatchObject({ today: { calls: 0, dailyCallCap: 25 }, billableRate: null });
    expect(await (await callApi("/api/partner/transfers", { cookie: partner.cookie })).json()).toEqual([]);
    expect(await (await callApi("/api/partner/payouts", { cookie: partner.cookie })).json()).toEqual([]);
    const bad = await callApi("/api/partner/transfers?before=yesterday", { cookie: partner.cookie });
    expect(bad.status).toBe(400);
  });
});
