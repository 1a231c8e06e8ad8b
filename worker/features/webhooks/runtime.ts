/**
 * What webhook delivery reaches outside the database: the network (the buyer's endpoint, DNS over HTTPS
 * for the address guard) and a random source for jitter. The Worker uses the real ones; tests pass fakes.
 */
import type { RandomSource } from "../../../src/features/webhooks/delivery";
import {
  checkWebhookTarget,
  dohResolver,
  type ResolveHost,
  webhookEnvironment,
} from "../../../src/features/webhooks/ssrf";
import type { Env } from "../../env";
import { InvalidError } from "../../errors";
import type { Fetcher } from "./send";

export interface WebhookRuntime {
  fetch: Fetcher;
  resolveHost: ResolveHost;
  random: RandomSource;
  /** Tests only: a shorter per-request timeout than WEBHOOK_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Tests only: a shorter send window than WEBHOOK_SEND_WINDOW_MS (src/features/webhooks/schedule.ts). */
  sendWindowMs?: number;
}

// `fetch` is looked up at each call, not captured once, so a test's stub of globalThis.fetch applies.
export const workerRuntime = (): WebhookRuntime => ({
  fetch: (input, init) => fetch(input, init),
  resolveHost: dohResolver((url, init) => fetch(url, init)),
  random: Math.random,
});

/**
 * The endpoint URL as it will be requested, or an InvalidError (400) with the address guard's message
 * for the URL field: https, a public host name or address (resolved), an ordinary port.
 */
export async function checkedEndpointUrl(env: Pick<Env, "APP_ENV">, url: string, runtime: WebhookRuntime) {
  const checked = await checkWebhookTarget(url, webhookEnvironment(env.APP_ENV), runtime.resolveHost);
  if (!checked.ok) throw new InvalidError(checked.message, { errors: { url: checked.message } });
  return checked.url;
}
