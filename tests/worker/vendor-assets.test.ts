/**
 * Decision 0081: the files under /vendor/ (the API reference's script) carry their version in their name,
 * so a found one is kept by browsers for a year; a miss is not. The Worker's own pipeline (createApp) stands
 * in front of a fixed answer, as Cloudflare's assets and Astro follow it in the deployed entry.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { API_REFERENCE_SCRIPT } from "../../src/config/api-reference";
import { createApp } from "../../worker/app";

function appServing(status: number) {
  const app = createApp();
  app.get("*", () => new Response("window.Scalar = {};", { status, headers: { "Content-Type": "text/javascript" } }));
  return async (path: string) => {
    const ctx = createExecutionContext();
    const answer = await app.fetch(new Request(new URL(path, "http://localhost")), env, ctx);
    await waitOnExecutionContext(ctx);
    return answer;
  };
}

describe("versioned vendor files", () => {
  it("keeps the API reference's script for a year, with the site's security headers", async () => {
    const response = await appServing(200)(API_REFERENCE_SCRIPT);
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("Content-Security-Policy")).toContain("default-src 'self'");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(await response.text()).toBe("window.Scalar = {};");
  });

  it("does not keep a miss, nor anything outside /vendor/", async () => {
    expect((await appServing(404)("/vendor/scalar-api-reference-0.0.1.js")).headers.get("Cache-Control")).toBeNull();
    expect((await appServing(200)("/favicon.svg")).headers.get("Cache-Control")).toBeNull();
  });
});
