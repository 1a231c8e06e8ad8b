/**
 * Admins stopping a partner: suspension (the keys answer 403, the portal says so), the
 * keys an admin's password reset leaves working, at most 10 active keys, and the partner API's limit per
 * partner as well as per key.
 */

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  MAX_ACTIVE_API_KEYS,
  PARTNER_SUSPENDED,
  TOO_MANY_API_KEYS,
} from "../../../../src/features/partners/schemas/partner-account";
import { testDb } from "../../../../tests/worker/factories";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import { signedInPartner } from "../../../../tests/worker/partner-helpers";
import {
  clearTransfers,
  createOpenOrder,
  createPartner,
  deps,
  pingBody,
  routeAtCallingHours,
} from "../../../../tests/worker/transfer-fixtures";
import { rateLimitWindows } from "../../../db/schema";
import { PARTNER_KEY_RULE, PARTNER_RULE } from "../../../services/rate-limiter";
import { createApiKey } from "../api-keys";

// Pings route only inside the prospect's legal calling hours (docs/decisions/0064).
routeAtCallingHours();

beforeEach(clearTransfers);

const ping = (auth: Record<string, string>) => callApi("/api/v1/transfers", { json: pingBody(), headers: auth });
const admin = async () => (await signedIn({ isAdmin: true })).cookie;

describe("suspending a partner", () => {
  it("refuses every key of a suspended partner with 403 and a message, until an admin reinstates it", async () => {
    await createOpenOrder();
    const partner = await createPartner();
    const second = await createApiKey(deps(), partner.id, "Backup dialer");
    const routed = await ping(partner.auth);
    expect(routed.status).toBe(201);
    const { transferId } = await routed.json<{ transferId: string }>();
    const cookie = await admin();

    const suspended = await callApi(`/api/admin/partners/${partner.id}/suspend`, { method: "POST", cookie });
    expect(suspended.status).toBe(200);
    expect(await suspended.json()).toMatchObject({ id: partner.id, suspendedAt: expect.any(Number), activeKeys: 2 });

    const refusals = [
      await ping(partner.auth),
      await ping({ Authorization: `Bearer ${second.key}` }),
      await callApi(`/api/v1/transfers/${transferId}`, { headers: partner.auth }),
      await callApi(`/api/v1/transfers/${transferId}/events`, { json: { type: "connected" }, headers: partner.auth }),
    ];
    for (const response of refusals) {
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ message: PARTNER_SUSPENDED });
    }
    const listed = await (await callApi("/api/admin/partners", { cookie })).json<
      { id: string; suspendedAt: unknown }[]
    >();
    expect(listed.find((p) => p.id === partner.id)?.suspendedAt).toEqual(expect.any(Number));

    const reinstated = await callApi(`/api/admin/partners/${partner.id}/reinstate`, { method: "POST", cookie });
    expect(await reinstated.json()).toMatchObject({ id: partner.id, suspendedAt: null });
    expect((await callApi(`/api/v1/transfers/${transferId}`, { headers: partner.auth })).status).toBe(200);
  });

  it("tells the partner in its portal", async () => {
    const partner = await signedInPartner();
    const profile = async () =>
      (await callApi("/api/partner/profile", { cookie: partner.cookie })).json<{ id: string; suspendedAt: unknown }>();
    const { id, suspendedAt } = await profile();
    expect(suspendedAt).toBeNull();
    await callApi(`/api/admin/partners/${id}/suspend`, { method: "POST", cookie: await admin() });
    expect((await profile()).suspendedAt).toEqual(expect.any(Number));
  });

  it("is for admins only, and unknown partners are 404", async () => {
    const partner = await createPartner();
    const buyer = await signedIn();
    for (const path of [`/api/admin/partners/${partner.id}/suspend`, `/api/admin/partners/${partner.id}/reinstate`]) {
      expect((await callApi(path, { method: "POST" })).status).toBe(401);
      expect((await callApi(path, { method: "POST", cookie: buyer.cookie })).status).toBe(403);
    }
    expect((await ping(partner.auth)).status).not.toBe(403);
    const unknown = await callApi("/api/admin/partners/nobody/suspend", { method: "POST", cookie: await admin() });
    expect(unknown.status).toBe(404);
  });
});

describe("a password reset by an admin", () => {
  it("shows the partner's active keys, which the admin can then revoke", async () => {
    const partner = await createPartner();
    const other = await createApiKey(deps(), partner.id, "Old dialer");
    await callApi(`/api/admin/partners/${partner.id}/keys/${other.apiKey.id}`, {
      method: "DELETE",
      cookie: await admin(),
    });
    const cookie = await admin();
    const reset = await callApi(`/api/users/${partner.user.id}/change-password`, {
      json: { newPassword: "a-new-partner-password-9" },
      cookie,
    });
    expect(reset.status).toBe(200);
    const answer = await reset.json<{ partnerKeys: { partnerId: string; keys: { id: string; prefix: string }[] } }>();
    expect(answer.partnerKeys.partnerId).toBe(partner.id);
    // Only the active key: the revoked one is not shown as a risk.
    expect(answer.partnerKeys.keys.map((k) => k.id)).toEqual([partner.apiKey.id]);
    expect(JSON.stringify(answer)).not.toContain(partner.key);

    const revoked = await callApi(`/api/admin/partners/${partner.id}/keys/${partner.apiKey.id}`, {
      method: "DELETE",
      cookie,
    });
    expect(await revoked.json()).toMatchObject({ id: partner.apiKey.id, revokedAt: expect.any(Number) });
    expect((await ping(partner.auth)).status).toBe(401);
    const keys = await (await callApi(`/api/admin/partners/${partner.id}/keys`, { cookie })).json<unknown[]>();
    expect(keys).toHaveLength(2);
  });

  it("shows no keys for a buyer", async () => {
    const buyer = await signedIn();
    const reset = await callApi(`/api/users/${buyer.user.id}/change-password`, {
      json: { newPassword: "a-new-buyer-password-9" },
      cookie: await admin(),
    });
    expect(await reset.json()).toEqual({ message: "Password changed successfully" });
  });

  it("cannot revoke another partner's key through this partner", async () => {
    const a = await createPartner();
    const b = await createPartner();
    const response = await callApi(`/api/admin/partners/${b.id}/keys/${a.apiKey.id}`, {
      method: "DELETE",
      cookie: await admin(),
    });
    expect(response.status).toBe(404);
    expect((await ping(a.auth)).status).not.toBe(401);
  });
});

describe("active keys per partner", () => {
  it(`allows at most ${MAX_ACTIVE_API_KEYS}, even when created at once; a revoked key frees a place`, async () => {
    const partner = await signedInPartner();
    const create = (name: string) => callApi("/api/partner/keys", { json: { name }, cookie: partner.cookie });
    const statuses = (await Promise.all(Array.from({ length: 15 }, (_, i) => create(`Dialer ${i}`)))).map(
      (r) => r.status,
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_ACTIVE_API_KEYS);
    expect(statuses.filter((s) => s === 409)).toHaveLength(15 - MAX_ACTIVE_API_KEYS);
    const refused = await create("One more");
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ message: TOO_MANY_API_KEYS });

    const keys = await (await callApi("/api/partner/keys", { cookie: partner.cookie })).json<{ id: string }[]>();
    expect(keys).toHaveLength(MAX_ACTIVE_API_KEYS);
    await callApi(`/api/partner/keys/${keys[0]?.id}`, { method: "DELETE", cookie: partner.cookie });
    expect((await create("Replacement")).status).toBe(201);
  });
});

describe("the partner API's rate limit", () => {
  beforeEach(() => {
    // One second for the whole burst, however slow the machine.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-02T15:00:00Z"));
  });
  afterEach(() => vi.useRealTimers());

  it(`holds per partner: 80 requests in one second across 4 keys get at most ${PARTNER_RULE.limit} through`, async () => {
    const partner = await createPartner();
    const keys = [
      partner.key,
      ...(await Promise.all([1, 2, 3].map(async (n) => (await createApiKey(deps(), partner.id, `Dialer ${n}`)).key))),
    ];
    const responses = await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        callApi("/api/v1/transfers/none", { headers: { Authorization: `Bearer ${keys[i % keys.length]}` } }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    // 20 a key is within each key's own limit: only the partner's limit refuses.
    expect(80 / keys.length).toBeLessThanOrEqual(PARTNER_KEY_RULE.limit);
    expect(statuses.filter((s) => s === 404)).toHaveLength(PARTNER_RULE.limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(80 - PARTNER_RULE.limit);
    const limited = responses.find((r) => r.status === 429);
    expect(await limited?.json()).toEqual({ message: expect.stringContaining("across all of your API keys") });

    // Another partner is not slowed by this one; the next second this one is served again.
    const other = await createPartner();
    expect((await callApi("/api/v1/transfers/none", { headers: other.auth })).status).toBe(404);
    vi.setSystemTime(new Date("2026-03-02T15:00:01.5Z"));
    expect((await callApi("/api/v1/transfers/none", { headers: partner.auth })).status).toBe(404);
  });

  it("still holds per key", async () => {
    const partner = await createPartner();
    const statuses = (
      await Promise.all(Array.from({ length: 30 }, () => callApi("/api/v1/transfers/none", { headers: partner.auth })))
    ).map((r) => r.status);
    expect(statuses.filter((s) => s === 404)).toHaveLength(PARTNER_KEY_RULE.limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - PARTNER_KEY_RULE.limit);
  });

  it("opens no window for unknown or revoked keys", async () => {
    const before = await testDb().$count(rateLimitWindows);
    for (let i = 0; i < 5; i++) {
      const response = await callApi("/api/v1/transfers/none", {
        headers: { Authorization: `Bearer fel_nobody_${i}` },
      });
      expect(response.status).toBe(401);
    }
    expect(await testDb().$count(rateLimitWindows)).toBe(before);
  });

  it("counts per key and per partner through the bindings in production", async () => {
    const partner = await createPartner();
    const asked: string[] = [];
    const binding = (allow: boolean) => ({
      limit: async ({ key }: { key: string }) => {
        asked.push(key);
        return { success: allow };
      },
    });
    const production = (partnerAllows: boolean) =>
      callApi("/api/v1/transfers/none", {
        headers: partner.auth,
        env: {
          APP_ENV: "production",
          PARTNER_API_RATE_LIMITER: binding(true),
          PARTNER_RATE_LIMITER: binding(partnerAllows),
        },
      });
    expect((await production(true)).status).toBe(404);
    const refused = await production(false);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ message: expect.stringContaining("across all of your API keys") });
    expect(asked).toContain(`${PARTNER_RULE.name}:${partner.id}`);
  });
});

describe("the OpenAPI document", () => {
  it("documents the suspended partner's 403 and both rate limits' 429 on every route", async () => {
    const document = (await (await callApi("/api/v1/openapi.json")).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { description: string; content: unknown }> }>>;
      components: { schemas: Record<string, { properties: { message: { example: string } } }> };
    };
    const operations = Object.values(document.paths).flatMap((path) => Object.values(path));
    expect(operations).toHaveLength(4);
    for (const operation of operations) {
      expect(operation.responses["403"]?.description).toContain("suspended");
      expect(JSON.stringify(operation.responses["403"]?.content)).toContain("PartnerSuspended");
      expect(operation.responses["429"]?.description).toContain(`${PARTNER_KEY_RULE.limit} a second with one key`);
      expect(operation.responses["429"]?.description).toContain(
        `${PARTNER_RULE.limit} a second across all of your keys`,
      );
    }
    expect(document.components.schemas.PartnerSuspended?.properties.message.example).toBe(PARTNER_SUSPENDED);
  });
});
