import type { Env } from "./env";

/**
 * Queue consumer for CSV import batches (D8). Until the import pipeline lands, a message this
 * consumer cannot understand is logged and acknowledged: retrying it could never succeed.
 */
export async function queue(batch: MessageBatch<unknown>, _env: Env): Promise<void> {
  for (const message of batch.messages) {
    console.warn("Dropping unknown queue message", message.id);
    message.ack();
  }
}
