/**
 * Login, forgot-password and reset-password work without JavaScript (decision 0016): their pages take
 * the form post and hand the fields to the JSON API in-process, so validation, throttling, CSRF checks,
 * sessions and messages are exactly the API's own. Nothing here decides anything about accounts.
 */
import { env } from "cloudflare:workers";
import { api } from "./api";
import type { Env } from "./env";

export interface ApiAnswer {
  ok: boolean;
  status: number;
  /** The API's JSON answer; on failure `message` and, for invalid fields, `errors` by field name. */
  body: { message?: string; errors?: Record<string, string> } & Record<string, unknown>;
  setCookies: string[];
}

/** The posted form's text fields (files and missing fields are left out). */
export async function formFields(request: Request): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  for (const [name, value] of await request.formData()) if (typeof value === "string") fields[name] = value;
  return fields;
}

/** What the API reads of the visitor: the session cookie and the client address (throttling). */
const FORWARDED_HEADERS = ["Cookie", "CF-Connecting-IP", "User-Agent"];

/**
 * POSTs `body` as JSON to the API path as the visitor (cookie, address). It is the page asking, from
 * its own origin: Astro's checkOrigin has already refused form posts from other sites.
 */
export async function postToApi(
  request: Request,
  path: `/api/${string}`,
  body: unknown,
  ctx: ExecutionContext,
): Promise<ApiAnswer> {
  const url = new URL(path, request.url);
  const headers = new Headers({ "Content-Type": "application/json", Origin: url.origin });
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const response = await api.fetch(
    new Request(url, { method: "POST", headers, body: JSON.stringify(body) }),
    env as unknown as Env,
    ctx,
  );
  const answer = (await response.json().catch(() => ({}))) as ApiAnswer["body"];
  return { ok: response.ok, status: response.status, body: answer, setCookies: response.headers.getSetCookie() };
}

/** A 303 to `location` carrying the API's cookies (the session after a login). */
export function redirectWithCookies(location: string, setCookies: string[]): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
  return new Response(null, { status: 303, headers });
}
