import type { Env } from "./env";
import { expireReservations } from "./services/orders";

/**
 * The cron trigger (wrangler.toml `[triggers]`): aged-lead reservations that ran out unpaid get their
 * payment cancelled, so a late card payment cannot be taken for leads that went back on sale.
 */
export async function scheduled(_controller: ScheduledController, env: Env): Promise<void> {
  const cancelled = await expireReservations(env);
  if (cancelled > 0) console.log(`Cancelled the payments of ${cancelled} expired reservations`);
}
