/**
 * What every service takes as its first parameter: one drizzle handle per request (or
 * queue batch, or cron run), the Worker's bindings, and that request's clock. Built once by the API's
 * first middleware (`c.var.deps`), by the queue consumer and by the scheduled handler; tests build their
 * own with `createDeps(env, now)` to move the clock.
 */
import { createMiddleware } from "hono/factory";
import { database } from "./db/client";
import type { AppBindings, Deps, Env } from "./env";

export type { Deps } from "./env";

export function createDeps(env: Env, now = Date.now()): Deps {
  return { db: database(env.DB), env, now };
}

/** Sets `c.var.deps` once for the request; every handler passes it to the services it calls. */
export const withDeps = createMiddleware<AppBindings>(async (c, next) => {
  c.set("deps", createDeps(c.env));
  await next();
});
