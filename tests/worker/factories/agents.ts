/** An order's agents straight into D1, as the agents' service leaves them (docs/decisions/0072). */
import { orderAgents } from "../../../worker/db/schema";
import { type Database, nextNumber } from "./db";

/** Any column of `order_agents` but the order, which is always given. */
type AgentOverrides = Partial<typeof orderAgents.$inferInsert>;

type TestAgent = typeof orderAgents.$inferSelect;

/**
 * An agent of `orderId` taking calls from Texas all day, every day (Chicago time), at a fresh number
 * (area code 469: a buyer-side number, never a prospect's).
 */
export async function createAgent(db: Database, orderId: string, overrides: AgentOverrides = {}): Promise<TestAgent> {
  const n = nextNumber();
  const [row] = await db
    .insert(orderAgents)
    .values({
      id: crypto.randomUUID(),
      name: `Agent ${n}`,
      transferPhone: `469${String(n).padStart(7, "0")}`,
      states: ["TX"],
      timeZone: "America/Chicago",
      days: [0, 1, 2, 3, 4, 5, 6],
      hoursStartMinute: 0,
      hoursEndMinute: 0,
      takingCalls: true,
      ...overrides,
      orderId,
    })
    .returning();
  if (!row) throw new Error("the agent was not inserted");
  return row;
}
