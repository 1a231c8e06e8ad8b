/**
 * Mounts a sub-app at the parent's own path (URLs unchanged) with its `*` middleware (its guard) scoped
 * to the sub-app's own routes. Hono's `parent.route("/", sub)` would turn `sub.use("*", guard)` into a
 * parent-wide `/*` middleware that runs for every request, other sub-apps' routes included; here each
 * `*` middleware is registered only for the method + path pairs the sub-app itself declares, ahead of
 * their handlers. The result keeps Hono's types, so `typeof api` still lists every route.
 */
import { Hono } from "hono";
import type { HonoBase } from "hono/hono-base";
import type { Env, Schema } from "hono/types";

/** How Hono records `use(mw)` and `use("*", mw)` of an app without a base path. */
const WILDCARD = { method: "ALL", path: "/*" } as const;

export function mount<
  E extends Env,
  S extends Schema,
  BasePath extends string,
  CurrentPath extends string,
  SubEnv extends Env,
  SubSchema extends Schema,
  SubBasePath extends string,
  SubCurrentPath extends string,
>(parent: HonoBase<E, S, BasePath, CurrentPath>, sub: HonoBase<SubEnv, SubSchema, SubBasePath, SubCurrentPath>) {
  const scoped = new Hono();
  const wildcards: (typeof sub.routes)[number]["handler"][] = [];
  const guarded = new Set<string>();
  for (const { method, path, handler } of sub.routes) {
    if (method === WILDCARD.method && path === WILDCARD.path) {
      wildcards.push(handler);
      continue;
    }
    const route = `${method} ${path}`;
    if (!guarded.has(route)) {
      guarded.add(route);
      for (const wildcard of wildcards) scoped.on(method, path, wildcard);
    }
    scoped.on(method, path, handler);
  }
  return parent.route("/", scoped as unknown as typeof sub);
}
