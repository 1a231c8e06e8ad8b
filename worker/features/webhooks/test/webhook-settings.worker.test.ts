/**
 * Integration settings: endpoints through the API — the cap of five, the secret
 * shown once and stored encrypted, rotation, the address guard on save, bad input as a clear 4xx and
 * never a 5xx, ownership (another buyer's endpoint or log is 404), and webhooks refused without their key.
 */

import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WEBHOOK_ENDPOINT_NAME_MAX, WEBHOOK_MAX_ENDPOINTS } from "../../../../src/features/webhook-outbox/events";
import { DEVELOPMENT_WEBHOOK_SECRETS_KEY } from "../../../../src/features/webhooks/dev-key";
import type { WebhookEndpointView } from "../../../../src/features/webhooks/schemas/webhook-settings";
import { generateSecretsKey } from "../../../../src/features/webhooks/secret-box";
import { WEBHOOK_SECRET_PATTERN } from "../../../../src/features/webhooks/signature";
import { testDb } from "../../../../tests/worker/factories";
import { storedRow as storedRowOf } from "../../../../tests/worker/factories/rows";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import { signedInPartner } from "../../../../tests/worker/partner-helpers";
import { addEndpoint, fakeQueue, stubDns } from "../../../../tests/worker/webhook-fixtures";
import { webhookDeliveries, webhookEndpoints } from "../../../db/schema";
import { TOO_MANY_ENDPOINTS } from "../endpoints";
import { WEBHOOKS_UNAVAILABLE } from "../keys";

afterEach(() => vi.restoreAllMocks());

const ENDPOINTS = "/api/webhook-endpoints";
const valid = { name: "My CRM", url: "https://crm.buyer-test.com/hooks", events: ["lead.purchased"] };
const PRODUCTION = { APP_ENV: "production", WEBHOOK_SECRETS_KEY: generateSecretsKey("k1") };

async function storedRow(id: string) {
  return (await storedRowOf(testDb(), webhookEndpoints, eq(webhookEndpoints.id, id))) as
    | { secret: string; previous_secret: string | null; previous_secret_expires_at: number | null }
    | undefined;
}

describe("adding endpoints", () => {
  it("answers the signing secret once, stores it encrypted, and lists the endpoint without it", async () => {
    const { cookie } = await signedIn();
    const created = await addEndpoint(cookie, { events: ["transfer.billable", "lead.purchased", "lead.purchased"] });
    expect(created.secret).toMatch(WEBHOOK_SECRET_PATTERN);
    // In the list's own order, each once; switched on by default.
    expect(created).toMatchObject({ name: "My CRM", enabled: true, events: ["lead.purchased", "transfer.billable"] });
    const row = await storedRow(created.id);
    expect(row?.secret).toMatch(/^enc1:dev:/);
    expect(row?.secret).not.toContain(created.secret.slice(6));
    const list = await (await callApi(ENDPOINTS, { cookie })).json<WebhookEndpointView[]>();
    expect(list.map((endpoint) => endpoint.id)).toEqual([created.id]);
    expect(JSON.stringify(list)).not.toContain(created.secret);
    expect(list[0]).not.toHaveProperty("secret");
  });

  it(`refuses a sixth endpoint with a 409 (at most ${WEBHOOK_MAX_ENDPOINTS})`, async () => {
    const { cookie } = await signedIn();
    for (let i = 0; i < WEBHOOK_MAX_ENDPOINTS; i++) await addEndpoint(cookie, { name: `CRM ${i}` });
    const dns = stubDns();
    const response = await callApi(ENDPOINTS, { cookie, json: valid });
    dns.mockRestore();
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ message: TOO_MANY_ENDPOINTS });
  });

  it("lets five requests at once add at most the five an account may have", async () => {
    const { cookie } = await signedIn();
    await addEndpoint(cookie);
    await addEndpoint(cookie);
    const dns = stubDns();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => callApi(ENDPOINTS, { cookie, json: valid }).then((r) => r.status)),
    );
    dns.mockRestore();
    expect(answers.filter((status) => status === 201)).toHaveLength(3);
    expect(answers.filter((status) => status === 409)).toHaveLength(3);
  });

  it.each([
    ["a plain http URL", { url: "http://crm.buyer-test.com/hooks" }, /must use https/],
    ["no URL", { url: "" }, /full URL, starting with https/],
    ["not a URL", { url: "crm at my office" }, /full URL/],
    ["a URL with a password", { url: "https://me:pw@crm.buyer-test.com/" }, /user name or password/],
    ["a URL longer than 2,000 characters", { url: `https://crm.buyer-test.com/${"a".repeat(2000)}` }, /longer than/],
    ["a private address", { url: "https://10.1.2.3/hooks" }, /private/],
    ["the metadata address", { url: "https://169.254.169.254/latest/meta-data" }, /link-local|metadata/],
    ["a metadata host name", { url: "https://metadata.google.internal/" }, /metadata/],
    ["an octal loopback", { url: "https://0177.0.0.1/" }, /four decimal numbers/],
    ["an IPv6 loopback", { url: "https://[::1]/" }, /loopback/],
    ["an unknown event", { events: ["lead.sold"] }, /Unknown event/],
    ["no events", { events: [] }, /at least one event/],
    ["events that are not a list", { events: "lead.purchased" }, /at least one event/],
    ["a name over the limit", { name: "n".repeat(WEBHOOK_ENDPOINT_NAME_MAX + 1) }, /under 100 characters/],
    ["a huge name", { name: "n".repeat(500_000) }, /under 100 characters/],
    ["a blank name", { name: "   " }, /Give the endpoint a name/],
    ["a switch that is not true or false", { enabled: "yes" }, /on \(true\) or off/],
  ])("answers 400 with the reason to %s (as in production)", async (_label, change, message) => {
    const { cookie } = await signedIn();
    const dns = stubDns();
    const response = await callApi(ENDPOINTS, { cookie, env: PRODUCTION, json: { ...valid, ...change } });
    dns.mockRestore();
    expect(response.status).toBe(400);
    expect((await response.json<{ message: string }>()).message).toMatch(message);
  });

  it("answers 400 to a body that is not JSON and 413 to one over 2 MB, never a 5xx", async () => {
    const { cookie } = await signedIn();
    const broken = await callApi(ENDPOINTS, {
      cookie,
      body: "{not json",
      headers: { "Content-Type": "application/json" },
    });
    expect(broken.status).toBe(400);
    const huge = await callApi(ENDPOINTS, { cookie, json: { ...valid, name: "n".repeat(3 * 1024 * 1024) } });
    expect(huge.status).toBe(413);
  });

  it("refuses, in production, a host name that resolves to a private address", async () => {
    const { cookie } = await signedIn();
    const dns = stubDns((host) => (host === "inside.buyer-test.com" ? ["93.184.216.34", "192.168.1.20"] : []));
    const response = await callApi(ENDPOINTS, {
      cookie,
      env: PRODUCTION,
      json: { ...valid, url: "https://inside.buyer-test.com/hooks" },
    });
    dns.mockRestore();
    expect(response.status).toBe(400);
    const body = await response.json<{ message: string; errors: { url: string } }>();
    expect(body.message).toBe(
      "inside.buyer-test.com resolves to 192.168.1.20, a private address (192.168.0.0/16): webhooks go only to public internet addresses.",
    );
    expect(body.errors.url).toBe(body.message);
  });

  it("allows plain http to localhost while developing, never in production", async () => {
    const { cookie } = await signedIn();
    const local = { ...valid, url: "http://localhost:8799/" };
    expect((await callApi(ENDPOINTS, { cookie, json: local })).status).toBe(201);
    const response = await callApi(ENDPOINTS, { cookie, env: PRODUCTION, json: local });
    expect(response.status).toBe(400);
    expect((await response.json<{ message: string }>()).message).toBe("The endpoint must use https://.");
  });
});

describe("limits", () => {
  it("lets a buyer save endpoints 10 times a minute (each save looks a host up), then answers 429", async () => {
    const { cookie } = await signedIn();
    const dns = stubDns();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push((await callApi(ENDPOINTS, { cookie, json: { ...valid, url: `https://10.0.0.${i}/` } })).status);
    }
    dns.mockRestore();
    expect(statuses.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe("without their key, webhooks do not start", () => {
  it.each([
    ["no WEBHOOK_SECRETS_KEY", { APP_ENV: "production", WEBHOOK_SECRETS_KEY: undefined }],
    ["the public development key", { APP_ENV: "production", WEBHOOK_SECRETS_KEY: DEVELOPMENT_WEBHOOK_SECRETS_KEY }],
  ])("answers 503 to a new endpoint in production with %s, and health says why", async (_label, config) => {
    const { cookie } = await signedIn();
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const dns = stubDns();
    const response = await callApi(ENDPOINTS, { cookie, env: config, json: valid });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ message: WEBHOOKS_UNAVAILABLE });
    expect(error).toHaveBeenCalled();
    const health = await (await callApi("/api/health", { env: config })).json<{ webhooks: string }>();
    expect(health.webhooks).toBe(config.WEBHOOK_SECRETS_KEY ? "development-key" : "missing");
    dns.mockRestore();
  });
});

describe("changing, rotating and deleting", () => {
  it("rotates the secret: the new one is shown once and the old one keeps signing for 24 hours", async () => {
    const { cookie } = await signedIn();
    const created = await addEndpoint(cookie);
    const before = await storedRow(created.id);
    const response = await callApi(`${ENDPOINTS}/${created.id}/rotate-secret`, { cookie, method: "POST" });
    expect(response.status).toBe(200);
    const rotated = await response.json<{ secret: string; previousSecretExpiresAt: string }>();
    expect(rotated.secret).toMatch(WEBHOOK_SECRET_PATTERN);
    expect(rotated.secret).not.toBe(created.secret);
    const after = await storedRow(created.id);
    expect(after?.previous_secret).toBe(before?.secret);
    const grace = Date.parse(rotated.previousSecretExpiresAt) - Date.now();
    expect(grace).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(grace).toBeLessThanOrEqual(24 * 3600_000);
  });

  it("renames, re-subscribes and switches an endpoint off and on; a new URL is checked again", async () => {
    const { cookie } = await signedIn();
    const created = await addEndpoint(cookie);
    const patch = (json: unknown) => callApi(`${ENDPOINTS}/${created.id}`, { cookie, method: "PATCH", json });
    const renamed = await patch({ name: "Dialer", events: ["transfer.routed"], enabled: false });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ name: "Dialer", events: ["transfer.routed"], enabled: false });
    await testDb()
      .update(webhookEndpoints)
      .set({ failingSince: new Date(1) })
      .where(eq(webhookEndpoints.id, created.id));
    expect(await (await patch({ enabled: true })).json()).toMatchObject({ enabled: true, failingSince: null });
    const refused = await callApi(`${ENDPOINTS}/${created.id}`, {
      cookie,
      method: "PATCH",
      env: PRODUCTION,
      json: { url: "https://192.168.0.1/" },
    });
    expect(refused.status).toBe(400);
    expect((await patch({})).status).toBe(400);
  });

  it("deletes an endpoint with its log", async () => {
    const { cookie } = await signedIn();
    const created = await addEndpoint(cookie);
    const queue = fakeQueue();
    await callApi(`${ENDPOINTS}/${created.id}/test`, { cookie, method: "POST", env: { WEBHOOK_QUEUE: queue.queue } });
    expect((await callApi(`${ENDPOINTS}/${created.id}`, { cookie, method: "DELETE" })).status).toBe(200);
    expect(await testDb().$count(webhookDeliveries, eq(webhookDeliveries.endpointId, created.id))).toBe(0);
    expect((await callApi(ENDPOINTS, { cookie })).status).toBe(200);
  });
});

describe("who may call", () => {
  it("answers 404 for another buyer's endpoint and its log, whatever the action", async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const created = await addEndpoint(owner.cookie);
    const queue = fakeQueue();
    const base = `${ENDPOINTS}/${created.id}`;
    const attempts: [string, string, unknown?][] = [
      ["PATCH", base, { name: "Mine now" }],
      ["DELETE", base],
      ["POST", `${base}/rotate-secret`],
      ["POST", `${base}/test`],
      ["GET", `${base}/deliveries`],
      ["POST", `${base}/deliveries/evt_00000000000000000000000000000000/resend`],
      ["POST", `${base}/resend-failed`, { from: "2026-01-01T00:00:00Z", to: "2026-12-31T00:00:00Z" }],
    ];
    for (const [method, path, json] of attempts) {
      const response = await callApi(path, { cookie: other.cookie, method, json, env: { WEBHOOK_QUEUE: queue.queue } });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(await response.json()).toEqual({ message: "No such endpoint." });
    }
    expect(queue.sent).toEqual([]);
    expect(await (await callApi(ENDPOINTS, { cookie: other.cookie })).json()).toEqual([]);
    expect(await storedRow(created.id)).not.toBeNull();
  });

  it("answers 401 to anonymous callers and 403 to partners", async () => {
    expect((await callApi(ENDPOINTS)).status).toBe(401);
    const partner = await signedInPartner();
    expect((await callApi(ENDPOINTS, { cookie: partner.cookie })).status).toBe(403);
  });
});
