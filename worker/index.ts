/**
 * The Worker entry (wrangler `main`): the API first, then Cloudflare's asset handling, then Astro
 * for every page. Exports the queue consumer and the cron handler beside fetch.
 */
import { cf } from "@astrojs/cloudflare/hono";
import { astro } from "astro/hono";
import { createApp } from "./app";
import type { Env } from "./env";
import { queue } from "./queue";
import { scheduled } from "./scheduled";

const app = createApp();
app.use(cf());
app.use(astro());

export default { fetch: app.fetch, queue, scheduled } satisfies ExportedHandler<Env>;
