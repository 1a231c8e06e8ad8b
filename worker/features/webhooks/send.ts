/**
 * One attempt to deliver one event (docs/webhooks.md): a signed POST that follows no redirect, gives up
 * after 10 seconds, and keeps the status, the time to the answer and the answer's first 1 KB.
 */
import { site } from "../../../src/config/site";
import {
  answerExcerpt,
  isDeliveredStatus,
  WEBHOOK_STORED_ANSWER_BYTES,
  WEBHOOK_TIMEOUT_MS,
} from "../../../src/features/webhook-outbox/index";
import { WEBHOOK_SIGNATURE_HEADER } from "../../../src/features/webhooks/signature";

export interface AttemptResult {
  delivered: boolean;
  /** The answer's HTTP status, or null when there was none. */
  statusCode: number | null;
  /** Milliseconds from sending to the answer's status line (to the give-up for a timeout). */
  latencyMs: number | null;
  answer: string | null;
  /** Why it failed, when the status alone does not say (no answer, a redirect). */
  error: string | null;
}

export type Fetcher = (input: string, init: RequestInit) => Promise<Response>;

const WEBHOOK_USER_AGENT = `${site.brandName.replace(/[^\w.-]+/g, "")}-Webhooks/1.0`;

/** The answer's first bytes (a little more than is kept, so the excerpt can cut at a character), then stop reading. */
async function readExcerpt(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size <= WEBHOOK_STORED_ANSWER_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return answerExcerpt(bytes);
}

/** POSTs `body` to `url` with its signature header; never throws. */
export async function attemptDelivery(
  request: { url: string; body: string; signature: string },
  fetcher: Fetcher = (input, init) => fetch(input, init),
  timeoutMs: number = WEBHOOK_TIMEOUT_MS,
): Promise<AttemptResult> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetcher(request.url, {
      method: "POST",
      body: request.body,
      headers: {
        "Content-Type": "application/json",
        "User-Agent": WEBHOOK_USER_AGENT,
        [WEBHOOK_SIGNATURE_HEADER]: request.signature,
      },
      redirect: "manual",
      signal: controller.signal,
    });
    const latencyMs = elapsed();
    const answer = await readExcerpt(response).catch(() => "");
    const delivered = isDeliveredStatus(response.status);
    const location = response.headers.get("Location");
    const redirected = response.status >= 300 && response.status < 400;
    return {
      delivered,
      statusCode: response.status,
      latencyMs,
      answer,
      error: delivered
        ? null
        : redirected
          ? `Redirect${location ? ` to ${location.slice(0, 200)}` : ""} not followed: webhooks follow no redirects.`
          : `Answered ${response.status}: only a 2xx counts as delivered.`,
    };
  } catch (error) {
    const timedOut = controller.signal.aborted;
    return {
      delivered: false,
      statusCode: null,
      latencyMs: elapsed(),
      answer: null,
      error: timedOut
        ? `No answer within ${timeoutMs / 1000} seconds.`
        : `Could not connect: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300),
    };
  } finally {
    clearTimeout(timer);
  }
}
