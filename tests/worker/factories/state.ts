/**
 * Moving a row's state the way time or another actor would (decision 0067): a hold that ran out, an order
 * closed. Straight into D1 through the schema, for the state a test starts from; what the product does on
 * such a change is driven through its services.
 */
import { and, eq, inArray } from "drizzle-orm";
import { agedLeads, orders } from "../../../worker/db/schema";
import type { Database } from "./db";

/** A buyer's hold on aged leads ran out at `at` (a millisecond ago by default). */
export async function endLeadHold(db: Database, leadId: string, at = Date.now() - 1): Promise<void> {
  await db
    .update(agedLeads)
    .set({ reservedUntil: new Date(at) })
    .where(eq(agedLeads.id, leadId));
}

/**
 * Every paid call-back order (survey and RingCloud) completed: none is open, so a test's own order is the
 * only one call-backs can go to.
 */
export async function closePaidCallbackOrders(db: Database): Promise<void> {
  await db
    .update(orders)
    .set({ status: "completed" })
    .where(and(inArray(orders.kind, ["survey", "ringcloud"]), eq(orders.status, "paid")));
}
