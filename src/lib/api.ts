/**
 * The one client helper every call goes through (spec §7): JSON in and out, cookies always sent.
 * A non-OK answer throws an ApiError carrying the status and the server's readable message.
 */
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

async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const text = await response.text();
  let message = text || response.statusText;
  let fieldErrors: Record<string, string> = {};
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
    if (typeof body.message === "string") message = body.message;
    fieldErrors = (body.errors as Record<string, string> | undefined) ?? {};
  } catch {
    // not JSON: keep the text
  }
  throw new ApiError(response.status, message, fieldErrors, body);
}

export async function apiRequest<T = unknown>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    credentials: "include",
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await throwIfNotOk(response);
  const text = await response.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** A multipart upload (files and fields), with the same error handling as `apiRequest`. */
export async function apiUpload<T = unknown>(url: string, form: FormData): Promise<T> {
  const response = await fetch(url, { method: "POST", credentials: "include", body: form });
  await throwIfNotOk(response);
  return (await response.json()) as T;
}

/** The server's words for a failed call, or `fallback` when it said nothing useful. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.serverMessage) return error.serverMessage;
  return fallback;
}
