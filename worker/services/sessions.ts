/**
 * The one session module (product rules 30, 32): lucia 3 with sessions in D1, so it can
 * be swapped for the guide's own implementation without touching routes.
 *
 * Cookie `__Host-session`: Secure, Path=/, HttpOnly, SameSite=Lax, no Domain (the prefix makes browsers
 * insist on exactly that). A session ends SESSION_ABSOLUTE_MS after sign-in whatever happens, and sooner
 * when idle: SESSION_IDLE_MS for buyers, ADMIN_SESSION_IDLE_MS for admins.
 */
import { D1Adapter } from "@lucia-auth/adapter-sqlite";
import { and, eq, lt } from "drizzle-orm";
import { Lucia, TimeSpan } from "lucia";
import type { PublicUser } from "../../src/domain/user";
import { ADMIN_SESSION_IDLE_MS, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "../../src/features/accounts/auth-limits";
import { sessions as sessionsTable } from "../db/schema";
import type { Deps } from "../deps";
import { toPublicUser, userFromRow } from "./users";

interface SessionRow {
  created_at: number;
  last_seen_at: number;
}

declare module "lucia" {
  interface Register {
    Lucia: ReturnType<typeof createLucia>;
    /** The raw `users` row (snake_case), mapped by users.ts like every other user read. */
    DatabaseUserAttributes: Record<string, unknown>;
    DatabaseSessionAttributes: SessionRow;
  }
}

export const SESSION_COOKIE = "__Host-session";

/** Activity is written back at most this often per session (the idle clock's precision). */
const LAST_SEEN_PRECISION_MS = 5 * 60_000;

function createLucia(db: D1Database) {
  return new Lucia(new D1Adapter(db, { user: "users", session: "sessions" }), {
    sessionExpiresIn: new TimeSpan(SESSION_ABSOLUTE_MS / 1000, "s"),
    sessionCookie: { name: SESSION_COOKIE, attributes: { secure: true, sameSite: "lax", path: "/" } },
    getSessionAttributes: (row) => ({ createdAt: row.created_at, lastSeenAt: row.last_seen_at }),
    getUserAttributes: (row) => {
      const { id: _id, ...attributes } = toPublicUser(userFromRow(row));
      return attributes;
    },
  });
}

/** How long this user's session may sit unused. */
const idleTimeoutMs = (user: Pick<PublicUser, "isAdmin">) => (user.isAdmin ? ADMIN_SESSION_IDLE_MS : SESSION_IDLE_MS);

export interface SessionService {
  /** The session's user, and a cookie to set (refreshed, or blank when the session has ended). */
  validate(sessionId: string): Promise<{ user: PublicUser | null; cookie: string | null }>;
  create(userId: string): Promise<string>;
  invalidate(sessionId: string): Promise<void>;
  invalidateUser(userId: string): Promise<void>;
  blankCookie(): string;
}

/**
 * Cookies are Secure everywhere (browsers accept Secure cookies from http://localhost and
 * http://127.0.0.1, which they treat as secure contexts). Times are the request's (`deps.now`).
 */
export function sessions(deps: Deps): SessionService {
  const lucia = createLucia(deps.env.DB);
  const blank = () => lucia.createBlankSessionCookie().serialize();
  return {
    async validate(sessionId) {
      const { session, user } = await lucia.validateSession(sessionId);
      if (!session || !user) return { user: null, cookie: blank() };
      const at = deps.now;
      if (at - session.createdAt >= SESSION_ABSOLUTE_MS || at - session.lastSeenAt >= idleTimeoutMs(user)) {
        await lucia.invalidateSession(session.id);
        return { user: null, cookie: blank() };
      }
      if (at - session.lastSeenAt >= LAST_SEEN_PRECISION_MS) {
        await deps.db
          .update(sessionsTable)
          .set({ lastSeenAt: at })
          .where(and(eq(sessionsTable.id, session.id), lt(sessionsTable.lastSeenAt, at)));
      }
      return { user, cookie: session.fresh ? lucia.createSessionCookie(session.id).serialize() : null };
    },
    async create(userId) {
      const at = deps.now;
      const session = await lucia.createSession(userId, { created_at: at, last_seen_at: at });
      return lucia.createSessionCookie(session.id).serialize();
    },
    invalidate: (sessionId) => lucia.invalidateSession(sessionId),
    invalidateUser: (userId) => lucia.invalidateUserSessions(userId),
    blankCookie: blank,
  };
}
