// The products sold through orders, registered once before any payment is handled (docs/decisions/0077).
import "./order-products";
import { createDeps } from "./deps";
import type { Env } from "./env";
import { resendStalledBatches } from "./features/aged-leads/import-sweep";
import { sendCallbackReminders } from "./features/callbacks/callback-notifications";
import { fillCallbackOrders } from "./features/callbacks/callbacks";
import { sendRegistryFreshnessAlerts } from "./features/do-not-call/list-freshness";
import { moveListsToRegistry } from "./features/do-not-call/registry-move";
import { recordRevocationEvents, sendRevocationDigests } from "./features/do-not-call/revocations";
import { expireSuppressionUploads, resendStalledSuppression } from "./features/do-not-call/suppression-resend";
import { expireReservations } from "./features/orders/orders";
import { sendDeliverySummaries } from "./features/transfers/delivery-summaries";
import { sweepWebhooks } from "./features/webhooks/sweep";
import { optimizeDatabase } from "./services/db-maintenance";
import { STARTUP_CRON, WEBHOOK_SWEEP_CRON } from "./startup";

/**
 * The cron trigger (wrangler.toml `[triggers]`): aged-lead reservations that ran out unpaid get their
 * payment cancelled, so a late card payment cannot be taken for leads that went back on sale; buyers get
 * their daily delivery summary once their day has ended; import batches whose Queue message was
 * lost are sent again; webhook deliveries whose message was lost are queued again and
 * expired transfers told to subscribed buyers, every minute on its own cron (WEBHOOK_SWEEP_CRON,
 * docs/decisions/0052) so that a delivery whose consumer died goes out again within two minutes. The local server also runs it once as it starts
 * (STARTUP_CRON), when every batch still queued has lost its message. Suppression uploads get the same
 * care, and those never finished expire after a day (docs/decisions/0051); buyers are reminded of call-backs
 * whose window opens within 15 minutes (docs/decisions/0060); the database is optimized last
 * (`PRAGMA optimize`, docs/decisions/0043).
 */
export const scheduled: ExportedHandlerScheduledHandler<Env> = async (controller, env) => {
  const deps = createDeps(env);
  const startup = controller.cron === STARTUP_CRON;
  if (startup || controller.cron === WEBHOOK_SWEEP_CRON) {
    // Revocations listed since the last minute get their `lead.suppressed` webhooks (docs/decisions/0082).
    const revoked = await recordRevocationEvents(deps);
    if (revoked > 0) console.log(`Recorded the webhooks of ${revoked} revoked sales`);
    const webhooks = await sweepWebhooks(deps, { startup });
    if (webhooks.requeued > 0) {
      console.log(
        `Queued ${webhooks.requeued} webhook deliveries again (${webhooks.reclaimed} from a stopped consumer)`,
      );
    }
    if (!startup) return;
  }
  const resent = await resendStalledBatches(deps, startup ? { stalledAfterMs: 0 } : {});
  if (resent > 0) console.log(`Sent ${resent} stalled import batches again`);
  const cancelled = await expireReservations(deps);
  if (cancelled > 0) console.log(`Cancelled the payments of ${cancelled} expired reservations`);
  // Call-backs a lapsed marketplace hold kept from a paid call-back order are placed now (decision 0061).
  const placed = await fillCallbackOrders(deps);
  if (placed > 0) console.log(`Placed ${placed} waiting call-backs in paid call-back orders`);
  const summaries = await sendDeliverySummaries(deps);
  if (summaries > 0) console.log(`Sent ${summaries} daily delivery summaries`);
  const digests = await sendRevocationDigests(deps);
  if (digests > 0) console.log(`Sent ${digests} daily revocation digests`);
  // From day 25 of a registry copy, the admins' e-mail, once a day (docs/decisions/0085).
  const freshness = await sendRegistryFreshnessAlerts(deps);
  if (freshness > 0) console.log(`Sent ${freshness} Do Not Call registry freshness e-mails`);
  const reminders = await sendCallbackReminders(deps);
  if (reminders > 0) console.log(`Sent ${reminders} call-back reminders`);
  const expired = await expireSuppressionUploads(deps);
  if (expired > 0) console.log(`Gave up ${expired} suppression uploads unfinished for a day`);
  const suppression = await resendStalledSuppression(deps, startup ? 0 : undefined);
  if (suppression > 0) console.log(`Sent ${suppression} stalled suppression upload messages again`);
  // National and state lists still kept as D1 rows move into the registry store (docs/decisions/0084).
  const moved = await moveListsToRegistry(deps);
  if (moved > 0) console.log(`Moved ${moved} area codes of Do Not Call lists into the registry store`);
  await optimizeDatabase(deps);
};
