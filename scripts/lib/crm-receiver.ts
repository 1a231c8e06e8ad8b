/**
 * A buyer's CRM, simulated (`npm run simulate:crm`, and later the webhooks bench and e2e test): a local
 * HTTP receiver that checks each webhook's signature with the secrets it was given and its body against
 * the documented schema, prints the event, and answers 2xx, or fails at a given rate (500), or answers
 * slowly, so retries and timeouts can be watched.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  WEBHOOK_MAX_BODY_BYTES,
  WEBHOOK_SIGNATURE_TOLERANCE_SECONDS,
} from "../../src/features/webhook-outbox/events.ts";
import { webhookEventSchema, webhookEventSubject } from "../../src/features/webhooks/schemas/webhooks.ts";
import {
  unixSeconds,
  verifyWebhookSignature,
  WEBHOOK_SIGNATURE_HEADER,
} from "../../src/features/webhooks/signature.ts";

export interface CrmReceiverOptions {
  /** The endpoint's signing secrets (two during a rotation). */
  secrets: string[];
  /** Share of signed, valid events answered 500 instead of 200 (0 to 1). */
  failRate?: number;
  /** Wait this long before answering (longer than the sender's timeout shows a timeout). */
  slowMs?: number;
  toleranceSeconds?: number;
  random?: () => number;
  /** Epoch ms. */
  now?: () => number;
  log?: (line: string) => void;
}

interface CrmReceiverStats {
  /** Requests answered 2xx. */
  delivered: number;
  /** Events answered 500 on purpose (`failRate`). */
  failed: number;
  /** Requests refused: bad signature, not JSON, not a documented event, too large, not a POST. */
  rejected: number;
  /** 2xx answers for an event id answered 2xx before. */
  duplicates: number;
  /** Every event id answered 2xx, once each. */
  eventIds: Set<string>;
}

export interface CrmReceiver {
  server: Server;
  stats: CrmReceiverStats;
}

const clock = (ms: number) => new Date(ms).toISOString().slice(11, 19);

function readBody(request: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    request.on("end", () => resolve(size > limit ? null : Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

function createCrmReceiver(options: CrmReceiverOptions): CrmReceiver {
  const failRate = options.failRate ?? 0;
  const slowMs = options.slowMs ?? 0;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const log = options.log ?? ((line: string) => console.log(line));
  const stats: CrmReceiverStats = { delivered: 0, failed: 0, rejected: 0, duplicates: 0, eventIds: new Set() };

  const answer = (response: ServerResponse, status: number, body: Record<string, unknown>) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  };
  const reject = (response: ServerResponse, status: number, message: string) => {
    stats.rejected++;
    log(`${clock(now())} ✗ ${status} ${message}`);
    answer(response, status, { error: message });
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== "POST") return reject(response, 405, `${request.method} ${request.url}: only POST is taken`);
    const body = await readBody(request, WEBHOOK_MAX_BODY_BYTES);
    if (body === null) return reject(response, 413, `body over ${WEBHOOK_MAX_BODY_BYTES} bytes`);
    const header = request.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()];
    const check = await verifyWebhookSignature(
      Array.isArray(header) ? header.join(",") : header,
      body,
      options.secrets,
      unixSeconds(now()),
      options.toleranceSeconds ?? WEBHOOK_SIGNATURE_TOLERANCE_SECONDS,
    );
    if (!check.ok) return reject(response, 400, `bad signature (${check.reason}): ${check.message}`);
    let json: unknown;
    try {
      json = JSON.parse(body.toString("utf8"));
    } catch {
      return reject(response, 400, "signed, but the body is not JSON");
    }
    const parsed = webhookEventSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return reject(response, 422, `not a documented event: ${issue?.path.join(".") || "body"}: ${issue?.message}`);
    }
    const event = parsed.data;
    if (slowMs > 0) await new Promise((resolve) => setTimeout(resolve, slowMs));
    const line = `${event.type} ${event.id} ${webhookEventSubject(event)}`;
    if (random() < failRate) {
      stats.failed++;
      log(`${clock(now())} ✗ 500 ${line} (simulated failure)`);
      return answer(response, 500, { error: "simulated failure" });
    }
    const duplicate = stats.eventIds.has(event.id);
    stats.delivered++;
    if (duplicate) stats.duplicates++;
    stats.eventIds.add(event.id);
    log(`${clock(now())} ✓ 200 ${line}${duplicate ? " (duplicate: already received)" : ""}`);
    answer(response, 200, { received: true });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) reject(response, 500, `receiver error: ${String(error)}`);
    });
  });
  return { server, stats };
}

/** Starts a receiver on `host:port` (port 0 picks a free one) and answers its address. */
export async function listenCrmReceiver(
  options: CrmReceiverOptions & { port: number; host?: string },
): Promise<CrmReceiver & { url: string; close(): Promise<void> }> {
  const receiver = createCrmReceiver(options);
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    receiver.server.once("error", reject);
    receiver.server.listen(options.port, host, () => resolve());
  });
  const { port } = receiver.server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      receiver.server.closeAllConnections();
      receiver.server.close(() => resolve());
    });
  return { ...receiver, url: `http://${host.includes(":") ? `[${host}]` : host}:${port}/`, close };
}
