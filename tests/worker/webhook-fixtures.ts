/**
 * Buyer webhooks under test: a Queue that keeps what it is given (the test plays the Queue, with its own
 * clock), a network that answers for the buyer's endpoint and for DNS over HTTPS, and endpoints made
 * through the API.
 */
import { env } from "cloudflare:workers";
import { asc, eq } from "drizzle-orm";
import { expect, vi } from "vitest";
import type { WebhookEndpointWithSecret } from "../../src/features/webhooks/schemas/webhook-settings";
import { DOH_ENDPOINT } from "../../src/features/webhooks/ssrf";
import { webhookDeliveries, webhookEvents } from "../../worker/db/schema";
import { createDeps } from "../../worker/deps";
import type { DeliveryKey, WebhookDeliveryMessage } from "../../worker/features/webhook-outbox/record";
import { type DeliveryReport, deliverWebhooks } from "../../worker/features/webhooks/deliver";
import type { WebhookRuntime } from "../../worker/features/webhooks/runtime";
import { testDb } from "./factories";
import { storedRows } from "./factories/rows";
import { callApi } from "./helpers";

/** A public address every name resolves to unless a test says otherwise. */
const PUBLIC_ADDRESS = "93.184.216.34";

interface QueuedMessage extends DeliveryKey {
  delaySeconds: number;
}

/** A Queue producer that keeps every message, for the test to deliver when it wants. */
export function fakeQueue() {
  const sent: QueuedMessage[] = [];
  const take = (body: WebhookDeliveryMessage, delaySeconds = 0) =>
    sent.push({ eventId: body.eventId, endpointId: body.endpointId, delaySeconds });
  const queue = {
    send: async (body: WebhookDeliveryMessage, options?: { delaySeconds?: number }) =>
      void take(body, options?.delaySeconds),
    sendBatch: async (messages: { body: WebhookDeliveryMessage; delaySeconds?: number }[]) => {
      for (const message of messages) take(message.body, message.delaySeconds);
    },
  };
  return {
    sent,
    queue: queue as unknown as Queue<unknown>,
    env: { ...env, WEBHOOK_QUEUE: queue as unknown as Queue<unknown> } as Cloudflare.Env,
    /** Removes and answers every message queued so far. */
    drain: () => sent.splice(0, sent.length),
  };
}
export type FakeQueue = ReturnType<typeof fakeQueue>;

export interface Received {
  url: string;
  headers: Headers;
  body: string;
  redirect: RequestRedirect | undefined;
  /** The test clock when it was sent. */
  at: number;
}

/** The buyer's side of the network: what each POST answers, and what each host resolves to. */
export function fakeNetwork(answer: (request: Received) => Response | Promise<Response> = () => new Response("ok")) {
  const received: Received[] = [];
  const dns = new Map<string, string[]>();
  const clock = { now: Date.now() };
  const network = {
    received,
    dns,
    clock,
    answer,
    runtime: (): WebhookRuntime => ({
      fetch: async (input, init) => {
        const request = {
          url: input,
          headers: new Headers(init.headers),
          body: String(init.body),
          redirect: init.redirect,
          at: clock.now,
        };
        received.push(request);
        return network.answer(request);
      },
      resolveHost: async (host) => dns.get(host) ?? [PUBLIC_ADDRESS],
      random: () => 0.5,
    }),
  };
  return network;
}
export type FakeNetwork = ReturnType<typeof fakeNetwork>;

/** DNS over HTTPS as the Worker asks it (for requests through the API): every name → `addresses`. */
export function stubDns(addresses: (host: string) => string[] = () => [PUBLIC_ADDRESS]) {
  const real = globalThis.fetch;
  return vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (`${url.origin}${url.pathname}` !== DOH_ENDPOINT) return real(input, init);
    const host = url.searchParams.get("name") ?? "";
    const type = url.searchParams.get("type") === "AAAA" ? 28 : 1;
    const answers = addresses(host).filter((address) => address.includes(":") === (type === 28));
    return Response.json({ Status: 0, Answer: answers.map((data) => ({ name: host, type, data })) });
  });
}

/**
 * Plays the Queue with a clock: delivers every message once it is due, moving the clock to the next
 * due message, until nothing is left or `until` passes. Answers each batch's report.
 */
export async function runQueue(
  queue: FakeQueue,
  network: FakeNetwork,
  options: { from: number; until?: number; batchSize?: number } = { from: Date.now() },
): Promise<DeliveryReport[]> {
  const reports: DeliveryReport[] = [];
  const pending: { key: DeliveryKey; due: number }[] = [];
  let now = options.from;
  const collect = () => {
    for (const message of queue.drain()) pending.push({ key: message, due: now + message.delaySeconds * 1000 });
  };
  collect();
  while (pending.length > 0) {
    pending.sort((a, b) => a.due - b.due);
    now = Math.max(now, pending[0]?.due ?? now);
    if (options.until !== undefined && now > options.until) break;
    const due = pending.filter((item) => item.due <= now).slice(0, options.batchSize ?? 100);
    for (const item of due) pending.splice(pending.indexOf(item), 1);
    network.clock.now = now;
    reports.push(
      await deliverWebhooks(
        createDeps(queue.env, now),
        due.map((item) => item.key),
        network.runtime(),
      ),
    );
    collect();
  }
  return reports;
}

export interface EndpointInput {
  name?: string;
  url?: string;
  events?: string[];
  enabled?: boolean;
}

/** Keys like a deployment's (not the development key), for tests that run as in production. */
export const PRODUCTION = {
  APP_ENV: "production",
  WEBHOOK_SECRETS_KEY: "k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
};

/** Adds an endpoint through the API (DNS stubbed to a public address) and answers it with its secret. */
export async function addEndpoint(
  cookie: string,
  input: EndpointInput = {},
  config: Partial<Record<keyof typeof env, unknown>> = {},
): Promise<WebhookEndpointWithSecret> {
  const dns = stubDns();
  try {
    const response = await callApi("/api/webhook-endpoints", {
      cookie,
      env: config,
      json: {
        name: input.name ?? "My CRM",
        url: input.url ?? "https://crm.buyer-test.com/hooks",
        events: input.events ?? ["lead.purchased", "order.paid"],
        ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
      },
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return response.json<WebhookEndpointWithSecret>();
  } finally {
    dns.mockRestore();
  }
}

export interface DeliveryRow {
  event_id: string;
  endpoint_id: string;
  type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  answer: string | null;
  next_attempt_at: number;
}

export async function deliveriesOf(endpointId: string): Promise<DeliveryRow[]> {
  const rows = await storedRows(
    testDb(),
    webhookDeliveries,
    eq(webhookDeliveries.endpointId, endpointId),
    asc(webhookDeliveries.eventCreatedAt),
    asc(webhookDeliveries.rank),
    asc(webhookDeliveries.eventId),
  );
  return rows as unknown as DeliveryRow[];
}

export async function eventsOf(
  userId: string,
): Promise<{ id: string; type: string; subject_id: string; payload: string | null }[]> {
  const rows = await storedRows(
    testDb(),
    webhookEvents,
    eq(webhookEvents.userId, userId),
    asc(webhookEvents.createdAt),
    asc(webhookEvents.id),
  );
  return rows as unknown as { id: string; type: string; subject_id: string; payload: string | null }[];
}
