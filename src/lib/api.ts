/**
 * The one way the islands call the API (decision 0019): typed by Hono's client types over the
 * Worker's own routes (`hc<Api>`), so a changed response fails `tsc` in the island that reads it.
 * `worker/api.ts` is imported as a type only: no Worker code reaches a browser bundle.
 *
 * `api` is Hono's own client (`hc`); `call(api.x.$get())` sends the request (JSON in and out; same-origin, so `fetch` sends the session
 * cookie and the Origin the Worker's CSRF check wants) and answers the success
 * body, typed from the route. A non-OK answer throws an ApiError carrying the status and the server's
 * readable message.
 */
import { type ClientResponse, hc, type InferResponseType } from "hono/client";
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

/** The typed client for everything under /api: `api.me.$get()`, `api.orders[":orderId"].status.$get(…)`. */
export const api = hc<Api>("/").api;

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
