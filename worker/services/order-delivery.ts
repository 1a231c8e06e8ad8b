/**
 * The delivery settings of live-transfer orders (issue 15, item 3). One writer for `order_delivery` and
 * its per-state mirror `order_delivery_states`, so routing's state index never disagrees with the settings.
 */
import { eq } from "drizzle-orm";
import { ALL_STATES, type DeliverySettings, isDeliveryComplete } from "../../src/domain/transfers";
import type { Database } from "../db/client";
import { orderDelivery, orderDeliveryStates } from "../db/schema";

/**
 * Creates or replaces an order's delivery settings (and its transfer count). The setup is 'ready' when the
 * settings are complete, 'awaiting_setup' otherwise. Counts of delivered transfers are kept.
 */
export async function saveDeliverySettings(
  db: Database,
  orderId: string,
  transfersTotal: number,
  settings: DeliverySettings,
): Promise<void> {
  const states = [...new Set(settings.states.map((state) => state.toUpperCase()))].sort();
  const values = {
    ...settings,
    states,
    transfersTotal,
    setupStatus: isDeliveryComplete(settings) ? ("ready" as const) : ("awaiting_setup" as const),
    updatedAt: new Date(),
  };
  const stateRows = (states.length > 0 ? states : [ALL_STATES]).map((state) => ({ state, orderId }));
  await db.batch([
    db
      .insert(orderDelivery)
      .values({ orderId, ...values })
      .onConflictDoUpdate({ target: orderDelivery.orderId, set: values }),
    db.delete(orderDeliveryStates).where(eq(orderDeliveryStates.orderId, orderId)),
    // Two parameters a row: chunks keep each statement within D1's 100 bound parameters.
    ...chunks(stateRows, 45).map((rows) => db.insert(orderDeliveryStates).values(rows)),
  ]);
}

function chunks<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}

/** An order's delivery settings and counts, or undefined when it has none. */
export async function getOrderDelivery(db: Database, orderId: string) {
  return db.query.orderDelivery.findFirst({ where: eq(orderDelivery.orderId, orderId) });
}
