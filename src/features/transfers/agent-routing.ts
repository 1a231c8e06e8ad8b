/**
 * Routing to an order's agents (docs/decisions/0072): which agents may take a ping now, and which of the
 * free ones rings (round-robin). Pure: no I/O. The Worker's claim says the same choice in SQL, in the one
 * statement that takes the slot (worker/features/transfers/agent-routing-sql.ts), so two pings never ring one agent.
 */

import { localTime } from "../../domain/time-zones.ts";
import { withinHours } from "./hours.ts";

/** An order's agent as routing reads it (removed agents are never read). */
export interface RoutingAgent {
  id: string;
  /** State codes the agent is licensed in. */
  states: string[];
  /** The agent's own zone: its days and hours are read there. */
  timeZone: string;
  /** Weekdays the agent works, 0 = Sunday … 6. */
  days: number[];
  /** Minutes since local midnight; end < start spans midnight, end = start is all day. */
  hoursStartMinute: number;
  hoursEndMinute: number;
  takingCalls: boolean;
  /** On a call as the routing read saw it (absent: not known; the claim checks again either way). */
  onCall?: boolean;
}

/** Why an agent is passed over before any count: not licensed in the state, outside its hours, switched off. */
type AgentPassOver = "unlicensed" | "outside_hours" | "off";

/** Whether `agent` may take a call from a prospect in `state` at `now`, and if not, why (licence first). */
export function agentIneligibility(agent: RoutingAgent, state: string, now: number): AgentPassOver | null {
  if (!agent.states.includes(state)) return "unlicensed";
  if (!agent.takingCalls) return "off";
  const local = localTime(now, agent.timeZone);
  if (!agent.days.includes(local.weekday)) return "outside_hours";
  if (!withinHours(local.minute, agent.hoursStartMinute, agent.hoursEndMinute)) return "outside_hours";
  return null;
}

/** The agents who may take the call now and were not on a call when read (the claim checks that again). */
export function availableAgents(agents: readonly RoutingAgent[], state: string, now: number): RoutingAgent[] {
  return agents.filter((agent) => !agent.onCall && agentIneligibility(agent, state, now) === null);
}

/**
 * What the claim knows of an agent's calls: whether it is on one (a routed answer not yet expired, or a
 * connected call within its hold) and when its latest transfer was routed, with that transfer's insertion
 * sequence to order two routed in one millisecond.
 */
export interface AgentLoad {
  onCall: boolean;
  /** Epoch ms of the agent's latest transfer; null when it never took one. */
  lastRoutedAt: number | null;
  lastSequence: number | null;
}

/** Round-robin order: never-used first, then the oldest latest transfer, then the id (stable). */
function compareByLastUse(a: AgentLoad & { id: string }, b: AgentLoad & { id: string }): number {
  if (a.lastRoutedAt === null || b.lastRoutedAt === null) {
    if (a.lastRoutedAt !== b.lastRoutedAt) return a.lastRoutedAt === null ? -1 : 1;
  } else if (a.lastRoutedAt !== b.lastRoutedAt) return a.lastRoutedAt - b.lastRoutedAt;
  const sequence = (a.lastSequence ?? 0) - (b.lastSequence ?? 0);
  if (sequence !== 0) return sequence;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The routing rule for agents: among those eligible now and not on a call, the least recently used.
 * Null when none is free (the order is skipped for this ping, as a full order is).
 */
export function pickAgent<T extends RoutingAgent & AgentLoad>(
  agents: readonly T[],
  state: string,
  now: number,
): T | null {
  const free = agents.filter((agent) => !agent.onCall && agentIneligibility(agent, state, now) === null);
  return free.sort(compareByLastUse)[0] ?? null;
}
