/**
 * The public /do-not-call request (product rule 40): the number goes onto the shop's own list and every
 * unsold lead with it stops being listed, reserved or sold, in one transaction, before the page answers;
 * pings for it are refused from then on. Anyone may ask, unverified; the request keeps its time, a salted
 * hash of the client address (never the address) and the user agent, and a burst of requests alerts the
 * admins (docs/decisions/0055).
 */

import { formatPhoneKey, USER_AGENT_MAX_LENGTH } from "../../../src/features/do-not-call/do-not-call-requests";
import type { DoNotCallRequest } from "../../../src/features/do-not-call/schemas/suppression";
import { dayNumber, doNotCallConfirmation } from "../../../src/features/do-not-call/suppression";
import type { Deps } from "../../deps";
import { alertAdminsOfBurst } from "./do-not-call-alerts";
import { revocationsStatement } from "./revocations";
import { NOW_MS } from "./suppression-rules";

const INTERNAL_LIST = "(SELECT id FROM suppression_lists WHERE kind = 'internal_dnc')";

/** The salt local runs and tests use when CLIENT_HASH_SALT is not set. */
const DEVELOPMENT_CLIENT_HASH_SALT = "development client-hash salt";

/** Who asked, as the request's headers say: the client address and the browser's user agent. */
export interface DoNotCallClient {
  address: string;
  userAgent: string | null;
}

/** Hex SHA-256 of the salt and the address (WebCrypto): equal for one address, and no address in it. */
export async function clientHash(deps: Deps, address: string): Promise<string> {
  const salt = deps.env.CLIENT_HASH_SALT;
  if (!salt && deps.env.APP_ENV !== "development") {
    console.warn("CLIENT_HASH_SALT is not set: /do-not-call hashes addresses with the development salt");
  }
  const bytes = new TextEncoder().encode(`${salt || DEVELOPMENT_CLIENT_HASH_SALT}\n${address}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Suppresses the number everywhere at once; answers what the page confirms. */
export async function requestDoNotCall(
  deps: Deps,
  request: DoNotCallRequest,
  client: DoNotCallClient,
): Promise<{ phone: string; message: string }> {
  const db = deps.env.DB;
  const number = Number(request.phone);
  const today = new Date(deps.now).toISOString().slice(0, 10);
  const userAgent = client.userAgent ? client.userAgent.slice(0, USER_AGENT_MAX_LENGTH) : null;
  // Raw statements: one D1 transaction whose list count reads changes() of the insert before it.
  await db.batch([
    // Before the number is listed: what was sold with it, when it is new on the list (docs/decisions/0082).
    revocationsStatement(deps, JSON.stringify([number]), "internal"),
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
      .prepare(
        `INSERT INTO do_not_call_requests (id, number, email, reason, client_hash, user_agent, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        crypto.randomUUID(),
        number,
        request.email ?? null,
        request.reason ?? null,
        await clientHash(deps, client.address),
        userAgent,
        deps.now,
      ),
  ]);
  await alertAdminsOfBurst(deps);
  const phone = formatPhoneKey(request.phone);
  return { phone, message: doNotCallConfirmation(phone) };
}
