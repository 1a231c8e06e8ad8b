/**
 * The public /do-not-call request (issue 24 item 5): the number goes onto the shop's own list and every
 * unsold lead with it stops being listed, reserved or sold, in one transaction, before the page answers;
 * pings for it are refused from then on. The request (e-mail, reason) is kept for the audit trail.
 */

import type { DoNotCallRequest } from "../../src/domain/schemas/suppression";
import { dayNumber, doNotCallConfirmation } from "../../src/domain/suppression";
import type { Deps } from "../deps";
import { NOW_MS } from "./suppression-rules";

const INTERNAL_LIST = "(SELECT id FROM suppression_lists WHERE kind = 'internal_dnc')";

/** Suppresses the number everywhere at once; answers what the page confirms. */
export async function requestDoNotCall(
  deps: Deps,
  request: DoNotCallRequest,
): Promise<{ phone: string; message: string }> {
  const db = deps.env.DB;
  const number = Number(request.phone);
  const today = new Date(deps.now).toISOString().slice(0, 10);
  await db.batch([
    db
      .prepare(
        `INSERT INTO suppression_numbers (number, list_id, added_on) VALUES (?1, ${INTERNAL_LIST}, ?2)
         ON CONFLICT (number, list_id) DO NOTHING`,
      )
      .bind(number, dayNumber(deps.now)),
    db
      .prepare(
        `UPDATE suppression_lists SET numbers = numbers + changes(), refreshed_on = ?1, updated_at = ${NOW_MS}
         WHERE kind = 'internal_dnc'`,
      )
      .bind(today),
    db
      .prepare(
        `UPDATE aged_leads SET suppressed_at = ${NOW_MS} WHERE phone_key = ? AND sold_at IS NULL AND suppressed_at IS NULL`,
      )
      .bind(number),
    db
      .prepare("INSERT INTO do_not_call_requests (id, number, email, reason, created_at) VALUES (?, ?, ?, ?, ?)")
      .bind(crypto.randomUUID(), number, request.email ?? null, request.reason ?? null, deps.now),
  ]);
  const phone = `(${request.phone.slice(0, 3)}) ${request.phone.slice(3, 6)}-${request.phone.slice(6)}`;
  return { phone, message: doNotCallConfirmation(phone) };
}
