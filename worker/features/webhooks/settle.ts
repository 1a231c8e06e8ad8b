/**
 * Writes what a consumer batch decided, in one D1 batch: each delivery's new state (one statement over a
 * JSON list), the bodies built for first attempts, and each endpoint's failing streak, switching off the
 * ones that failed for 3 days (their open deliveries become dead letters). Then e-mails those buyers.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { RetryDecision } from "../../../src/features/webhooks/delivery";
import { batchable } from "../../db/raw-batch";
import { users, type webhookDeliveries, webhookEndpoints } from "../../db/schema";
import type { Deps } from "../../deps";
import { emails } from "../../services/email-templates";
import { sendMail, siteOrigin } from "../../services/mail";
import { type EndpointRow, stopOpenDeliveries } from "./endpoints";
import type { AttemptResult } from "./send";

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export type Settlement =
  /**
   * Waits until `park` (epoch ms), its claim let go: behind an earlier event of its subject, or for its
   * endpoint's turn (docs/decisions/0052; the caller queues those again with their delay).
   */
  | { row: DeliveryRow; lease: number; park: number }
  /** Given up without an attempt (its endpoint switched off or gone, its fact gone). */
  | { row: DeliveryRow; lease: number; deadLetter: string }
  /** Attempted: `decision` is null when delivered. */
  | { row: DeliveryRow; lease: number; result: AttemptResult; decision: RetryDecision | null };

/** An endpoint a batch sent to, let go: when it may be sent to again (null: at once). */
export interface EndpointRelease {
  endpointId: string;
  lease: number;
  nextSendAt: number | null;
}

export interface EndpointHealthUpdate {
  endpoint: EndpointRow;
  failingSince: number | null;
  switchOff: boolean;
}

const ms = (date: Date | null) => date?.getTime() ?? null;
/** Bodies written per statement, well under D1's 2 MB for one bound value. */
const PAYLOAD_CHUNK_CHARS = 1_000_000;

/** The delivery's columns after a claimed settlement, as one JSON object of the list. */
function claimedValues(deps: Deps, item: Exclude<Settlement, { park: number }>) {
  const { row, lease } = item;
  const key = { e: row.eventId, p: row.endpointId, lease };
  if ("deadLetter" in item) {
    return {
      ...key,
      status: "dead_letter",
      attempts: row.attempts,
      round: row.roundAttempts,
      first: ms(row.firstAttemptAt),
      last: ms(row.lastAttemptAt),
      next: ms(row.nextAttemptAt),
      code: row.lastStatusCode,
      error: item.deadLetter,
      latency: row.latencyMs,
      answer: row.answer,
    };
  }
  const { result, decision } = item;
  return {
    ...key,
    status: result.delivered ? "delivered" : decision?.action === "retry" ? "retrying" : "dead_letter",
    attempts: row.attempts + 1,
    round: row.roundAttempts + 1,
    first: ms(row.firstAttemptAt) ?? deps.now,
    last: deps.now,
    next: decision?.action === "retry" ? decision.at : ms(row.nextAttemptAt),
    code: result.statusCode,
    error: result.error,
    latency: result.latencyMs,
    answer: result.answer,
  };
}

/**
 * Raw SQL: one UPDATE … FROM over a JSON list settles a whole Queue batch (up to 100 deliveries) in one
 * statement instead of a hundred; each row only while this consumer's lease on it still holds.
 */
function settleClaimed(deps: Deps, values: ReturnType<typeof claimedValues>[]) {
  const field = (name: string) => sql.raw(`json_extract(j.value, '$.${name}')`);
  return batchable(
    deps.db,
    deps.db.run(sql`
    UPDATE webhook_deliveries SET status = ${field("status")}, attempts = ${field("attempts")},
      round_attempts = ${field("round")}, first_attempt_at = ${field("first")}, last_attempt_at = ${field("last")},
      next_attempt_at = ${field("next")}, last_status_code = ${field("code")}, last_error = ${field("error")},
      latency_ms = ${field("latency")}, answer = ${field("answer")}, leased_until = NULL
    FROM json_each(${JSON.stringify(values)}) j
    WHERE webhook_deliveries.event_id = ${field("e")} AND webhook_deliveries.endpoint_id = ${field("p")}
      AND webhook_deliveries.leased_until = ${field("lease")}`),
  );
}

/** Raw SQL: parked deliveries move their next attempt and let go of their claim, in one statement. */
function settleParked(deps: Deps, parked: { row: DeliveryRow; lease: number; park: number }[]) {
  const list = JSON.stringify(parked.map(({ row, lease, park }) => [row.eventId, row.endpointId, park, lease]));
  return batchable(
    deps.db,
    deps.db.run(sql`
      UPDATE webhook_deliveries SET next_attempt_at = json_extract(j.value, '$[2]'), leased_until = NULL
      FROM json_each(${list}) j
      WHERE webhook_deliveries.event_id = json_extract(j.value, '$[0]')
        AND webhook_deliveries.endpoint_id = json_extract(j.value, '$[1]')
        AND webhook_deliveries.leased_until = json_extract(j.value, '$[3]')`),
  );
}

/** Raw SQL: each event's body, kept the first time it is built (UPDATE … FROM a JSON list). */
function keepPayloads(deps: Deps, built: Map<string, string | null>) {
  const statements: BatchItem<"sqlite">[] = [];
  let chunk: [string, string][] = [];
  let size = 0;
  const flush = () => {
    if (chunk.length === 0) return;
    statements.push(
      batchable(
        deps.db,
        deps.db.run(sql`
          UPDATE webhook_events SET payload = json_extract(j.value, '$[1]')
          FROM json_each(${JSON.stringify(chunk)}) j
          WHERE webhook_events.id = json_extract(j.value, '$[0]') AND webhook_events.payload IS NULL`),
      ),
    );
    chunk = [];
    size = 0;
  };
  for (const [id, body] of built) {
    if (body === null) continue;
    if (size + body.length > PAYLOAD_CHUNK_CHARS) flush();
    chunk.push([id, body]);
    size += body.length;
  }
  flush();
  return statements;
}

function healthStatements(deps: Deps, health: readonly EndpointHealthUpdate[]) {
  const statements: BatchItem<"sqlite">[] = [];
  for (const { endpoint, failingSince, switchOff } of health) {
    if (switchOff) {
      statements.push(
        deps.db
          .update(webhookEndpoints)
          .set({ enabled: false, disabledAt: new Date(deps.now), failingSince: null, updatedAt: new Date(deps.now) })
          .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.enabled, true))),
        stopOpenDeliveries(
          deps,
          endpoint.id,
          sql`EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = ${endpoint.id} AND disabled_at = ${deps.now})`,
        ),
      );
    } else if (failingSince !== (endpoint.failingSince?.getTime() ?? null)) {
      statements.push(
        deps.db
          .update(webhookEndpoints)
          .set({ failingSince: failingSince === null ? null : new Date(failingSince) })
          .where(eq(webhookEndpoints.id, endpoint.id)),
      );
    }
  }
  return statements;
}

/** Raw SQL: the batch lets go of the endpoints it sent to, with when each may be sent to next, in one statement. */
function releaseEndpoints(deps: Deps, releases: readonly EndpointRelease[]) {
  const list = JSON.stringify(releases.map(({ endpointId, lease, nextSendAt }) => [endpointId, lease, nextSendAt]));
  return batchable(
    deps.db,
    deps.db.run(sql`
      UPDATE webhook_endpoints SET sending_until = NULL, next_send_at = json_extract(j.value, '$[2]')
      FROM json_each(${list}) j
      WHERE webhook_endpoints.id = json_extract(j.value, '$[0]')
        AND webhook_endpoints.sending_until = json_extract(j.value, '$[1]')`),
  );
}

/** Writes the batch's outcome; answers the endpoints this batch switched off. */
export async function settle(
  deps: Deps,
  settlements: readonly Settlement[],
  built: Map<string, string | null>,
  health: readonly EndpointHealthUpdate[],
  releases: readonly EndpointRelease[] = [],
): Promise<EndpointRow[]> {
  const parked = settlements.filter((item): item is Extract<Settlement, { park: number }> => "park" in item);
  const claimed = settlements.filter((item): item is Exclude<Settlement, { park: number }> => !("park" in item));
  const statements: BatchItem<"sqlite">[] = [
    ...keepPayloads(deps, built),
    ...(claimed.length
      ? [
          settleClaimed(
            deps,
            claimed.map((item) => claimedValues(deps, item)),
          ),
        ]
      : []),
    ...(parked.length ? [settleParked(deps, parked)] : []),
    ...healthStatements(deps, health),
    ...(releases.length ? [releaseEndpoints(deps, releases)] : []),
  ];
  const [first, ...rest] = statements;
  if (first) await deps.db.batch([first, ...rest]);
  const candidates = health.filter((item) => item.switchOff).map((item) => item.endpoint.id);
  if (candidates.length === 0) return [];
  // Switched off by this batch: the ones whose `disabled_at` is this batch's time.
  return deps.db
    .select()
    .from(webhookEndpoints)
    .where(and(inArray(webhookEndpoints.id, candidates), eq(webhookEndpoints.disabledAt, new Date(deps.now))));
}

/** E-mails each switched-off endpoint's buyer; the switch-off stands if the mail fails. */
export async function switchOffEndpoints(deps: Deps, switchedOff: readonly EndpointRow[]): Promise<void> {
  if (switchedOff.length === 0) return;
  const owners = await deps.db
    .select({ id: users.id, email: users.email, firstName: users.firstName })
    .from(users)
    .where(inArray(users.id, [...new Set(switchedOff.map((endpoint) => endpoint.userId))]));
  const ownerOf = new Map(owners.map((owner) => [owner.id, owner]));
  for (const endpoint of switchedOff) {
    const owner = ownerOf.get(endpoint.userId);
    if (!owner?.email) continue;
    console.warn(`Webhook endpoint ${endpoint.id} switched off after failing for 3 days`);
    try {
      await sendMail(
        deps,
        owner.email,
        emails.webhookEndpointSwitchedOff(siteOrigin(deps), {
          firstName: owner.firstName,
          endpointName: endpoint.name,
          url: endpoint.url,
        }),
      );
    } catch (error) {
      console.error(`Could not e-mail the buyer of switched-off endpoint ${endpoint.id}`, error);
    }
  }
}
