/**
 * An order's agents (docs/decisions/0071): its owner (or an admin) lists, adds, edits, removes them and
 * flips each one's "taking calls now" switch. Routing reads the same rows (worker/features/transfers/transfer-routing.ts).
 * Another buyer's order or agent is "not found", exactly as a missing one.
 */
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { normalizeUsPhone } from "../../../src/domain/phone";
import { defaultTimeZone, localTime } from "../../../src/domain/time-zones";
import type { PublicUser } from "../../../src/domain/user";
import { AGENT_MESSAGES, MAX_AGENTS_PER_ORDER } from "../../../src/features/transfers/agents";
import { toClock, toMinute } from "../../../src/features/transfers/delivery-setup";
import type { Agent, AgentValues } from "../../../src/features/transfers/schemas/agents";
import { orderAgents, orderDelivery, orders, transfers } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError, NotFoundError } from "../../errors";

type AgentRow = typeof orderAgents.$inferSelect;
type Editor = Pick<PublicUser, "id" | "isAdmin">;

const NO_SUCH_ORDER = "No such order.";

/**
 * The live-transfer order (paid: it has its delivery row) the editor may change: its buyer's, or any for an
 * admin (as the admin's delivery routes allow). Answers the zone its local day is counted in.
 */
async function editableOrder(deps: Deps, editor: Editor, orderId: string): Promise<{ timeZone: string }> {
  const [order] = await deps.db
    .select({ timeZone: orderDelivery.timeZone })
    .from(orders)
    .innerJoin(orderDelivery, eq(orderDelivery.orderId, orders.id))
    .where(and(eq(orders.id, orderId), editor.isAdmin ? undefined : eq(orders.userId, editor.id)));
  if (!order) throw new NotFoundError(NO_SUCH_ORDER);
  // Routing needs a zone to route at all, so an order without one has no transfers to count yet.
  return { timeZone: order.timeZone ?? defaultTimeZone(undefined) };
}

const activeAgentOf = (orderId: string, agentId: string) =>
  and(eq(orderAgents.id, agentId), eq(orderAgents.orderId, orderId), isNull(orderAgents.removedAt));

/** The columns an agent's form sets (the switch only when the form says). */
function agentColumns(input: AgentValues) {
  return {
    name: input.name,
    transferPhone: normalizeUsPhone(input.transferPhone) ?? input.transferPhone,
    states: [...new Set(input.states)],
    timeZone: input.timeZone,
    days: [...new Set(input.days)].sort((a, b) => a - b),
    hoursStartMinute: toMinute(input.hoursStart),
    hoursEndMinute: toMinute(input.hoursEnd),
  };
}

/** What each agent did on the order's local day, and whether it holds a live call now. */
async function agentActivity(deps: Deps, orderId: string, agentIds: string[], timeZone: string) {
  const { db, now } = deps;
  const activity = new Map<string, { onCall: boolean; callsToday: number; billableToday: number }>();
  if (agentIds.length === 0) return activity;
  const today = localTime(now, timeZone).day;
  const live = sql`(${transfers.status} IN ('routed', 'connected') AND ${transfers.expiresAt} > ${now})`;
  const onToday = sql`(${transfers.buyerLocalDay} = ${today})`;
  const rows = await db
    .select({
      agentId: transfers.agentId,
      callsToday: sql<number>`coalesce(sum(${onToday}), 0)`,
      billableToday: sql<number>`coalesce(sum(${onToday} AND ${transfers.billable}), 0)`,
      onCall: sql<number>`coalesce(max(${live}), 0)`,
    })
    .from(transfers)
    .where(and(eq(transfers.orderId, orderId), inArray(transfers.agentId, agentIds), sql`(${onToday} OR ${live})`))
    .groupBy(transfers.agentId);
  for (const row of rows) {
    if (!row.agentId) continue;
    activity.set(row.agentId, {
      onCall: Number(row.onCall) === 1,
      callsToday: Number(row.callsToday),
      billableToday: Number(row.billableToday),
    });
  }
  return activity;
}

function toAgent(row: AgentRow, activity?: { onCall: boolean; callsToday: number; billableToday: number }): Agent {
  return {
    id: row.id,
    name: row.name,
    transferPhone: row.transferPhone,
    states: row.states,
    timeZone: row.timeZone,
    days: row.days,
    hoursStart: toClock(row.hoursStartMinute),
    hoursEnd: toClock(row.hoursEndMinute),
    takingCalls: row.takingCalls,
    onCall: activity?.onCall ?? false,
    callsToday: activity?.callsToday ?? 0,
    billableToday: activity?.billableToday ?? 0,
  };
}

async function agentsOf(deps: Deps, orderId: string, timeZone: string, only?: string): Promise<Agent[]> {
  const rows = await deps.db
    .select()
    .from(orderAgents)
    .where(
      and(
        eq(orderAgents.orderId, orderId),
        isNull(orderAgents.removedAt),
        only === undefined ? undefined : eq(orderAgents.id, only),
      ),
    )
    .orderBy(asc(orderAgents.name), asc(orderAgents.createdAt));
  const activity = await agentActivity(
    deps,
    orderId,
    rows.map((row) => row.id),
    timeZone,
  );
  return rows.map((row) => toAgent(row, activity.get(row.id)));
}

async function oneAgent(deps: Deps, orderId: string, agentId: string, timeZone: string): Promise<Agent> {
  const [agent] = await agentsOf(deps, orderId, timeZone, agentId);
  if (!agent) throw new NotFoundError(AGENT_MESSAGES.notFound);
  return agent;
}

/** The order's agents (removed ones left out) by name, with their calls today. */
export async function listAgents(deps: Deps, editor: Editor, orderId: string): Promise<Agent[]> {
  const { timeZone } = await editableOrder(deps, editor, orderId);
  return agentsOf(deps, orderId, timeZone);
}

/**
 * Adds an agent. The order's count of agents is read in the insert itself, so two adds at once cannot
 * pass MAX_AGENTS_PER_ORDER together.
 */
export async function addAgent(deps: Deps, editor: Editor, orderId: string, input: AgentValues): Promise<Agent> {
  const { db, now } = deps;
  await editableOrder(deps, editor, orderId);
  const columns = agentColumns(input);
  const id = crypto.randomUUID();
  const active = db
    .select({ n: sql`count(*)` })
    .from(orderAgents)
    .where(and(eq(orderAgents.orderId, orderId), isNull(orderAgents.removedAt)));
  const [row] = await db
    .insert(orderAgents)
    .select(
      db
        .select({
          id: sql<string>`${id}`.as("id"),
          orderId: orderDelivery.orderId,
          name: sql<string>`${columns.name}`.as("name"),
          transferPhone: sql<string>`${columns.transferPhone}`.as("transfer_phone"),
          states: sql<string>`${JSON.stringify(columns.states)}`.as("states"),
          timeZone: sql<string>`${columns.timeZone}`.as("time_zone"),
          days: sql<string>`${JSON.stringify(columns.days)}`.as("days"),
          hoursStartMinute: sql<number>`${columns.hoursStartMinute}`.as("hours_start_minute"),
          hoursEndMinute: sql<number>`${columns.hoursEndMinute}`.as("hours_end_minute"),
          takingCalls: sql<number>`${input.takingCalls === false ? 0 : 1}`.as("taking_calls"),
          removedAt: sql<null>`NULL`.as("removed_at"),
          createdAt: sql<number>`${now}`.as("created_at"),
        })
        .from(orderDelivery)
        .where(and(eq(orderDelivery.orderId, orderId), sql`(${active}) < ${MAX_AGENTS_PER_ORDER}`)),
    )
    .returning();
  if (!row) throw new ConflictError(AGENT_MESSAGES.tooMany);
  return toAgent(row);
}

/** Changes every field of one agent (its switch too when the form sends it). */
export async function updateAgent(
  deps: Deps,
  editor: Editor,
  orderId: string,
  agentId: string,
  input: AgentValues,
): Promise<Agent> {
  const { timeZone } = await editableOrder(deps, editor, orderId);
  const changed = await deps.db
    .update(orderAgents)
    .set({ ...agentColumns(input), ...(input.takingCalls === undefined ? {} : { takingCalls: input.takingCalls }) })
    .where(activeAgentOf(orderId, agentId))
    .returning({ id: orderAgents.id });
  if (changed.length === 0) throw new NotFoundError(AGENT_MESSAGES.notFound);
  return oneAgent(deps, orderId, agentId, timeZone);
}

/** The agent's own "taking calls now" switch. */
export async function setTakingCalls(
  deps: Deps,
  editor: Editor,
  orderId: string,
  agentId: string,
  takingCalls: boolean,
): Promise<Agent> {
  const { timeZone } = await editableOrder(deps, editor, orderId);
  const changed = await deps.db
    .update(orderAgents)
    .set({ takingCalls })
    .where(activeAgentOf(orderId, agentId))
    .returning({ id: orderAgents.id });
  if (changed.length === 0) throw new NotFoundError(AGENT_MESSAGES.notFound);
  return oneAgent(deps, orderId, agentId, timeZone);
}

/** Removes an agent from the order; its row stays (removed_at), so past transfers still name it. */
export async function removeAgent(deps: Deps, editor: Editor, orderId: string, agentId: string): Promise<void> {
  await editableOrder(deps, editor, orderId);
  const changed = await deps.db
    .update(orderAgents)
    .set({ removedAt: new Date(deps.now) })
    .where(activeAgentOf(orderId, agentId))
    .returning({ id: orderAgents.id });
  if (changed.length === 0) throw new NotFoundError(AGENT_MESSAGES.notFound);
}
