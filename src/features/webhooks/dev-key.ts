/**
 * The key ring `npm start`, the browser tests, the bench and the Worker tests encrypt webhook signing
 * secrets with (scripts/lib/env.ts, vitest.config.ts). It is public, so it protects nothing: the Worker
 * refuses it unless APP_ENV is `development` (worker/features/webhooks/keys.ts), and a deployment sets
 * its own with `wrangler secret put WEBHOOK_SECRETS_KEY` (docs/webhooks.md). No imports: Node scripts
 * read it with type stripping.
 */
export const DEVELOPMENT_WEBHOOK_SECRETS_KEY = "dev:oNdAnJaTaa06lQRk2eASUiKj47CoIRaVNgJ5ieQl3hU=";
