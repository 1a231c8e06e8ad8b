/** The Worker's request pipeline without Astro: security headers, then the API. */
import { Hono } from "hono";
import { api } from "./api";
import type { AppBindings } from "./env";
import { securityHeaders } from "./middleware/security-headers";

export function createApp() {
  const app = new Hono<AppBindings>();
  app.use(securityHeaders());
  app.route("/", api);
  return app;
}
