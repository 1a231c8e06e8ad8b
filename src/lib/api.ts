/**
 * The one way the islands call the API (decision 0019): typed by Hono's client types over the
 * Worker's own routes (`hc<Api>`), so a changed response fails `tsc` in the island that reads it.
 * `worker/api.ts` is imported as a type only: no Worker code reaches a browser bundle.
 *
 * `api` answers to Hono's client's types (`api.x.$get()`); `call(api.x.$get())` sends the request (JSON in and out; same-origin, so `fetch` sends the session
 * cookie and the Origin the Worker's CSRF check wants) and answers the success
 * body, typed from the route. A non-OK answer throws an ApiError carrying the status and the server's
 * readable message.
 */
import type { ClientResponse, hc, InferResponseType } from "hono/client";
import type { SuccessStatusCode } from "hono/utils/http-status";
import type { Api } from "../../worker/api";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The server's `{ message }`, or the body text, or the status text. */
    readonly serverMessage: string,
    readonly fieldErrors: Record<string, string> = {},
    /** The whole JSON body, for answers that carry more than a message (e.g. a conflict's `unavailable`). */
    readonly body: Record<string, unknown> = {},
  ) {
    super(`${status}: ${serverMessage}`);
    this.name = "ApiError";
  }
}

/** What the islands hand a request: path parameters, a query, a JSON body; `init` overrides the fetch's options. */
interface RequestArgs {
  param?: Record<string, string>;
  query?: Record<string, unknown>;
  json?: unknown;
}

/**
 * The request Hono's client (`hc`) would send for `path` (`["api", "orders", ":orderId", "$get"]`), in the
 * few lines the islands need (path parameters, query, JSON body, `init`): Hono's runtime client, with its
 * cookie, form and WebSocket support, cost every page 1.9 KB gzip (docs/decisions/0074). Its types stay.
 */
function request(path: string[], args: RequestArgs = {}, options: { init?: RequestInit } = {}): Promise<Response> {
  const method = (path.at(-1) ?? "").slice(1).toUpperCase();
  let url = `/${path.slice(0, -1).join("/")}`;
  for (const [name, value] of Object.entries(args.param ?? {}))
    url = url.replace(new RegExp(`/:${name}(?:{[^/]+})?\\??(?=/|$)`), () => (value ? `/${value}` : ""));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(args.query ?? {}))
    for (const item of [value].flat()) if (item !== undefined) query.append(name, String(item));
  const search = query.toString();
  const json = args.json !== undefined;
  return fetch(search ? `${url}?${search}` : url, {
    method,
    headers: json ? { "Content-Type": "application/json" } : {},
    body: json && method !== "GET" && method !== "HEAD" ? JSON.stringify(args.json) : undefined,
    ...options.init,
  });
}

/** A path that grows with each property read and sends its request when called (`api.me.$get()`). */
const pathProxy = (path: string[]): unknown =>
  new Proxy(() => undefined, {
    get: (_target, key) => (typeof key === "string" && key !== "then" ? pathProxy([...path, key]) : undefined),
    apply: (_target, _this, args: Parameters<typeof request> extends [unknown, ...infer Rest] ? Rest : never) =>
      request(path, ...args),
  });

/** The typed client for everything under /api: `api.me.$get()`, `api.orders[":orderId"].status.$get(…)`. */
export const api = (pathProxy([]) as ReturnType<typeof hc<Api>>).api;

/** Any answer of the typed client. */
type AnyClientResponse = ClientResponse<unknown, number, "json" | "text" | "redirect" | string>;

/** The body of a route's successful JSON answers: what `call` resolves to. */
export type Ok<R> =
  R extends ClientResponse<infer T, infer S, infer F>
    ? S extends SuccessStatusCode
      ? F extends "json"
        ? T
        : never
      : never
    : never;

/** Awaits a typed-client request: the success body, typed from the route, or an ApiError. */
export async function call<R extends AnyClientResponse>(request: Promise<R>): Promise<Ok<R>> {
  const response = await request;
  const text = await response.text();
  if (response.ok) return (text ? JSON.parse(text) : null) as Ok<R>;
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) ?? {};
  } catch {
    // not JSON: the text is the message
  }
  const message = typeof body.message === "string" ? body.message : text || response.statusText;
  throw new ApiError(response.status, message, (body.errors as Record<string, string> | undefined) ?? {}, body);
}

/** The server's words for a failed call, or `fallback` when it said nothing useful. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.serverMessage) return error.serverMessage;
  return fallback;
}

/** What a typed-client method answers on success, e.g. `Answer<typeof api.users.$get>` (for props). */
export type Answer<Method> = InferResponseType<Method, SuccessStatusCode>;
