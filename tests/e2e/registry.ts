/**
 * A registry change from the browser tests' process (docs/decisions/0084): the e2e server's R2 bucket through
 * Miniflare's documented API (`getR2Bucket`, on the server's state folder, as scripts/lib/local-d1.ts opens
 * its D1) and its D1 through this process's stand-in (database.ts), then the same store and re-scrub the
 * registry loader calls: a swap of one area code, then `rescrubAreaCode`.
 */
import { resolve } from "node:path";
import { root } from "../../scripts/lib/paths.ts";
import { loadWrangler } from "../../scripts/lib/wrangler-miniflare.ts";
import { createDeps } from "../../worker/deps";
import type { Env } from "../../worker/env";
import { rescrubAreaCode } from "../../worker/features/do-not-call/registry-rescrub";
import {
  applyRegistryChangeList,
  hasRegistryVersion,
  storeRegistryFullList,
} from "../../worker/features/do-not-call/registry-store";
import { d1StandIn } from "./d1-stand-in";
import { openD1 } from "./database";
import { setupValue } from "./fixtures";

type R2Miniflare = { getR2Bucket(binding: string): Promise<R2Bucket>; dispose(): Promise<void> };

/** Opens the e2e server's R2 bucket for `use`, and closes it afterwards. */
async function withServerBucket<T>(use: (bucket: R2Bucket) => Promise<T>): Promise<T> {
  const { wrangler, miniflare } = loadWrangler();
  const { workerOptions } = wrangler.unstable_getMiniflareWorkerOptions(resolve(root, "wrangler.toml"));
  const options = miniflare.convertV4MiniflareOptions({
    host: "127.0.0.1",
    port: 0,
    workers: [
      {
        name: "e2e-registry",
        modules: true,
        script: "export default { fetch: () => new Response(null, { status: 204 }) };",
        compatibilityDate: workerOptions.compatibilityDate,
        r2Buckets: workerOptions.r2Buckets,
      },
    ],
  });
  const mf = new miniflare.Miniflare({
    ...options,
    enableDevRegistry: false,
    resourcePersistencePath: resolve(setupValue("E2E_PERSIST_TO"), "v3"),
  }) as unknown as R2Miniflare;
  try {
    return await use(await mf.getR2Bucket("DOCUMENTS"));
  } finally {
    await mf.dispose();
  }
}

/**
 * Applies one national change list to `areaCode` (a full list first when the copy has none) and re-scrubs the
 * area code, as the registry loader does after each file.
 */
export function applyNationalChanges(areaCode: number, changes: string): Promise<void> {
  return withServerBucket(async (bucket) => {
    const env = { DB: d1StandIn(openD1(setupValue("E2E_PERSIST_TO"))), DOCUMENTS: bucket } as unknown as Env;
    const deps = createDeps(env);
    if (!(await hasRegistryVersion(deps, "national", areaCode))) {
      await storeRegistryFullList(deps, "national", areaCode, `${areaCode}0000001\n`);
    }
    const swap = await applyRegistryChangeList(deps, "national", areaCode, changes);
    await rescrubAreaCode(deps, "national", swap);
  });
}
