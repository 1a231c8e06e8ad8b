import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { API_REFERENCE_SCRIPT } from "../../../../src/config/api-reference";
import { NOT_CHARGED_LABEL } from "../../../../src/features/transfers/transfers";
import { testDb } from "../../../../tests/worker/factories";
import { callApi } from "../../../../tests/worker/helpers";
import {
  clearTransfers,
  createOpenOrder,
  createPartner,
  deps,
  orderCounts,
  pingBody,
  routeAtCallingHours,
} from "../../../../tests/worker/transfer-fixtures";
import { apiKeys, transfers } from "../../../db/schema";
import { hashApiKey, revokeApiKey } from "../api-keys";
import { OPENAPI_DOCUMENT_PATH } from "../routes/partner-api-reference";

routeAtCallingHours();

beforeEach(clearTransfers);

const ping = (auth: Record<string, string>, body: unknown = pingBody()) =>
  callApi("/api/v1/transfers", { json: body, headers: auth });
const report = (auth: Record<string, string>, id: string, event: unknown) =>
  callApi(`/api/v1/transfers/${id}/events`, { json: event, headers: auth });

describe("API keys", () => {
  it("stores only the key's SHA-256 and a short prefix", async () => {
    const partner = await createPartner();
    const [row] = await testDb()
      .select({ keyHash: apiKeys.keyHash, prefix: apiKeys.prefix })
      .from(apiKeys)
      .where(eq(apiKeys.id, partner.apiKey.id));
    expect(row?.keyHash).toBe(await hashApiKey(partner.key));
    expect(row?.keyHash).not.toContain(partner.key);
    expect(partner.key.startsWith(row?.prefix ?? "?")).toBe(true);
    expect(row?.prefix.length).toBeLessThan(16);
  });

  it("refuses missing, unknown and revoked keys with 401 and a message", async () => {
    await createOpenOrder();
    const partner = await createPartner();
    const attempts: Record<string, string>[] = [
      {},
      { Authorization: "Bearer fel_unknown" },
      { Authorization: partner.key },
    ];
    for (const headers of attempts) {
      const response = await ping(headers);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ message: expect.any(String) });
    }
    expect((await ping(partner.auth)).status).toBe(201);
    await revokeApiKey(deps(), partner.id, partner.apiKey.id);
    const revoked = await ping(partner.auth);
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toEqual({ message: "This API key has been revoked." });
  });

  it("lets a partner revoke only its own keys", async () => {
    const a = await createPartner();
    const b = await createPartner();
    await expect(revokeApiKey(deps(), b.id, a.apiKey.id)).rejects.toThrow("No such API key.");
    expect((await callApi("/api/v1/transfers/x", { headers: a.auth })).status).toBe(404);
  });

  it("needs no session cookie and no same-origin headers (server to server)", async () => {
    await createOpenOrder();
    const partner = await createPartner();
    const response = await callApi("/api/v1/transfers", {
      json: pingBody(),
      headers: { ...partner.auth, Origin: "https://dialer.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("Set-Cookie")).toBeNull();
  });

  it("rate-limits each key and logs requests with the key id", async () => {
    const partner = await createPartner();
    const log = vi.spyOn(console, "log");
    const responses = await Promise.all(
      Array.from({ length: 60 }, () => callApi("/api/v1/transfers/none", { headers: partner.auth })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 404).length).toBeGreaterThan(0);
    const limited = responses.find((r) => r.status === 429);
    expect(await limited?.json()).toEqual({ message: expect.stringContaining("20 a second") });
    const lines = log.mock.calls.map((call) => String(call[0]));
    expect(lines.some((line) => line.includes(`"apiKeyId":"${partner.apiKey.id}"`))).toBe(true);
    log.mockRestore();
    // Another key is not slowed by this one.
    const other = await createPartner();
    expect((await callApi("/api/v1/transfers/none", { headers: other.auth })).status).toBe(404);
  });
});

describe("POST /api/v1/transfers", () => {
  it("routes to an open order and answers its transfer number", async () => {
    const order = await createOpenOrder({ transferPhone: "3125550142" });
    const partner = await createPartner();
    const response = await ping(partner.auth);
    expect(response.status).toBe(201);
    const answer = (await response.json()) as { transferId: string };
    expect(answer).toEqual({ transferId: expect.any(String), phoneNumber: "3125550142", expiresInSeconds: 60 });
    const [row] = await testDb()
      .select({ orderId: transfers.orderId, apiKeyId: transfers.apiKeyId, status: transfers.status })
      .from(transfers)
      .where(eq(transfers.id, answer.transferId));
    expect(row).toEqual({ orderId: order.id, apiKeyId: partner.apiKey.id, status: "routed" });
  });

  it("answers 409 with a reason when no order is open", async () => {
    const partner = await createPartner();
    const response = await ping(partner.auth);
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ reason: "no_open_order", message: expect.any(String) });
  });

  it("routes exactly one of 20 simultaneous pings to an order with one transfer left", async () => {
    const order = await createOpenOrder({ quantity: 1 });
    const partner = await createPartner();
    const responses = await Promise.all(Array.from({ length: 20 }, () => ping(partner.auth)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(await testDb().$count(transfers, eq(transfers.orderId, order.id))).toBe(1);
  });

  it.each([
    ["no body fields", {}],
    ["a missing prospect", { consent: pingBody().consent }],
    ["an unknown state", pingBody({ state: "ZZ" })],
    ["a short phone", pingBody({ phone: "555-1000" })],
    ["a bad opt-in time", { ...pingBody(), consent: { optInAt: "yesterday", optInUrl: "https://example.com" } }],
    [
      "a non-http opt-in URL",
      { ...pingBody(), consent: { optInAt: new Date().toISOString(), optInUrl: "javascript:x" } },
    ],
    ["an age as text", { ...pingBody(), prospect: { ...pingBody().prospect, age: "old" } }],
    ["a JSON array", []],
    ["a string", "ping"],
  ])("answers 400 with a message for %s", async (_name, body) => {
    await createOpenOrder();
    const partner = await createPartner();
    const response = await ping(partner.auth, body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: expect.any(String) });
  });

  it("answers 4xx, never 5xx, to broken JSON and other content types", async () => {
    const partner = await createPartner();
    for (const [contentType, body] of [
      ["application/json", "{not json"],
      ["text/plain", JSON.stringify(pingBody())],
      ["application/x-www-form-urlencoded", "a=1"],
    ]) {
      const response = await callApi("/api/v1/transfers", {
        method: "POST",
        body,
        headers: { ...partner.auth, "Content-Type": contentType as string },
      });
      expect(response.status, contentType).toBeGreaterThanOrEqual(400);
      expect(response.status, contentType).toBeLessThan(500);
      expect(await response.json()).toEqual({ message: expect.any(String) });
    }
  });
});

describe("POST /api/v1/transfers/:id/events", () => {
  async function routed(quantity = 10) {
    const order = await createOpenOrder({ quantity });
    const partner = await createPartner();
    const { transferId } = (await (await ping(partner.auth)).json()) as { transferId: string };
    return { order, partner, transferId };
  }

  it("bills a call longer than the buffer and counts it on the order", async () => {
    const { order, partner, transferId } = await routed();
    expect((await report(partner.auth, transferId, { type: "connected" })).status).toBe(200);
    const response = await report(partner.auth, transferId, { type: "completed", durationSeconds: 121 });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      transferId,
      status: "completed",
      billable: true,
      durationSeconds: 121,
    });
    expect(await orderCounts(order.id)).toMatchObject({ billable: 1, notCharged: 0, status: "paid" });
  });

  it.each([119, 120])("does not bill a %i-second call and frees its slot", async (seconds) => {
    const { order, partner, transferId } = await routed(1);
    const response = await report(partner.auth, transferId, { type: "completed", durationSeconds: seconds });
    expect(await response.json()).toMatchObject({ billable: false, outcome: NOT_CHARGED_LABEL });
    expect(await orderCounts(order.id)).toMatchObject({ billable: 0, notCharged: 1 });
    expect((await ping(partner.auth)).status).toBe(201);
  });

  it("is idempotent: a repeated event changes nothing", async () => {
    const { order, partner, transferId } = await routed();
    const first = await report(partner.auth, transferId, { type: "completed", durationSeconds: 300 });
    const again = await report(partner.auth, transferId, { type: "completed", durationSeconds: 10 });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(await first.json());
    expect(await orderCounts(order.id)).toMatchObject({ billable: 1 });
  });

  it("handles events out of order", async () => {
    const { order, partner, transferId } = await routed();
    await report(partner.auth, transferId, { type: "completed", durationSeconds: 200 });
    const late = await report(partner.auth, transferId, { type: "connected" });
    expect(late.status).toBe(200);
    expect(await late.json()).toMatchObject({ status: "completed", billable: true });
    const failed = await report(partner.auth, transferId, { type: "failed" });
    expect(await failed.json()).toMatchObject({ status: "completed" });
    expect(await orderCounts(order.id)).toMatchObject({ billable: 1 });
  });

  it("completes an order by itself when every transfer is billable-delivered", async () => {
    const { order, partner, transferId } = await routed(1);
    await report(partner.auth, transferId, { type: "completed", durationSeconds: 600 });
    expect(await orderCounts(order.id)).toMatchObject({ billable: 1, status: "completed" });
    const next = await ping(partner.auth);
    expect(next.status).toBe(409);
  });

  it("answers 404 for unknown ids and another partner's transfers", async () => {
    const { partner, transferId } = await routed();
    const other = await createPartner();
    for (const [auth, id] of [
      [other.auth, transferId],
      [partner.auth, crypto.randomUUID()],
    ] as const) {
      const response = await report(auth, id, { type: "connected" });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: "No such transfer." });
    }
    expect((await callApi(`/api/v1/transfers/${transferId}`, { headers: other.auth })).status).toBe(404);
    expect((await callApi(`/api/v1/transfers/${transferId}`, { headers: partner.auth })).status).toBe(200);
  });

  it.each([
    [{ type: "hung-up" }],
    [{ type: "completed" }],
    [{ type: "completed", durationSeconds: -1 }],
    [{ type: "completed", durationSeconds: 12.5 }],
    [{}],
  ])("answers 400 to a bad event %j", async (event) => {
    const { partner, transferId } = await routed();
    const response = await report(partner.auth, transferId, event);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: expect.any(String) });
  });
});

describe("the OpenAPI document and reference", () => {
  it("serves the document generated from the schemas", async () => {
    const response = await callApi("/api/v1/openapi.json");
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
    };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(["/transfers", "/transfers/{id}/events", "/transfers/{id}"]),
    );
    expect(Object.keys(document.paths["/transfers"]?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(["201", "409", "400", "401", "429"]),
    );
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(["Ping", "TransferEvent", "Error"]),
    );
    // What partners read in the reference: the ping's prospect phone, a completed call's duration.
    expect(document.components.schemas.Ping).toMatchObject({
      properties: { prospect: { properties: { phone: { type: "string" } } } },
    });
    expect(JSON.stringify(document.components.schemas.TransferEvent)).toContain('"durationSeconds"');
  });

  it("serves the reference UI from the shop itself, reading that document, under the site's CSP", async () => {
    const response = await callApi("/api/v1/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/html");
    const policy = response.headers.get("Content-Security-Policy") ?? "";
    const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toBeTruthy();
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain("unsafe-eval");
    expect(response.headers.get("X-Frame-Options")).toBe("DENY");
    const page = await response.text();
    // The self-hosted script, then the call that starts it on the document: both carry the response's nonce.
    expect(page.match(/<script\b[^>]*>/g)).toEqual([
      `<script src="${API_REFERENCE_SCRIPT}" nonce="${nonce}">`,
      `<script type="text/javascript" nonce="${nonce}">`,
    ]);
    expect(page).toContain(`"url": "${OPENAPI_DOCUMENT_PATH}"`);
    // Nothing from another origin (no CDN, no web fonts).
    expect(page).not.toMatch(/(src|href|url)="?(https?:)?\/\//);
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.svg" />');
    // Without JavaScript: where the document is.
    expect(page).toMatch(new RegExp(`<noscript>.*<a href="${OPENAPI_DOCUMENT_PATH}">`, "s"));
  });

  it("answers unknown partner API paths with a JSON 404", async () => {
    const response = await callApi("/api/v1/nothing-here");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: expect.any(String) });
  });
});
