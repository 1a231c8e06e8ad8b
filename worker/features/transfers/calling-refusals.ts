/**
 * The ping's refusals by the calling rules (docs/decisions/0064): `calling_window` and `call_limit`, each
 * with the first moment the call may be routed, and the one bounded count a state's 24-hour limit needs.
 */
import { sql } from "drizzle-orm";
import { NO_ROUTE_REASONS } from "../../../src/features/transfers/transfers";
import { ConflictError } from "../../errors";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A refusal by the calling rules, with the first moment the call may be routed (when one is within the search). */
export function refuseUntil(reason: "calling_window" | "call_limit", nextAllowedAt: number | null): never {
  const next = nextAllowedAt === null ? {} : { nextAllowedAt: new Date(nextAllowedAt).toISOString() };
  throw new ConflictError(NO_ROUTE_REASONS[reason], { reason, ...next });
}

/**
 * For a state that limits calls to one number in 24 hours: the routing time of the call that reached the
 * limit (the limit-th newest within 24 hours), or NULL under it. Raw SQL on the ping's one statement: a
 * bounded range seek on transfers_phone_routed_idx. Elsewhere a constant NULL, so no count is taken.
 */
export function limitReachedAt(phone: string, limit: number | null, now: number) {
  if (limit === null) return sql`NULL`;
  return sql`(SELECT l.routed_at FROM transfers l WHERE l.phone = ${phone} AND l.routed_at > ${now - DAY_MS}
    ORDER BY l.routed_at DESC LIMIT 1 OFFSET ${limit - 1})`;
}
