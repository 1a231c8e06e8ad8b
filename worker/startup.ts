/**
 * The `cron` name the local server gives the scheduled handler once, when it starts (scripts/lib/serve.ts):
 * the handler then also sends again every import batch still queued, since nothing can still be on a
 * Queue that just started (worker/services/import-sweep.ts). No imports: the scripts read it under Node.
 */
export const STARTUP_CRON = "startup";
