/** The environment the npm scripts give the tools they run: quiet, and local for the local server. */
import { resolve } from "node:path";
import { DEVELOPMENT_WEBHOOK_SECRETS_KEY } from "../../src/features/webhooks/dev-key.ts";
import { root } from "./paths.ts";

/** No telemetry, no update checks, tool state inside the project. */
const quietToolEnv: Record<string, string> = {
  ASTRO_TELEMETRY_DISABLED: "1",
  ASTRO_DISABLE_UPDATE_CHECK: "true",
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  XDG_CONFIG_HOME: resolve(root, ".xdg"),
};

export function toolEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...quietToolEnv, ...extra };
}

/**
 * What the local server (scripts/lib/serve.ts) runs with: wrangler.toml describes production, so local
 * serving opts in to the development environment and the simulated payment provider (which answers only
 * on localhost), with the public development key for webhook signing secrets (refused outside development).
 */
export const LOCAL_DEV_VARS: Record<string, string> = {
  APP_ENV: "development",
  ALLOW_SIMULATED_PAYMENTS: "true",
  WEBHOOK_SECRETS_KEY: DEVELOPMENT_WEBHOOK_SECRETS_KEY,
};

/**
 * For the browser tests and the benches: the calling rules read at a Wednesday afternoon in every US zone
 * (worker/features/transfers/calling-window.ts, `callingRulesClock`), so a run at night still routes calls and
 * measures routing rather than `calling_window` refusals. The rules are still checked on every ping.
 */
export const OPEN_CALLING_HOURS_VARS: Record<string, string> = { CALLING_RULES_AT: "2027-03-03T20:00:00Z" };
