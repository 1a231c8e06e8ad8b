import { createDeps } from "./deps";
import type { Env } from "./env";
import { sendDeliverySummaries } from "./services/delivery-summaries";
import { resendStalledBatches } from "./services/import-sweep";
import { expireReservations } from "./services/orders";
import { sweepWebhooks } from "./services/webhooks/sweep";
import { STARTUP_CRON } from "./startup";

/**
 * The cron trigger (wrangler.toml `[triggers]`): aged-lead reservations that ran out unpaid get their
 * payment cancelled, so a late card payment cannot be taken for leads that went back on sale; buyers get
 * their daily delivery summary once their day has ended (issue 16); import batches whose Queue message was
 * lost are sent again (issue 21 item 15); webhook deliveries whose message was lost are queued again and
 * expired transfers told to subscribed buyers (issue 25). The local server also runs it once as it starts (STARTUP_CRON),
 * when every batch still queued has lost its message.
 */
export const scheduled: ExportedHandlerScheduledHandler<Env> = async (controller, env) => {
  const resent = await resendStalledBatches(env, controller.cron === STARTUP_CRON ? { stalledAfterMs: 0 } : {});
  if (resent > 0) console.log(`Sent ${resent} stalled import batches again`);
  const cancelled = await expireReservations(env);
  if (cancelled > 0) console.log(`Cancelled the payments of ${cancelled} expired reservations`);
  const summaries = await sendDeliverySummaries(env);
  if (summaries > 0) console.log(`Sent ${summaries} daily delivery summaries`);
  const webhooks = await sweepWebhooks(createDeps(env), { startup: controller.cron === STARTUP_CRON });
  if (webhooks.requeued > 0) console.log(`Queued ${webhooks.requeued} overdue webhook deliveries again`);
};
