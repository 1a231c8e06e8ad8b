/**
 * The one module for single-use e-mailed links (docs/decisions/0028): password reset (1 hour), partner
 * invitation (72 hours) and delivery setup (7 days). A link is 32 random bytes; only its SHA-256 is
 * stored, in `single_use_links` with its purpose. A link is used up only when what it carries is
 * accepted: `redeemLink` marks it used, runs the caller's work, and gives it back if that work fails.
 */
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { and, eq, gt, isNull, ne } from "drizzle-orm";
import type { LinkPurpose } from "../../src/domain/single-use-links";
import { RESET_LINK_TTL_MS } from "../../src/features/accounts/auth-limits";
import { INVITATION_TTL_HOURS } from "../../src/features/partners/schemas/partner-account";
import { SETUP_LINK_TTL_DAYS } from "../../src/features/transfers/delivery-setup";
import type { Database } from "../db/client";
import { singleUseLinks } from "../db/schema";
import type { Deps } from "../deps";
import { InvalidError } from "../errors";
import { sha256Hex } from "./digest";

const HOUR_MS = 60 * 60 * 1000;

/** How long a link of each purpose works after it is made. */
const LINK_TTL_MS: Record<LinkPurpose, number> = {
  password_reset: RESET_LINK_TTL_MS,
  partner_invitation: INVITATION_TTL_HOURS * HOUR_MS,
  delivery_setup: SETUP_LINK_TTL_DAYS * 24 * HOUR_MS,
};

/** The page each link opens (its token goes in `?token=`). */
const LINK_PAGES: Record<LinkPurpose, string> = {
  password_reset: "/reset-password",
  partner_invitation: "/partner-invitation",
  delivery_setup: "/delivery-setup",
};

type Link = typeof singleUseLinks.$inferSelect;
type LinkSubject = Pick<typeof singleUseLinks.$inferInsert, "userId" | "orderId" | "email">;

interface NewLink {
  /** The page and token (`/reset-password?token=…`): goes into the e-mail only, never stored. */
  path: string;
  /** The row's insert, to run alone or in the caller's batch. */
  insert: ReturnType<typeof insertLink>;
}

const insertLink = (db: Database, row: typeof singleUseLinks.$inferInsert) => db.insert(singleUseLinks).values(row);

/** Makes a link for `subject`; nothing is stored until `insert` runs. */
export async function newLink(deps: Deps, purpose: LinkPurpose, subject: LinkSubject): Promise<NewLink> {
  const { db, now } = deps;
  const token = encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(32)));
  const row = {
    tokenHash: await sha256Hex(token),
    purpose,
    ...subject,
    expiresAt: new Date(now + LINK_TTL_MS[purpose]),
  };
  return { path: `${LINK_PAGES[purpose]}?token=${token}`, insert: insertLink(db, row) };
}

async function usable(purpose: LinkPurpose, token: string, now: number) {
  return and(
    eq(singleUseLinks.tokenHash, await sha256Hex(token)),
    eq(singleUseLinks.purpose, purpose),
    isNull(singleUseLinks.usedAt),
    gt(singleUseLinks.expiresAt, new Date(now)),
  );
}

/** The link's row while it is unused and unexpired, without using it. */
export async function peekLink(deps: Deps, purpose: LinkPurpose, token: string): Promise<Link | undefined> {
  const { db, now } = deps;
  return db
    .select()
    .from(singleUseLinks)
    .where(await usable(purpose, token, now))
    .get();
}

/** The same subject's other unused links of this purpose (a re-sent invitation, a second reset e-mail). */
function siblingsOf(link: Link) {
  const subject = link.orderId
    ? eq(singleUseLinks.orderId, link.orderId)
    : link.userId
      ? eq(singleUseLinks.userId, link.userId)
      : undefined;
  if (!subject) return undefined;
  return and(
    subject,
    eq(singleUseLinks.purpose, link.purpose),
    isNull(singleUseLinks.usedAt),
    ne(singleUseLinks.tokenHash, link.tokenHash),
  );
}

/**
 * Uses the link once: marks it used (atomically, so two requests cannot both use it), then runs `accept`
 * with its row. When `accept` succeeds the subject's other unused links of the purpose are deleted; when
 * it throws (a refused password, settings that cannot be saved) the link is usable again and the error
 * goes on. An unknown, used or expired link throws InvalidError(`invalid`) and runs nothing.
 */
export async function redeemLink<T>(
  deps: Deps,
  link: { purpose: LinkPurpose; token: string; invalid: string },
  accept: (row: Link) => Promise<T>,
): Promise<T> {
  const { db, now } = deps;
  const usedAt = new Date(now);
  const row = await db
    .update(singleUseLinks)
    .set({ usedAt })
    .where(await usable(link.purpose, link.token, now))
    .returning()
    .get();
  if (!row) throw new InvalidError(link.invalid);
  let result: T;
  try {
    result = await accept(row);
  } catch (error) {
    await db
      .update(singleUseLinks)
      .set({ usedAt: null })
      .where(and(eq(singleUseLinks.tokenHash, row.tokenHash), eq(singleUseLinks.usedAt, usedAt)));
    throw error;
  }
  const siblings = siblingsOf(row);
  if (siblings) await db.delete(singleUseLinks).where(siblings);
  return result;
}
