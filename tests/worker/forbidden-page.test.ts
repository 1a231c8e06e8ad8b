/**
 * The 403 page fits who reads it. The guard serves the pre-rendered 403 page with its
 * audience and home link set for the reader, so a partner is linked to /partner (not to a buyer page that
 * answers 403 again), a buyer to /dashboard and an admin to /admin.
 */
import { describe, expect, it } from "vitest";
import { callApi, signedIn } from "./helpers";
import { signedInPartner } from "./partner-helpers";

/** The 403 page as src/pages/403.astro builds it: its marked audience and home link. */
const BUILT_403 = `<!doctype html><html><body><main><h1>403 Access Denied</h1>
<p>This page is for <span data-403-audience>administrators</span>. You are signed in with an account that cannot open it.</p>
<a data-403-home href="/dashboard">Go to your dashboard</a> <a href="/api/logout">Log out</a></main></body></html>`;

const assets = {
  fetch: async (request: Request | URL | string) =>
    new URL(request instanceof Request ? request.url : request).pathname === "/403"
      ? new Response(BUILT_403, { headers: { "Content-Type": "text/html" } })
      : new Response("not found", { status: 404 }),
};

async function forbidden(path: string, cookie: string) {
  const response = await callApi(path, { cookie, env: { ASSETS: assets } });
  expect(response.status, path).toBe(403);
  const html = await response.text();
  const audience = html.match(/<span data-403-audience>([^<]*)<\/span>/)?.[1];
  const home = html.match(/<a data-403-home href="([^"]*)">([^<]*)<\/a>/);
  return { audience, href: home?.[1], label: home?.[2], html };
}

describe("the 403 page", () => {
  it("tells a partner that buyer and admin pages are not theirs, and links the partner portal", async () => {
    const partner = await signedInPartner();
    for (const path of ["/dashboard", "/transfer-checkout"]) {
      expect(await forbidden(path, partner.cookie)).toMatchObject({
        audience: "buyers and administrators",
        href: "/partner",
        label: "Go to the partner portal",
      });
    }
    for (const path of ["/admin", "/admin-orders"]) {
      expect(await forbidden(path, partner.cookie)).toMatchObject({
        audience: "administrators",
        href: "/partner",
        label: "Go to the partner portal",
      });
    }
  });

  it("links a buyer on /partner or /admin to their dashboard", async () => {
    const buyer = await signedIn();
    expect(await forbidden("/partner", buyer.cookie)).toMatchObject({
      audience: "partner call centers",
      href: "/dashboard",
      label: "Go to your dashboard",
    });
    expect(await forbidden("/admin", buyer.cookie)).toMatchObject({ audience: "administrators", href: "/dashboard" });
  });

  it("links an admin on /partner to the admin panel, and keeps the rest of the page", async () => {
    const admin = await signedIn({ isAdmin: true });
    const page = await forbidden("/partner", admin.cookie);
    expect(page).toMatchObject({ audience: "partner call centers", href: "/admin", label: "Go to the admin panel" });
    expect(page.html).toContain('<a href="/api/logout">Log out</a>');
    expect(page.html).toContain("403 Access Denied");
  });
});
