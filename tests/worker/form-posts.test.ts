/** The no-JavaScript auth forms hand their fields to the JSON API in-process (decision 0016). */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { postToApi, redirectWithCookies } from "../../worker/form-posts";
import { createBuyer, testDb } from "./factories";
import { callApi } from "./helpers";

/** The form post as the browser sends it to the page (the page, not the API, receives it). */
const formPost = (cookie = "") =>
  new Request("http://localhost/login", {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "CF-Connecting-IP": `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: "ignored=1",
  });

async function post(path: `/api/${string}`, body: unknown, request = formPost()) {
  const ctx = createExecutionContext();
  const answer = await postToApi(request, path, body, ctx);
  await waitOnExecutionContext(ctx);
  return answer;
}

describe("postToApi", () => {
  it("signs in through POST /api/login and hands back the session cookie", async () => {
    const user = await createBuyer(testDb());
    const answer = await post("/api/login", { username: user.username, password: user.password });
    expect(answer.ok).toBe(true);
    expect(answer.body).toMatchObject({ username: user.username });
    const cookie = answer.setCookies[0]?.split(";")[0] ?? "";
    expect(cookie).toMatch(/=.+/);
    // The cookie is a real session: the API knows the user with it.
    const me = await callApi("/api/me", { cookie });
    expect(await me.json()).toMatchObject({ username: user.username });
  });

  it("answers the API's own status, message and field errors", async () => {
    const user = await createBuyer(testDb());
    const wrong = await post("/api/login", { username: user.username, password: "not-the-password" });
    expect(wrong).toMatchObject({ ok: false, status: 401, body: { message: "Invalid credentials" } });
    const blank = await post("/api/login", { username: "", password: "" });
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toMatchObject({ username: "Username is required", password: "Password is required" });
  });

  it("does not forward Origin or Sec-Fetch-Site: the page (checkOrigin) guards the post, the API call is the site.s own", async () => {
    const request = formPost();
    request.headers.set("Origin", "https://evil.example");
    request.headers.set("Sec-Fetch-Site", "cross-site");
    // Astro's checkOrigin refuses such a post before the page runs; the API call itself is the site's own.
    const answer = await post("/api/forgot-password", { email: "nobody@example.com" }, request);
    expect(answer.status).toBe(200);
  });
});

describe("redirectWithCookies", () => {
  it("answers 303 to the page with every cookie", () => {
    const response = redirectWithCookies("/dashboard", ["a=1; Path=/", "b=2; Path=/"]);
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/dashboard");
    expect(response.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
  });
});

describe("Content-Security-Policy", () => {
  it("lets confetti draw in a blob worker and still refuses eval", async () => {
    const csp = (await callApi("/api/health")).headers.get("content-security-policy") ?? "";
    expect(csp).toContain("worker-src 'self' blob:");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' https:\/\/js\.stripe\.com https:\/\/\*\.js\.stripe\.com;/);
  });
});
