import type { Env } from "./env";
import { sendDeliverySummaries } from "./services/delivery-summaries";
import { expireReservations } from "./services/orders";

/**
 * The cron trigger (wrangler.toml `[triggers]`): aged-lead reservations that ran out unpaid get their
 * payment cancelled, so a late card payment cannot be taken for leads that went back on sale; buyers get
 * their daily delivery summary once their day has ended (issue 16).
 */
export const scheduled: ExportedHandlerScheduledHandler<Env> = async (_controller, env) => {
  const cancelled = await expireReservations(env);
  if (cancelled > 0) console.log(`Cancelled the payments of ${cancelled} expired reservations`);
  const summaries = await sendDeliverySummaries(env);
  if (summaries > 0) console.log(`Sent ${summaries} daily delivery summaries`);
};
