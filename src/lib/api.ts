/**
 * The one way the islands call the API (spec §7; decision 0019): typed by Hono's client types over the
 * Worker's own routes (`hc<Api>`), so a changed response fails `tsc` in the island that reads it.
 * `worker/api.ts` is imported as a type only: no Worker code reaches a browser bundle.
 *
 * `call(api.x.$get())` sends the request (JSON in and out; same-origin, so `fetch` sends the session
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

/** What the islands pass to a route method: the parts of Hono's client arguments they use (no array queries). */
interface RequestArgs {
  param?: Record<string, string>;
  query?: Record<string, string | undefined>;
  json?: unknown;
}

/**
 * `hono/client`'s request building for the arguments above (path, `:param`, query, JSON body, `init`),
 * without its cookie, form, WebSocket and URL helpers: hc's runtime costs ~1.5 KB gzip on every
 * island page (decision 0019). tests/unit/api-client.test.ts checks that both send the same requests.
 */
function send(path: readonly string[], method: string, args: RequestArgs = {}, options: { init?: RequestInit } = {}) {
  const query = new URLSearchParams(
    Object.entries(args.query ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const url = path
    .join("/")
    .replace(/\/:([^/]+)/g, (_, name: string) => (args.param?.[name] ? `/${args.param[name]}` : ""));
  const search = String(query);
  return fetch(`/${url}${search && `?${search}`}`, {
    method: method.toUpperCase(),
    headers: args.json === undefined ? {} : { "Content-Type": "application/json" },
    body: args.json === undefined ? undefined : JSON.stringify(args.json),
    ...options.init,
  });
}

function proxy(path: readonly string[]): unknown {
  return new Proxy(() => undefined, {
    get: (_, key) => (typeof key === "string" && key !== "then" ? proxy([...path, key]) : undefined),
    // The last name is the method: `$get` → GET.
    apply: (_, __, args: [RequestArgs?, { init?: RequestInit }?]) =>
      send(path.slice(0, -1), String(path.at(-1)).slice(1), ...args),
  });
}

/** The typed client for everything under /api: `api.me.$get()`, `api.orders[":orderId"].status.$get(…)`. */
export const api = (proxy([]) as ReturnType<typeof hc<Api, "/">>).api;

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
