import type { PublicUser } from "../src/domain/user";
import type { Database } from "./db/client";

/** Bindings and variables the Worker reads (declared in wrangler.toml; secrets via `wrangler secret put`). */
export interface Env {
  DB: D1Database;
  DOCUMENTS: R2Bucket;
  IMPORT_QUEUE: Queue<unknown>;
  /** Buyer webhook deliveries (worker/features/webhooks/queue.ts). */
  WEBHOOK_QUEUE: Queue<unknown>;
  ASSETS: Fetcher;
  RATE_LIMITER?: RateLimit;
  /** Per-key limit of the partner API (/api/v1). */
  PARTNER_API_RATE_LIMITER?: RateLimit;
  /** Per-partner limit of the partner API, across all of a partner's keys. */
  PARTNER_RATE_LIMITER?: RateLimit;
  APP_ENV: string;
  /** "true" lets the simulated payment provider answer requests to localhost (never set in wrangler.toml). */
  ALLOW_SIMULATED_PAYMENTS?: string;
  /**
   * Local test servers only (the browser tests): an ISO instant at which the calling rules are read instead
   * of the clock, so a run at night still routes calls. Ignored unless APP_ENV is development and simulated
   * payments are on (which the local server allows only on a loopback address); docs/decisions/0064.
   */
  CALLING_RULES_AT?: string;
  PUBLIC_SITE_URL?: string;
  /**
   * The least time in milliseconds between two write transactions of a buyer's private-list upload; unset,
   * 800 (docs/decisions/0066). The Worker tests set 0: their lists are small, and the bench measures the default.
   */
  PRIVATE_LIST_WRITE_GAP_MS?: string;
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  PUBLIC_STRIPE_PUBLISHABLE_KEY?: string;
  MAIL_API_URL?: string;
  MAIL_API_KEY?: string;
  MAIL_FROM?: string;
  /**
   * The key ring webhook signing secrets are encrypted with (`k1:<base64 of 32 bytes>`, current first;
   * docs/webhooks.md). Without it, or with the public development key outside development, endpoints
   * cannot be added and nothing is sent.
   */
  WEBHOOK_SECRETS_KEY?: string;
  /**
   * Where TrustedForm certificates are claimed (worker/features/consent/consent-certificates.ts); unset, certificates
   * stay "on file, not verified". Locally: `npm run simulate:trustedform` (docs/decisions/0054).
   */
  TRUSTEDFORM_CLAIM_URL?: string;
  /**
   * Salts the hash of a /do-not-call requester's address (docs/decisions/0055); a secret, so the stored
   * hashes cannot be matched to addresses without it. Unset, a development salt is used (and logged).
   */
  CLIENT_HASH_SALT?: string;
}

/**
 * What every service takes as its first parameter (built by worker/deps.ts's `createDeps`): one drizzle handle
 * per request, queue batch or cron run, the Worker's bindings, and that request's clock. Declared here, beside
 * the bindings it carries, so that the request's variables can name it.
 */
export interface Deps {
  db: Database;
  env: Env;
  /** Epoch milliseconds at which this request started: one "now" for everything it decides. */
  now: number;
}

interface AppVariables {
  /** The request's database handle, bindings and clock (worker/deps.ts), set first for every request. */
  deps: Deps;
  /** The signed-in user, or null (set by the session middleware for every request). */
  user: PublicUser | null;
  sessionId: string | null;
}

export type AppBindings = { Bindings: Env; Variables: AppVariables };

/**
 * A guarded sub-app's bindings (worker/api.ts): its one `use("*", guard)` lets only a signed-in user
 * through, so its handlers read a non-null user.
 */
export type SignedInBindings = { Bindings: Env; Variables: { deps: Deps; user: PublicUser; sessionId: string } };
