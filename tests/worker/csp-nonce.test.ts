/**
 * CSP nonce stamping (decision 0006): every <script> of a served page carries the
 * nonce of that response's Content-Security-Policy, and the nonce is new for every response. The pages
 * are not built inside workerd, so the Worker's own pipeline (createApp) serves a page the way Astro and
 * the ASSETS binding hand one over: HTML with Astro's island bootstrap and module scripts.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../worker/app";

/** The shape of a pre-rendered page with one React island, as Astro emits it. */
const PAGE = `<!DOCTYPE html><html lang="en"><head>
<script type="module" src="/_astro/page.abc123.js"></script>
<SCRIPT>window.dataLayer = [];</SCRIPT>
</head><body>
<astro-island uid="Z1" component-url="/_astro/Checkout.def456.js" client="load">
<script>(()=>{var e=async t=>{await(await t())()};(self.Astro||(self.Astro={})).load=e;window.dispatchEvent(new Event("astro:load"));})();</script>
</astro-island>
<script nonce="stale-from-cache">console.log("kept, with the new nonce")</script>
<script type="application/json" id="props">{"a":1}</script>
</body></html>`;

function appServing(response: () => Response) {
  const app = createApp();
  // What follows the API in the deployed entry (Cloudflare's assets, then Astro): here, one fixed answer.
  app.get("*", () => response());
  return async (path: string) => {
    const ctx = createExecutionContext();
    const answer = await app.fetch(new Request(new URL(path, "http://localhost")), env, ctx);
    await waitOnExecutionContext(ctx);
    return answer;
  };
}

const htmlPage = (headers: Record<string, string> = {}) =>
  new Response(PAGE, { headers: { "Content-Type": "text/html; charset=utf-8", ETag: '"v1"', ...headers } });

function policyNonce(response: Response): string {
  const nonce = /script-src [^;]*'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
  if (!nonce) throw new Error("no nonce in the Content-Security-Policy");
  return nonce;
}

const scriptTags = (html: string) => html.match(/<script\b[^>]*>/gi) ?? [];

describe("CSP nonce stamping", () => {
  it("puts the response's nonce on every script of the page, the island bootstrap included", async () => {
    const serve = appServing(() => htmlPage());
    const response = await serve("/pricing");
    expect(response.status).toBe(200);
    const nonce = policyNonce(response);
    const html = await response.text();
    const tags = scriptTags(html);
    expect(tags).toHaveLength(5);
    for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`);
    expect(html).not.toContain("stale-from-cache");
    // Only attributes change: the scripts themselves are served as they were.
    expect(html).toContain('window.dispatchEvent(new Event("astro:load"))');
    expect(html.replace(/ nonce="[^"]*"/g, "")).toBe(PAGE.replace(/ nonce="[^"]*"/g, ""));
  });

  it("gives every response a different nonce, and the page cannot be cached with an old one", async () => {
    const serve = appServing(() => htmlPage());
    const first = await serve("/pricing");
    const second = await serve("/pricing");
    const [a, b] = [policyNonce(first), policyNonce(second)];
    expect(a).not.toBe(b);
    expect(scriptTags(await first.text())[0]).toContain(`nonce="${a}"`);
    expect(scriptTags(await second.text())[0]).toContain(`nonce="${b}"`);
    for (const response of [first, second]) {
      expect(response.headers.get("etag")).toBeNull();
      expect(response.headers.get("cache-control")).toBe("no-cache");
    }
  });

  it("keeps a page's own no-store", async () => {
    const serve = appServing(() => htmlPage({ "Cache-Control": "no-store" }));
    expect((await serve("/login")).headers.get("cache-control")).toBe("no-store");
  });

  it("leaves other content untouched but still sends the policy", async () => {
    const script = '<script>not html</script>document.title = "x";';
    const serve = appServing(
      () => new Response(script, { headers: { "Content-Type": "text/javascript", ETag: '"js1"' } }),
    );
    const response = await serve("/_astro/page.abc123.js");
    expect(await response.text()).toBe(script);
    expect(response.headers.get("etag")).toBe('"js1"');
    expect(policyNonce(response)).toBeTruthy();
  });

  it("an API answer carries the policy and is not rewritten", async () => {
    const serve = appServing(() => htmlPage());
    const response = await serve("/api/health");
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(policyNonce(response)).toBeTruthy();
    expect(await response.json()).toMatchObject({ ok: true });
  });
});
