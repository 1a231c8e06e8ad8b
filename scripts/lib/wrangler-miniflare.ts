/**
 * Wrangler and the Miniflare it ships, loaded from wrangler's own dependencies so that the options wrangler
 * derives are read by the version that wrote them. The two calls below are the only ones outside their
 * packages' documented APIs; decision 0034 names the risk, and tests/unit/local-server.test.ts fails on
 * the wrangler upgrade that changes them.
 */
import { createRequire } from "node:module";

type WorkerOptions = Record<string, unknown> & {
  bindings?: Record<string, unknown>;
  d1Databases?: Record<string, unknown>;
  cronTriggers?: string[];
};

interface ScheduledResult {
  outcome: string;
  noRetry: boolean;
}

/** Miniflare's documented instance API (its README), as far as the scripts use it. */
interface MiniflareInstance {
  ready: Promise<URL>;
  getWorker(): Promise<{ scheduled(options: { cron?: string; scheduledTime?: Date }): Promise<ScheduledResult> }>;
  getD1Database(bindingName: string): Promise<D1Database>;
  dispose(): Promise<void>;
}

interface MiniflareModule {
  Miniflare: new (options: unknown) => MiniflareInstance;
  /** Miniflare 5's converter from the v4 option shape wrangler still writes. */
  convertV4MiniflareOptions(options: unknown): Record<string, unknown>;
}

interface WranglerModule {
  /** wrangler's own translation of a wrangler config into Miniflare worker options (`unstable_`). */
  unstable_getMiniflareWorkerOptions(configPath: string): { workerOptions: WorkerOptions };
}

export function loadWrangler(): { wrangler: WranglerModule; miniflare: MiniflareModule; wranglerVersion: string } {
  const fromWrangler = createRequire(createRequire(import.meta.url).resolve("wrangler"));
  const { version } = fromWrangler("wrangler/package.json") as { version: string };
  return {
    wrangler: fromWrangler("wrangler") as WranglerModule,
    miniflare: fromWrangler("miniflare") as MiniflareModule,
    wranglerVersion: version,
  };
}
