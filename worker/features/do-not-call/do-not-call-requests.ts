/**
 * The admins' view of the /do-not-call requests (docs/decisions/0055): newest first, paged, searched by
 * number; and the removal of a number from the shop's own list, with who, when and why logged. A number
 * taken off frees its unsold leads by the suppression rule (product rule 40): for sale again unless another
 * active shared list holds it (`sharedListHolds`, as a list upload's removals do).
 */
import { count, desc, eq, inArray, sql } from "drizzle-orm";
import {
  CLIENT_HASH_SHOWN,
  DO_NOT_CALL_REMOVAL_MESSAGES,
  DO_NOT_CALL_REQUESTS_PAGE_SIZE,
  type DoNotCallRequestPage,
  formatPhoneKey,
} from "../../../src/features/do-not-call/do-not-call-requests";
import type { DoNotCallRemoval } from "../../../src/features/do-not-call/schemas/do-not-call-requests";
import { doNotCallRemovals, doNotCallRequests, users } from "../../db/schema";
import type { Deps } from "../../deps";
import { NotFoundError } from "../../errors";
import { NOW_MS, sharedListHolds } from "./suppression-rules";

const INTERNAL_LIST = "(SELECT id FROM suppression_lists WHERE kind = 'internal_dnc')";

/** The request's number is on the shop's own list now (qualified: drizzle would write a bare "number", n's). */
const listedOnInternal = sql<number>`EXISTS (SELECT 1 FROM suppression_numbers n JOIN suppression_lists l
  ON l.id = n.list_id WHERE n.number = do_not_call_requests.number AND l.kind = 'internal_dnc')`;

/** A page of requests, newest first; only those for `phone` (10 digits) when given. */
export async function listDoNotCallRequests(
  deps: Deps,
  query: { page: number; phone?: string | undefined },
): Promise<DoNotCallRequestPage> {
  const pageSize = DO_NOT_CALL_REQUESTS_PAGE_SIZE;
  const where = query.phone === undefined ? undefined : eq(doNotCallRequests.number, Number(query.phone));
  const [rows, [matching]] = await Promise.all([
    deps.db
      .select({
        id: doNotCallRequests.id,
        number: doNotCallRequests.number,
        email: doNotCallRequests.email,
        reason: doNotCallRequests.reason,
        createdAt: doNotCallRequests.createdAt,
        clientHash: doNotCallRequests.clientHash,
        userAgent: doNotCallRequests.userAgent,
        listed: listedOnInternal,
      })
      .from(doNotCallRequests)
      .where(where)
      .orderBy(desc(doNotCallRequests.createdAt), desc(doNotCallRequests.id))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    deps.db.select({ n: count() }).from(doNotCallRequests).where(where),
  ]);
  const numbers = [...new Set(rows.map((row) => row.number))];
  const removals =
    numbers.length === 0
      ? []
      : await deps.db
          .select({
            number: doNotCallRemovals.number,
            at: doNotCallRemovals.createdAt,
            by: users.email,
            reason: doNotCallRemovals.reason,
          })
          .from(doNotCallRemovals)
          .leftJoin(users, eq(users.id, doNotCallRemovals.removedBy))
          .where(inArray(doNotCallRemovals.number, numbers))
          .orderBy(desc(doNotCallRemovals.createdAt));
  return {
    requests: rows.map((row) => {
      const createdAt = row.createdAt.getTime();
      // The latest removal of the number since this request (a later request lists it again).
      const removal = removals.find((item) => item.number === row.number && item.at.getTime() >= createdAt);
      return {
        id: row.id,
        phone: String(row.number),
        email: row.email,
        reason: row.reason,
        createdAt,
        client: row.clientHash?.slice(0, CLIENT_HASH_SHOWN) ?? null,
        userAgent: row.userAgent,
        listed: Boolean(row.listed),
        removal: removal ? { at: removal.at.getTime(), by: removal.by, reason: removal.reason } : null,
      };
    }),
    count: matching?.n ?? 0,
    page: query.page,
    pageSize,
  };
}

/**
 * Takes the number off the shop's own list, logging who, when and why; its unsold leads are for sale again
 * unless another active shared list holds it. A number not on the list changes nothing: NotFoundError.
 */
export async function removeDoNotCallNumber(
  deps: Deps,
  adminId: string,
  removal: DoNotCallRemoval,
): Promise<{ phone: string; message: string; leadsReleased: number }> {
  const db = deps.env.DB;
  const number = Number(removal.phone);
  const id = crypto.randomUUID();
  const removed = "EXISTS (SELECT 1 FROM do_not_call_removals WHERE id = ?2)";
  // Raw statements: one D1 transaction, each after the first guarded by the removal row that the delete's
  // changes() let in, so a number that is not listed (or that another admin just removed) changes nothing.
  // The leads answer RETURNING: meta.changes would count the writes of aged_leads' triggers too.
  const [, logged, , released] = await db.batch([
    db.prepare(`DELETE FROM suppression_numbers WHERE number = ? AND list_id = ${INTERNAL_LIST}`).bind(number),
    db
      .prepare(
        "INSERT INTO do_not_call_removals (id, number, removed_by, reason, created_at) SELECT ?, ?, ?, ?, ? WHERE changes() > 0",
      )
      .bind(id, number, adminId, removal.reason, deps.now),
    db
      .prepare(
        `UPDATE suppression_lists SET numbers = numbers - 1, refreshed_on = ?1, updated_at = ${NOW_MS}
         WHERE kind = 'internal_dnc' AND ${removed}`,
      )
      .bind(new Date(deps.now).toISOString().slice(0, 10), id),
    db
      .prepare(
        `UPDATE aged_leads SET suppressed_at = NULL
         WHERE phone_key = ?1 AND sold_at IS NULL AND suppressed_at IS NOT NULL AND registry_listed_at IS NULL
           AND NOT ${sharedListHolds("aged_leads.phone_key")} AND ${removed}
         RETURNING id`,
      )
      .bind(number, id),
  ]);
  const phone = formatPhoneKey(removal.phone);
  if (logged?.meta.changes !== 1) throw new NotFoundError(DO_NOT_CALL_REMOVAL_MESSAGES.notListed(phone));
  return { phone, message: DO_NOT_CALL_REMOVAL_MESSAGES.removed(phone), leadsReleased: released?.results.length ?? 0 };
}
