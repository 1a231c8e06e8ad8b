/** Password-reset tokens (D10): 32 random bytes, only their SHA-256 stored, single use, one hour. */
import { encodeBase64urlNoPadding, encodeHexLowerCase } from "@oslojs/encoding";

import { RESET_LINK_TTL_MS } from "../../src/domain/auth-limits";

export const RESET_TOKEN_TTL_MS = RESET_LINK_TTL_MS;

/** Hex SHA-256 of a token: what every single-use link stores instead of the token. */
export async function sha256Hex(text: string): Promise<string> {
  return encodeHexLowerCase(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))));
}

export async function issueResetToken(db: D1Database, userId: string, now = Date.now()): Promise<string> {
  const token = encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(32)));
  await db
    .prepare("INSERT INTO password_reset_tokens (token_hash, user_id, expires_at) VALUES (?, ?, ?)")
    .bind(await sha256Hex(token), userId, now + RESET_TOKEN_TTL_MS)
    .run();
  return token;
}

export async function isResetTokenValid(db: D1Database, token: string, now = Date.now()): Promise<boolean> {
  const row = await db
    .prepare("SELECT 1 AS ok FROM password_reset_tokens WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?")
    .bind(await sha256Hex(token), now)
    .first();
  return row !== null;
}

/** Marks the token used and answers its user, or null when it is unknown, used or expired. */
export async function consumeResetToken(db: D1Database, token: string, now = Date.now()): Promise<string | null> {
  const row = await db
    .prepare(
      `UPDATE password_reset_tokens SET used_at = ?1
       WHERE token_hash = ?2 AND used_at IS NULL AND expires_at > ?1
       RETURNING user_id`,
    )
    .bind(now, await sha256Hex(token))
    .first<{ user_id: string }>();
  if (!row) return null;
  await db.prepare("DELETE FROM password_reset_tokens WHERE user_id = ? AND used_at IS NULL").bind(row.user_id).run();
  return row.user_id;
}
