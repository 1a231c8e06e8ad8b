/**
 * The Worker's page rules against the built site (no browser needed: plain HTTP to the served Worker):
 * - the post-login redirect: the server-rendered login form follows `next` only to a path on this site;
 * - CSP nonce stamping on real pages: every <script> carries the response's nonce, new per response.
 */
import { DEMO_ADMIN, DEMO_BUYER } from "../../scripts/demo-data.ts";
import { expect, setupValue, test } from "./fixtures";

const baseURL = setupValue("E2E_BASE_URL");
const origin = new URL(baseURL).origin;
const randomOctet = () => Math.floor(Math.random() * 250) + 1;
/** Each request is its own client, so the per-address login limit counts this test's requests only. */
const clientAddress = () => `10.${randomOctet()}.${randomOctet()}.${randomOctet()}`;

function get(path: string, cookie?: string) {
  return fetch(new URL(path, baseURL), {
    redirect: "manual",
    headers: { "CF-Connecting-IP": clientAddress(), ...(cookie ? { Cookie: cookie } : {}) },
  });
}

/** Submits the login form as a browser does: a same-origin form post to the page's own address. */
function postLogin(pathWithQuery: string, user: { username: string; password: string }) {
  return fetch(new URL(pathWithQuery, baseURL), {
    method: "POST",
    redirect: "manual",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: origin,
      "CF-Connecting-IP": clientAddress(),
    },
    body: new URLSearchParams({ username: user.username, password: user.password }),
  });
}

const loginWithNext = (next: string) => `/login?next=${encodeURIComponent(next)}`;

test.describe("after login, `next` is followed only on this site", () => {
  test("a guarded page sends the visitor to log in and the form brings them back to it", async () => {
    const guarded = await get("/dashboard?tab=orders");
    expect(guarded.status).toBe(302);
    const loginPath = guarded.headers.get("location") ?? "";
    expect(loginPath).toBe(loginWithNext("/dashboard?tab=orders"));

    const login = await postLogin(loginPath, DEMO_BUYER);
    expect(login.status).toBe(303);
    expect(login.headers.get("location")).toBe("/dashboard?tab=orders");
    const cookie = login.headers.getSetCookie()[0]?.split(";")[0] ?? "";
    expect(cookie).toMatch(/^__Host-session=./);
    expect((await get("/dashboard?tab=orders", cookie)).status).toBe(200);
  });

  for (const next of [
    "https://evil.example/pricing",
    "//evil.example/pricing",
    "/\\evil.example/pricing",
    "javascript:alert(1)",
    `${origin.replace("http:", "https:")}/pricing`,
  ]) {
    test(`refuses ${next} and sends the buyer home instead`, async () => {
      const login = await postLogin(loginWithNext(next), DEMO_BUYER);
      expect(login.status).toBe(303);
      expect(login.headers.get("location")).toBe("/dashboard");
    });
  }

  test("an on-site `next` other than home is followed", async () => {
    const login = await postLogin(loginWithNext("/pricing#plans"), DEMO_BUYER);
    expect(login.headers.get("location")).toBe("/pricing#plans");
  });

  test("an admin refused an off-site `next` lands on /admin; without `next` too", async () => {
    const offSite = await postLogin(loginWithNext("https://evil.example/pricing"), DEMO_ADMIN);
    expect(offSite.headers.get("location")).toBe("/admin");
    const plain = await postLogin("/login", DEMO_ADMIN);
    expect(plain.headers.get("location")).toBe("/admin");
  });

  test("a failed login stays on the form and follows nothing", async () => {
    const failed = await postLogin(loginWithNext("/dashboard"), { username: DEMO_BUYER.username, password: "wrong" });
    expect(failed.status).toBe(401);
    expect(failed.headers.get("location")).toBeNull();
    expect(await failed.text()).toContain("Login Failed");
  });
});

function policyNonce(response: Response): string {
  const nonce = /script-src [^;]*'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
  if (!nonce) throw new Error(`no nonce in the Content-Security-Policy of ${response.url}`);
  return nonce;
}

const scriptTags = (html: string) => html.match(/<script\b[^>]*>/gi) ?? [];

test.describe("CSP nonce on served pages", () => {
  // The partner API reference (decision 0081) too: Scalar's script and the call that starts it.
  for (const path of ["/checkout", "/login", "/survey", "/ringcloud", "/api/v1/docs"]) {
    test(`every script of ${path} carries the response's nonce, and the nonce changes per response`, async () => {
      const first = await get(path);
      const second = await get(path);
      expect(first.status).toBe(200);
      const nonces = [policyNonce(first), policyNonce(second)];
      expect(nonces[0]).not.toBe(nonces[1]);
      for (const [i, response] of [first, second].entries()) {
        const tags = scriptTags(await response.text());
        expect(tags.length).toBeGreaterThan(0);
        for (const tag of tags) expect(tag).toContain(`nonce="${nonces[i]}"`);
      }
    });
  }

  test("an island page's bootstrap scripts are among those stamped", async () => {
    const response = await get("/checkout");
    const nonce = policyNonce(response);
    const html = await response.text();
    expect(html).toContain("<astro-island");
    const inline = scriptTags(html).filter((tag) => !tag.includes("src="));
    expect(inline.length).toBeGreaterThan(0);
    for (const tag of inline) expect(tag).toContain(`nonce="${nonce}"`);
  });
});
