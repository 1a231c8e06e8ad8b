/**
 * The Queue's side of webhook delivery (worker/queue.ts): the batch's webhook messages are delivered
 * together and acknowledged once their outcome is in D1 (a retry is a new message with its delay, not a
 * Queue retry). If D1 fails, the Queue retries them; the lease and the due time keep a repeat from
 * sending twice, and the sweep finds whatever the Queue gives up on.
 */
import type { Deps } from "../../deps";
import { isWebhookDeliveryMessage, type WebhookDeliveryMessage } from "../webhook-outbox/index";
import { deliverWebhooks } from "./deliver";
import type { WebhookRuntime } from "./runtime";

/** Delivers the webhook messages among `messages`; answers the others, for the import consumer. */
export async function deliverWebhookMessages(
  deps: Deps,
  messages: readonly Message<unknown>[],
  runtime?: WebhookRuntime,
): Promise<Message<unknown>[]> {
  const webhooks = messages.filter((message): message is Message<WebhookDeliveryMessage> =>
    isWebhookDeliveryMessage(message.body),
  );
  if (webhooks.length === 0) return [...messages];
  try {
    await deliverWebhooks(
      deps,
      webhooks.map(({ body }) => ({ eventId: body.eventId, endpointId: body.endpointId })),
      runtime,
    );
    for (const message of webhooks) message.ack();
  } catch (error) {
    console.error(`Webhook batch of ${webhooks.length} failed; the Queue will retry it`, error);
    for (const message of webhooks) message.retry({ delaySeconds: Math.min(300, 10 * 2 ** message.attempts) });
  }
  return messages.filter((message) => !isWebhookDeliveryMessage(message.body));
}
