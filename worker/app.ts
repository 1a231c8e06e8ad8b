/** The Worker's request pipeline without Astro: security headers, page guards, then the API. */
import { Hono } from "hono";
import { api } from "./api";
import type { AppBindings, Env } from "./env";
import { pageGuards } from "./middleware/page-guards";
import { securityHeaders } from "./middleware/security-headers";
import { queue } from "./queue";
import { scheduled } from "./scheduled";

export function createApp() {
  const app = new Hono<AppBindings>();
  app.use(securityHeaders());
  app.route("/", api);
  app.use(pageGuards);
  return app;
}

/** The Astro-free Worker the integration tests run (the deployed entry is worker/index.ts). */
export default { fetch: createApp().fetch, queue, scheduled } satisfies ExportedHandler<Env>;
