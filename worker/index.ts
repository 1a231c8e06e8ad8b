/**
 * The Worker entry (wrangler `main`): the API first, then Cloudflare's asset handling, then Astro
 * for every page. Exports the queue consumer beside fetch.
 */
import { cf } from "@astrojs/cloudflare/hono";
import { astro } from "astro/hono";
import { createApp } from "./app";
import type { Env } from "./env";
import { queue } from "./queue";

const app = createApp();
app.use(cf());
app.use(astro());

export default { fetch: app.fetch, queue } satisfies ExportedHandler<Env>;
