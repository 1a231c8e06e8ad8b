/**
 * Serves the built Worker (dist/server) in workerd through Miniflare, the runtime `wrangler dev` runs,
 * without `wrangler dev`'s reloading proxy in front: `npm start`, the browser tests and the bench measure
 * the Worker, not a second hop (docs/decisions/0025). Bindings, assets, the Queue consumer, the rate
 * limits and the cron triggers come from the wrangler configuration the build wrote, read by wrangler
 * itself; the crons fire on their schedule (docs/decisions/0034).
 */
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { STARTUP_CRON } from "../../worker/startup.ts";
import { scheduleCrons } from "./crons.ts";
import { LOCAL_DEV_VARS } from "./env.ts";
import { simulatedPaymentsHostProblem } from "./loopback.ts";
import { root } from "./paths.ts";
import { loadWrangler } from "./wrangler-miniflare.ts";

const serverDir = resolve(root, "dist/server");

export interface ServeOptions {
  port: number;
  host: string;
  /** The local state folder, as `wrangler dev --persist-to` and `wrangler d1 --persist-to` take it. */
  persistTo?: string;
  /** Variables over the local ones (LOCAL_DEV_VARS). */
  vars?: Record<string, string>;
  /** Cron expressions to fire instead of the configured `[triggers] crons` (tests). */
  crons?: string[];
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

export interface ServedWorker {
  url: URL;
  /** The cron expressions firing on their schedule. */
  crons: string[];
  dispose(): Promise<void>;
}

export async function serveBuiltWorker(options: ServeOptions): Promise<ServedWorker> {
  // Refused before anything loads: a shop that takes simulated payments must not be reachable from elsewhere.
  // (The configured vars cannot switch them on or off: the local opt-in and `vars` are bound over them.)
  const problem = simulatedPaymentsHostProblem(options.host, localBindings({}, options.vars));
  if (problem) throw new Error(problem);
  const { wrangler, miniflare } = loadWrangler();
  const { workerOptions } = wrangler.unstable_getMiniflareWorkerOptions(join(serverDir, "wrangler.json"));
  const bindings = localBindings(workerOptions.bindings, options.vars);

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
        bindings,
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
  const crons = options.crons ?? workerOptions.cronTriggers ?? [];
  const stopCrons = scheduleCrons(crons, async (cron, scheduledTime) => {
    const worker = await server.getWorker();
    return worker.scheduled({ cron, scheduledTime });
  });
  return {
    url,
    crons,
    dispose: async () => {
      stopCrons();
      await server.dispose();
    },
  };
}
