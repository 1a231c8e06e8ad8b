import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../worker/app";

/** Sends a request through the Worker's Astro-free pipeline (headers, CSRF, API) against real bindings. */
export async function callApi(path: string, init?: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(new URL(path, "http://localhost"), init), env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}
