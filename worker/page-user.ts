/**
 * Who is signed in, for the pages Astro renders in the Worker (src/middleware.ts sets `Astro.locals.user`
 * from it; decision 0032). The same session module as the API (worker/services/sessions.ts): a page and an
 * API call agree on who the visitor is. When the Hono page guard has already read this request's session
 * (worker/middleware/auth.ts `loadSession`), its answer is reused instead of asking D1 again.
 */
import { parse } from "hono/utils/cookie";
import type { PublicUser } from "../src/domain/user";
import type { RegistryPageNotices } from "../src/features/do-not-call/list-freshness";
import { createDeps } from "./deps";
import type { Env } from "./env";
import { registryPageNotices } from "./features/do-not-call/list-freshness";
import { SESSION_COOKIE, sessions } from "./services/sessions";

/** The session's user per request, as `loadSession` found it (weak: gone with the request). */
const known = new WeakMap<Request, PublicUser | null>();

export function rememberSessionUser(request: Request, user: PublicUser | null): void {
  known.set(request, user);
}

export interface PageUser {
  user: PublicUser | null;
  /** A refreshed (or blank) session cookie to send with the page, when the session module asks for one. */
  cookie: string | null;
}

export async function pageUser(request: Request, env: Env): Promise<PageUser> {
  const remembered = known.get(request);
  if (remembered !== undefined) return { user: remembered, cookie: null };
  const sessionId = parse(request.headers.get("Cookie") ?? "", SESSION_COOKIE)[SESSION_COOKIE];
  // Anonymous visitors cost no session lookup.
  if (!sessionId) return { user: null, cookie: null };
  return sessions(createDeps(env)).validate(sessionId);
}

/** The Do Not Call registry's notices for this page and user (docs/decisions/0085): the admins' banner, the marketplace's stop. */
export function pageRegistryNotices(
  env: Env,
  user: PublicUser | null,
  path: string,
): Promise<RegistryPageNotices | null> {
  return registryPageNotices(createDeps(env), user, path);
}
