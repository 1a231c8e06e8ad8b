/**
 * The `cron` name the local server gives the scheduled handler once, when it starts (scripts/lib/serve.ts):
 * the handler then also sends again every import batch still queued, since nothing can still be on a
 * Queue that just started (worker/features/aged-leads/import-sweep.ts). No imports: the scripts read it under Node.
 */
export const STARTUP_CRON = "startup";

/**
 * The every-minute cron (wrangler.toml `[triggers]`): only the webhook sweep, so a delivery whose consumer
 * died goes out again within two minutes (docs/decisions/0052); the other chores keep their 5 minutes.
 */
export const WEBHOOK_SWEEP_CRON = "* * * * *";
