import { D1_LIMITS } from "./db/limits";
import type { Env } from "./env";
import {
  failImportBatch,
  isImportBatchMessage,
  MAX_BATCH_ATTEMPTS,
  MAX_QUERIES_PER_IMPORT_MESSAGE,
  processImportBatch,
} from "./services/imports";
import { deliverWebhookMessages } from "./services/webhooks/queue";

/**
 * Import messages one invocation handles, so that it stays within D1's queries per invocation whatever
 * `max_batch_size` wrangler.toml sets; the rest of a larger delivery is handed back to the Queue.
 */
export const IMPORT_MESSAGES_PER_INVOCATION = Math.floor(
  D1_LIMITS.queriesPerInvocation / MAX_QUERIES_PER_IMPORT_MESSAGE,
);

/**
 * Queue consumer for CSV import batches (D8) and buyer webhook deliveries (worker/services/webhooks). A failing batch is retried by the Queue; on its last
 * delivery it is reported failed (its rows rejected with the reason) rather than silently dropped.
 * A message this consumer cannot understand is logged and acknowledged: retrying it could never succeed.
 */
export async function queue(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  // Buyer webhooks (their own queue) are settled together; the rest are import batches.
  const rest = await deliverWebhookMessages(env, batch.messages);
  let handled = 0;
  for (const message of rest) {
    if (!isImportBatchMessage(message.body)) {
      console.warn("Dropping unknown queue message", message.id);
      message.ack();
      continue;
    }
    if (handled >= IMPORT_MESSAGES_PER_INVOCATION) {
      message.retry();
      continue;
    }
    handled += 1;
    try {
      await processImportBatch(env, message.body);
      message.ack();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (message.attempts >= MAX_BATCH_ATTEMPTS) {
        console.error(`Import batch failed for good after ${message.attempts} attempts`, reason);
        await failImportBatch(env, message.body, reason);
        message.ack();
      } else {
        message.retry({ delaySeconds: Math.min(30, 2 ** message.attempts) });
      }
    }
  }
}
