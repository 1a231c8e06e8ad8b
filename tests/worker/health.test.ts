import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../worker/app";
import { callApi as call } from "./helpers";

describe("GET /api/health", () => {
  it("answers ok after a D1 round trip on the migrated database", async () => {
    const response = await call("/api/health");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ok: true,
      database: "ready",
      payments: "simulated",
      siteUrl: "development",
      webhooks: "ready",
    });
  });

  it("carries the security headers", async () => {
    const response = await call("/api/health");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("unknown API paths", () => {
  it("answer 404 with a readable JSON message", async () => {
    const response = await call("/api/does-not-exist", { method: "POST" });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: "Not found" });
  });
});

describe("queue consumer", () => {
  it("acknowledges a message it cannot process instead of retrying it forever", async () => {
    const batch = createMessageBatch("leads-shop-imports", [
      { id: "m1", timestamp: new Date(), attempts: 1, body: { kind: "unknown" } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(["m1"]);
    expect(result.retryMessages).toEqual([]);
  });
});
