/**
 * Routing's SQL for an order's agents (docs/decisions/0072): the candidate reads take each order's agents
 * (one seek on order_agents_order_idx), the pure rule (src/features/transfers/agent-routing.ts) keeps those who may
 * take the call now, and the claim picks among them, in the one INSERT … SELECT that takes the slot, the
 * least recently used agent not on a call. Raw, because these are correlated subqueries on the measured
 * routing path that drizzle's builder cannot say.
 */
import { type SQL, sql } from "drizzle-orm";
import type { RoutingAgent } from "../../../src/features/transfers/agent-routing";
import { inZone, onWeekdaySql, withinHoursSql } from "./routing-sql";

/**
 * The latest transfer of agent `a` (its rowid): one backwards seek on transfers_agent_routed_idx. It alone
 * can hold the agent, because routing gives an agent a call only when it holds none.
 */
const latestTransferOf = sql`(SELECT r.rowid FROM transfers r WHERE r.agent_id = a.id ORDER BY r.routed_at DESC, r.rowid DESC LIMIT 1)`;

/** Transfer `l` holds its agent at `now`: routed or connected, not expired (the order's slot's own hold). */
const holds = (now: number) => sql`l.status IN ('routed', 'connected') AND l.expires_at > ${now}`;

/** Agents `a`, each beside its latest transfer `l` (none: never used). */
const agentsWithLatest = sql`order_agents a LEFT JOIN transfers l ON l.rowid = ${latestTransferOf}`;

/** Agent `a` (beside `l`, `agentsWithLatest`) is not removed, is taking calls and is not on a call at `now`. */
const freeAgent = (now: number) =>
  sql`a.removed_at IS NULL AND a.taking_calls = 1 AND (l.rowid IS NULL OR NOT (${holds(now)}))`;

/**
 * The agents (not removed) of the order `orderId` and whether each is on a call at `now`, as a JSON
 * array for `agentsOf`: one seek on order_agents_order_idx, and one per agent for its latest transfer.
 */
export const agentsJson = (orderId: SQL, now: number) =>
  sql`(SELECT json_group_array(json_object('id', a.id, 'states', json(a.states), 'timeZone', a.time_zone,
      'days', json(a.days), 'hoursStartMinute', a.hours_start_minute, 'hoursEndMinute', a.hours_end_minute,
      'takingCalls', a.taking_calls = 1,
      'onCall', EXISTS (SELECT 1 FROM transfers l WHERE l.rowid = ${latestTransferOf} AND ${holds(now)})))
    FROM order_agents a WHERE a.order_id = ${orderId} AND a.removed_at IS NULL)`;

/** An `agentsJson` column read back; null when the read did not take the agents. */
export function agentsOf(json: string | null | undefined): RoutingAgent[] | null {
  if (json === null || json === undefined) return null;
  type Row = Omit<RoutingAgent, "takingCalls" | "onCall"> & { takingCalls: number; onCall: number };
  return (JSON.parse(json) as Row[]).map((agent) => ({
    ...agent,
    takingCalls: Boolean(agent.takingCalls),
    onCall: Boolean(agent.onCall),
  }));
}

/**
 * The one agent the claim rings, as a subquery of `id` and `transfer_phone` (no row: none is free): among
 * `ids` (those the pure rule let through), still on order `orderId`, not removed and taking calls, the
 * free one whose latest transfer is oldest (never-used first, then the transfer's insertion order, then
 * the id: `compareByLastUse`).
 *
 * One seek per agent: its latest transfer (`latestTransferOf`). The agent is on a call while that transfer
 * is routed or connected and not expired (a connected call is held for CONNECTED_HOLD_SECONDS, the timeout
 * for a call never reported). The read said the same a moment ago; this is the check that counts.
 */
export const agentPick = (orderId: string, ids: readonly string[], now: number) =>
  sql`(SELECT a.id, a.transfer_phone FROM ${agentsWithLatest}
    WHERE a.order_id = ${orderId} AND a.id IN (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )}) AND ${freeAgent(now)}
    ORDER BY l.routed_at IS NOT NULL, l.routed_at, l.rowid, a.id LIMIT 1)`;

/**
 * Order `orderId` may have an agent for a call from `state` now: it has none (its own phone rings), or one
 * licensed in the state, taking calls, within its days and hours in its zone (`times`: routing-sql.ts's
 * `localTimes`), and not on a call. `agentIneligibility` (src/features/transfers/agent-routing.ts) says the
 * same and decides; this lets the candidate read pass over orders none of whose agents could take the call.
 * A zone the SQL cannot read passes.
 */
export const mayHaveAgentFor = (orderId: SQL, state: string, times: string | SQL, now: number) => {
  const local = (field: "weekday" | "minute") => inZone(times, "a.time_zone", field);
  return sql`(${withoutAgents(orderId)} OR EXISTS (SELECT 1 FROM ${agentsWithLatest}
    WHERE a.order_id = ${orderId} AND ${freeAgent(now)}
      AND EXISTS (SELECT 1 FROM json_each(a.states) WHERE value = ${state})
      AND ${onWeekdaySql(sql`a.days`, local("weekday"))}
      AND ${withinHoursSql(local("minute"), sql`a.hours_start_minute`, sql`a.hours_end_minute`)}))`;
};

/** The order `orderId` has no agent (not removed): its calls ring its own transfer phone. One index seek. */
export const withoutAgents = (orderId: SQL) =>
  sql`NOT EXISTS (SELECT 1 FROM order_agents x WHERE x.order_id = ${orderId} AND x.removed_at IS NULL)`;
