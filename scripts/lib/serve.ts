/**
 * Serves the built Worker (dist/server) in workerd through Miniflare, the runtime `wrangler dev` runs,
 * without `wrangler dev`'s reloading proxy in front: `npm start`, the browser tests and the bench measure
 * the Worker, not a second hop (docs/decisions/0025). Bindings, assets, the Queue consumer and the rate
 * limits come from the wrangler configuration the build wrote, read by wrangler itself.
 */
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { STARTUP_CRON } from "../../worker/startup.ts";
import { LOCAL_DEV_VARS } from "./env.ts";
import { root } from "./paths.ts";

const serverDir = resolve(root, "dist/server");

type WorkerOptions = Record<string, unknown> & { bindings?: Record<string, unknown> };
interface MiniflareInstance {
  ready: Promise<URL>;
  dispose(): Promise<void>;
  getWorker(): Promise<{ scheduled(options: { cron: string }): Promise<unknown> }>;
}
interface MiniflareModule {
  Miniflare: new (options: unknown) => MiniflareInstance;
  convertV4MiniflareOptions(options: unknown): Record<string, unknown>;
}
interface WranglerModule {
  unstable_getMiniflareWorkerOptions(configPath: string): { workerOptions: WorkerOptions };
}

/** Wrangler, and its own Miniflare, so that the options wrangler derives are read by the version that wrote them. */
function loadWrangler() {
  const fromWrangler = createRequire(createRequire(import.meta.url).resolve("wrangler"));
  return {
    wrangler: fromWrangler("wrangler") as WranglerModule,
    miniflare: fromWrangler("miniflare") as MiniflareModule,
  };
}

export interface ServeOptions {
  port: number;
  host: string;
  /** The local state folder, as `wrangler dev --persist-to` and `wrangler d1 --persist-to` take it. */
  persistTo?: string;
  /** Variables over the local ones (LOCAL_DEV_VARS). */
  vars?: Record<string, string>;
}

/** The Worker's bindings locally: the configured ones (production vars), the local opt-ins over them, then `vars`. */
export function localBindings(configured: Record<string, unknown> = {}, vars: Record<string, string> = {}) {
  return { ...configured, ...LOCAL_DEV_VARS, ...vars };
}

/** The build's modules: the entry first, then every chunk it imports. */
function builtModules() {
  const chunks = readdirSync(serverDir, { recursive: true, encoding: "utf8" }).filter(
    (file) => file.endsWith(".mjs") && file !== "entry.mjs",
  );
  return ["entry.mjs", ...chunks].map((file) => ({ type: "ESModule", path: join(serverDir, file) }));
}

export async function serveBuiltWorker(options: ServeOptions): Promise<{ url: URL; dispose(): Promise<void> }> {
  const { wrangler, miniflare } = loadWrangler();
  const { workerOptions } = wrangler.unstable_getMiniflareWorkerOptions(join(serverDir, "wrangler.json"));
  const converted = miniflare.convertV4MiniflareOptions({
    host: options.host,
    port: options.port,
    workers: [
      {
        ...workerOptions,
        // Every module is listed below; the build's only rule (ESM for .js/.mjs) is Miniflare's default.
        modulesRules: undefined,
        name: "final-expense-leads",
        modules: builtModules(),
        modulesRoot: serverDir,
        bindings: localBindings(workerOptions.bindings, options.vars),
      },
    ],
  });
  const server = new miniflare.Miniflare({
    ...converted,
    // One shop on its own: no registry of other local Workers to join.
    enableDevRegistry: false,
    resourcePersistencePath: resolve(root, options.persistTo ?? ".wrangler/state", "v3"),
  });
  const url = await server.ready;
  // Once at start: import batches whose Queue messages died with the last server are sent again.
  await (await server.getWorker()).scheduled({ cron: STARTUP_CRON }).catch((error: unknown) => {
    console.error("The start-up sweep failed; the cron will try again", error);
  });
  return { url, dispose: () => server.dispose() };
}
