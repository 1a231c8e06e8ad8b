// The products sold through orders, registered once before any payment is handled (docs/decisions/0077).
import "./order-products";
// And the kinds of CSV import besides aged leads, before a batch is taken in.
import "./import-kinds";
import { D1_LIMITS } from "./db/limits";
import { createDeps } from "./deps";
import type { Env } from "./env";
import {
  failImportBatch,
  isImportBatchMessage,
  MAX_BATCH_ATTEMPTS,
  MAX_QUERIES_PER_IMPORT_MESSAGE,
  processImportBatch,
} from "./features/aged-leads/imports";
import { MAX_QUERIES_PER_CALLBACK_MESSAGE } from "./features/callbacks/callback-imports";
import {
  applyRegistryAreaCode,
  failRegistryAreaCode,
  MAX_QUERIES_PER_REGISTRY_MESSAGE,
} from "./features/do-not-call/registry-apply";
import {
  continueRescrub,
  isRegistryRescrubMessage,
  MAX_QUERIES_PER_RESCRUB_MESSAGE,
} from "./features/do-not-call/registry-rescrub";
import { isRegistryApplyMessage } from "./features/do-not-call/registry-uploads";
import {
  applySuppressionBatch,
  failSuppressionBatch,
  finishSuppressionUpload,
  isSuppressionMessage,
  MAX_QUERIES_PER_SUPPRESSION_MESSAGE,
  SWEEP_QUERIES,
} from "./features/do-not-call/suppression-apply";
import { deliverWebhookMessages } from "./features/webhooks/queue";
import { optimizeDatabase } from "./services/db-maintenance";

/**
 * Import messages one invocation handles, so that it stays within D1's queries per invocation whatever
 * `max_batch_size` wrangler.toml sets; the rest of a larger delivery is handed back to the Queue.
 */
export const IMPORT_MESSAGES_PER_INVOCATION = Math.floor(
  D1_LIMITS.queriesPerInvocation / MAX_QUERIES_PER_IMPORT_MESSAGE,
);

/** The most D1 queries a message of this body can cost (null: not a message this consumer knows). */
function queriesOf(body: unknown): number | null {
  if (isImportBatchMessage(body))
    return body.callbacks ? MAX_QUERIES_PER_CALLBACK_MESSAGE : MAX_QUERIES_PER_IMPORT_MESSAGE;
  if (isSuppressionMessage(body)) {
    return body.kind === "suppression-batch" ? MAX_QUERIES_PER_SUPPRESSION_MESSAGE : SWEEP_QUERIES;
  }
  if (isRegistryApplyMessage(body)) return MAX_QUERIES_PER_REGISTRY_MESSAGE;
  if (isRegistryRescrubMessage(body)) return MAX_QUERIES_PER_RESCRUB_MESSAGE;
  return null;
}

/**
 * Queue consumer for CSV import batches (product rule 15), suppression list uploads (product rule 40), registry
 * uploads' area codes (docs/decisions/0083-loading-the-whole-registry.md) and their re-scrub's slices
 * (docs/decisions/0084), and buyer webhook deliveries
 * (worker/features/webhooks, their own queue). A failing batch is retried by the Queue; on its last
 * delivery it is reported failed (an import's rows rejected with the reason, a suppression upload failed)
 * rather than silently dropped. A message this consumer cannot understand is logged and acknowledged:
 * retrying it could never succeed. After a delivery that finished an import, the database is optimized (a
 * bulk change, docs/decisions/0043).
 */
export async function queue(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const deps = createDeps(env);
  // Buyer webhooks are settled together; the rest are import batches and suppression uploads.
  const rest = await deliverWebhookMessages(deps, batch.messages);
  let budget: number = D1_LIMITS.queriesPerInvocation;
  let importDone = false;
  for (const message of rest) {
    const body = message.body;
    const cost = queriesOf(body);
    if (cost === null) {
      console.warn("Dropping unknown queue message", message.id);
      message.ack();
      continue;
    }
    if (cost > budget) {
      message.retry();
      continue;
    }
    budget -= cost;
    try {
      if (isImportBatchMessage(body)) importDone = (await processImportBatch(deps, body)) || importDone;
      else if (isSuppressionMessage(body)) {
        if (body.kind === "suppression-batch") await applySuppressionBatch(deps, body);
        else await finishSuppressionUpload(deps, body);
      } else if (isRegistryApplyMessage(body)) await applyRegistryAreaCode(deps, body);
      else if (isRegistryRescrubMessage(body)) await continueRescrub(deps, body);
      message.ack();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (message.attempts >= MAX_BATCH_ATTEMPTS) {
        console.error(`Queue message failed for good after ${message.attempts} attempts`, reason);
        if (isImportBatchMessage(body)) await failImportBatch(deps, body, reason);
        else if (isSuppressionMessage(body) && body.kind === "suppression-batch") {
          await failSuppressionBatch(deps, body, reason);
        } else if (isRegistryApplyMessage(body)) await failRegistryAreaCode(deps, body, reason);
        message.ack();
      } else {
        message.retry({ delaySeconds: Math.min(30, 2 ** message.attempts) });
      }
    }
  }
  if (importDone && budget > 0) await optimizeDatabase(deps);
}
