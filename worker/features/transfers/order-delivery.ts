/**
 * The delivery settings of live-transfer orders. One writer for `order_delivery` and
 * its per-state mirror `order_delivery_states`, so routing's state index never disagrees with the settings.
 */
import { eq } from "drizzle-orm";
import { isLiveTransferOrder } from "../../../src/features/transfers/delivery-setup";
import { ALL_STATES, type DeliverySettings, isDeliveryComplete } from "../../../src/features/transfers/transfers";
import { insertInChunks } from "../../db/bulk-insert";
import { orderDelivery, orderDeliveryStates, orders } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError, NotFoundError } from "../../errors";

/** The order whose deliveries an admin manages: a live-transfer order (else NotFound) that is paid (else Conflict). */
export async function paidLiveTransferOrder(deps: Deps, orderId: string) {
  const order = await deps.db.select().from(orders).where(eq(orders.id, orderId)).get();
  if (!order || !isLiveTransferOrder(order.kind, order.details)) throw new NotFoundError("Order not found");
  if (order.status !== "paid") throw new ConflictError(`A ${order.status} order takes no deliveries.`);
  return order;
}

/**
 * The statements that create or replace an order's delivery settings (and its transfer count), for a
 * caller's batch. The setup is 'ready' when the settings are complete, 'awaiting_setup' otherwise.
 * Counts of delivered transfers are kept.
 */
export function deliverySettingsStatements(
  deps: Pick<Deps, "db">,
  orderId: string,
  transfersTotal: number,
  settings: DeliverySettings,
) {
  const { db } = deps;
  const states = [...new Set(settings.states.map((state) => state.toUpperCase()))].sort();
  const values = {
    ...settings,
    states,
    transfersTotal,
    setupStatus: isDeliveryComplete(settings) ? ("ready" as const) : ("awaiting_setup" as const),
    updatedAt: new Date(),
  };
  const stateRows = (states.length > 0 ? states : [ALL_STATES]).map((state) => ({ state, orderId }));
  return [
    db
      .insert(orderDelivery)
      .values({ orderId, ...values })
      .onConflictDoUpdate({ target: orderDelivery.orderId, set: values }),
    db.delete(orderDeliveryStates).where(eq(orderDeliveryStates.orderId, orderId)),
    ...insertInChunks(db, orderDeliveryStates, stateRows),
  ] as const;
}

/** Creates or replaces an order's delivery settings in one transaction (see deliverySettingsStatements). */
export async function saveDeliverySettings(
  deps: Pick<Deps, "db">,
  orderId: string,
  transfersTotal: number,
  settings: DeliverySettings,
): Promise<void> {
  await deps.db.batch(deliverySettingsStatements(deps, orderId, transfersTotal, settings));
}

/**
 * Marks a paid order 'awaiting setup' without touching anything else it has: what runs when its settings
 * could not be saved, so the buyer and /admin-orders see that it waits (one small statement).
 */
export async function markAwaitingSetup(deps: Deps, orderId: string, transfersTotal: number): Promise<void> {
  await deps.db
    .insert(orderDelivery)
    .values({ orderId, transfersTotal, setupStatus: "awaiting_setup" })
    .onConflictDoUpdate({
      target: orderDelivery.orderId,
      set: { setupStatus: "awaiting_setup", updatedAt: new Date() },
    });
}

/** An order's delivery settings and counts, or undefined when it has none. */
export async function getOrderDelivery(deps: Deps, orderId: string) {
  return deps.db.query.orderDelivery.findFirst({ where: eq(orderDelivery.orderId, orderId) });
}
