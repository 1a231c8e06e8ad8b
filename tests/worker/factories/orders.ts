/** Orders of each kind the tests need: live transfers (with delivery settings), aged leads, call-backs (decision 0067). */
import type { DeliverySettings } from "../../../src/features/transfers/transfers";
import { orderDelivery, orders } from "../../../worker/db/schema";
import { saveDeliverySettings } from "../../../worker/features/transfers/order-delivery";
import type { Database } from "./db";
import { createBuyer } from "./users";

/** Any column of `orders`; the buyer is made unless `userId` is given (null: a guest's order). */
export type OrderOverrides = Partial<typeof orders.$inferInsert>;

export type TestOrder = typeof orders.$inferSelect;

/**
 * A paid order, by default a live-transfer order of 10 at $50.00 of a fresh buyer (the total follows the
 * quantity and unit price unless given). Only the `orders` row: see `createOpenOrder` for one that routes.
 */
export async function createOrder(db: Database, overrides: OrderOverrides = {}): Promise<TestOrder> {
  const id = overrides.id ?? crypto.randomUUID();
  const userId = overrides.userId === undefined ? (await createBuyer(db)).id : overrides.userId;
  const quantity = overrides.quantity ?? 10;
  const unitPriceCents = overrides.unitPriceCents ?? 5000;
  const [row] = await db
    .insert(orders)
    .values({
      kind: "transfer",
      tier: "standard",
      totalCents: quantity * unitPriceCents,
      paymentIntentId: `pi_test_${id}`,
      status: "paid",
      paidAt: new Date(),
      ...overrides,
      id,
      userId,
      quantity,
      unitPriceCents,
    })
    .returning();
  if (!row) throw new Error("the order was not inserted");
  return row;
}

/** Delivery settings routing takes: all day, every day, every state, 100 a day, no other limit, to 214-555-9000. */
const OPEN_DELIVERY: DeliverySettings = {
  transferPhone: "2145559000",
  states: [],
  hoursStartMinute: 0,
  hoursEndMinute: 0,
  days: null,
  timeZone: "America/Chicago",
  perDayCap: 100,
  closedFrom: null,
  closedUntil: null,
  perHourCap: null,
  maxConcurrent: null,
};

/** A paid live-transfer order with complete delivery settings (`delivery` changes some): routing sends it calls. */
export async function createOpenOrder(
  db: Database,
  overrides: OrderOverrides = {},
  delivery: Partial<DeliverySettings> = {},
): Promise<TestOrder> {
  const order = await createOrder(db, { ...overrides, kind: "transfer" });
  const given = Object.fromEntries(Object.entries(delivery).filter(([, value]) => value !== undefined));
  await saveDeliverySettings({ db }, order.id, order.quantity, { ...OPEN_DELIVERY, ...given });
  return order;
}

/**
 * A paid live-transfer order as checkout leaves it: awaiting its delivery settings (no transfer phone), so
 * routing sends it nothing until the buyer gives them.
 */
export async function createAwaitingOrder(db: Database, overrides: OrderOverrides = {}): Promise<TestOrder> {
  const order = await createOrder(db, { ...overrides, kind: "transfer" });
  await db.insert(orderDelivery).values({ orderId: order.id, transferPhone: null, transfersTotal: order.quantity });
  return order;
}

/** A paid aged-leads order (the leads are not marked sold: see `createLead`'s `soldOrderId`). */
export function createAgedLeadOrder(db: Database, overrides: OrderOverrides = {}): Promise<TestOrder> {
  return createOrder(db, { kind: "aged-leads", tier: null, quantity: 1, unitPriceCents: 500, ...overrides });
}

/** A paid survey "Call-Backs" order of 5 at $15.00: every state, any time (decision 0058). */
export function createCallbackOrder(db: Database, overrides: OrderOverrides = {}): Promise<TestOrder> {
  const quantity = overrides.quantity ?? 5;
  return createOrder(db, {
    kind: "survey",
    tier: null,
    unitPriceCents: 1500,
    details: { leadType: "Call-Backs", totalCallbacks: quantity },
    ...overrides,
    quantity,
  });
}
