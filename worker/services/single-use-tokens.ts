/**
 * Single-use e-mailed links (partner invitations, delivery setup), hashed like reset tokens (D10):
 * 32 random bytes, only their SHA-256 stored, usable once before they expire.
 */
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { TokenPurpose } from "../../src/domain/transfers";
import type { Database } from "../db/client";
import { singleUseTokens } from "../db/schema";
import { sha256Hex } from "./reset-tokens";

type TokenRow = typeof singleUseTokens.$inferSelect;

export interface NewToken {
  /** Goes into the link; never stored. */
  token: string;
  /** The row to insert (callers batch it with what the token is for). */
  row: typeof singleUseTokens.$inferInsert;
}

export async function mintToken(
  purpose: TokenPurpose,
  ttlMs: number,
  subject: { userId?: string | null; orderId?: string | null; email?: string | null },
  now = Date.now(),
): Promise<NewToken> {
  const token = encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(32)));
  return {
    token,
    row: { tokenHash: await sha256Hex(token), purpose, ...subject, expiresAt: new Date(now + ttlMs) },
  };
}

async function usable(purpose: TokenPurpose, token: string, now: number) {
  return and(
    eq(singleUseTokens.tokenHash, await sha256Hex(token)),
    eq(singleUseTokens.purpose, purpose),
    isNull(singleUseTokens.usedAt),
    gt(singleUseTokens.expiresAt, new Date(now)),
  );
}

/** The token's row while it is unused and unexpired, without using it. */
export async function peekToken(
  db: Database,
  purpose: TokenPurpose,
  token: string,
  now = Date.now(),
): Promise<TokenRow | undefined> {
  return db
    .select()
    .from(singleUseTokens)
    .where(await usable(purpose, token, now))
    .get();
}

/** Marks the token used and answers its row, or undefined when it is unknown, used or expired. */
export async function consumeToken(
  db: Database,
  purpose: TokenPurpose,
  token: string,
  now = Date.now(),
): Promise<TokenRow | undefined> {
  return db
    .update(singleUseTokens)
    .set({ usedAt: new Date(now) })
    .where(await usable(purpose, token, now))
    .returning()
    .get();
}
