/**
 * The local D1 database through Miniflare's documented API (`getD1Database`), for the scripts that write
 * to it before the server starts: the demo seed, `user:create` and the bench's generated data. It is the
 * same database `wrangler d1 … --local [--persist-to]` and the local server open (the binding's database
 * id, under `<state>/v3`), reached through a D1 binding with bound parameters, as the app reaches it.
 */
import { resolve } from "node:path";
import { root } from "./paths.ts";
import { loadWrangler } from "./wrangler-miniflare.ts";

/** Opens the local D1 of `persistTo` (default .wrangler/state) for `use`, and closes it afterwards. */
export async function withLocalD1<T>(persistTo: string | undefined, use: (d1: D1Database) => Promise<T>): Promise<T> {
  const { wrangler, miniflare } = loadWrangler();
  const { workerOptions } = wrangler.unstable_getMiniflareWorkerOptions(resolve(root, "wrangler.toml"));
  const options = miniflare.convertV4MiniflareOptions({
    host: "127.0.0.1",
    port: 0,
    workers: [
      {
        name: "local-d1",
        modules: true,
        script: "export default { fetch: () => new Response(null, { status: 204 }) };",
        compatibilityDate: workerOptions.compatibilityDate,
        d1Databases: workerOptions.d1Databases,
      },
    ],
  });
  const mf = new miniflare.Miniflare({
    ...options,
    enableDevRegistry: false,
    resourcePersistencePath: resolve(root, persistTo ?? ".wrangler/state", "v3"),
  });
  try {
    return await use(await mf.getD1Database("DB"));
  } finally {
    await mf.dispose();
  }
}
