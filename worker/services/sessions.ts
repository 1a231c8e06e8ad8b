/**
 * The one session module (PRODUCT.md D4, NOTES.md "Sessions"): lucia 3 with sessions in D1, so it can be
 * swapped for the guide's own implementation without touching routes.
 */
import { D1Adapter } from "@lucia-auth/adapter-sqlite";
import { Lucia, TimeSpan } from "lucia";
import type { AccountType } from "../../src/domain/transfers";
import type { PublicUser } from "../../src/domain/user";

interface UserRow {
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  agency_name: string;
  role: string;
  is_admin: number;
  account_type: AccountType;
  created_at: number;
}

declare module "lucia" {
  interface Register {
    Lucia: ReturnType<typeof createLucia>;
    DatabaseUserAttributes: UserRow;
  }
}

export const SESSION_COOKIE = "session";

function isLocalHost(url: URL): boolean {
  return url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]";
}

function createLucia(db: D1Database, secure: boolean) {
  return new Lucia(new D1Adapter(db, { user: "users", session: "sessions" }), {
    sessionExpiresIn: new TimeSpan(30, "d"),
    sessionCookie: { name: SESSION_COOKIE, attributes: { secure, sameSite: "lax" } },
    getUserAttributes: (row) => ({
      username: row.username,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      phone: row.phone,
      agencyName: row.agency_name,
      role: row.role,
      isAdmin: row.is_admin === 1,
      accountType: row.account_type,
      createdAt: new Date(row.created_at).toISOString(),
    }),
  });
}

export interface SessionService {
  /** The session's user, and a refreshed cookie when lucia extended the session. */
  validate(sessionId: string): Promise<{ user: PublicUser | null; cookie: string | null }>;
  create(userId: string): Promise<string>;
  invalidate(sessionId: string): Promise<void>;
  invalidateUser(userId: string): Promise<void>;
  blankCookie(): string;
}

/** Cookies are Secure everywhere except plain-http localhost, HttpOnly and SameSite=Lax. */
export function sessions(db: D1Database, requestUrl: string): SessionService {
  const lucia = createLucia(db, !isLocalHost(new URL(requestUrl)));
  return {
    async validate(sessionId) {
      const { session, user } = await lucia.validateSession(sessionId);
      if (!session) return { user: null, cookie: lucia.createBlankSessionCookie().serialize() };
      return { user, cookie: session.fresh ? lucia.createSessionCookie(session.id).serialize() : null };
    },
    async create(userId) {
      const session = await lucia.createSession(userId, {});
      return lucia.createSessionCookie(session.id).serialize();
    },
    invalidate: (sessionId) => lucia.invalidateSession(sessionId),
    invalidateUser: (userId) => lucia.invalidateUserSessions(userId),
    blankCookie: () => lucia.createBlankSessionCookie().serialize(),
  };
}
