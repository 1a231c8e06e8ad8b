/** Partners, keys and paid live-transfer orders with delivery settings, for the transfer tests. */

import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, vi } from "vitest";
import type { PaymentTerms } from "../../src/features/partners/partner";
import type { DeliverySettings } from "../../src/features/transfers/transfers";
import { orderDelivery, orders, transferEvents, transfers } from "../../worker/db/schema";
import { createDeps } from "../../worker/deps";
import { createPartner as createPartnerRow, createOpenOrder as openOrder, testDb } from "./factories";

/** The services' first parameter, at `now` (the current time unless given). */
export const deps = (now?: number) => createDeps(env, now);

/** A partner with its user and a working API key (the partner factory's, kept for the older tests). */
export function createPartner(
  options: { dailyCallCap?: number; payPerTransferCents?: number; paymentTerms?: PaymentTerms } = {},
) {
  return createPartnerRow(testDb(), options);
}

/** A paid live-transfer order with complete delivery settings (all day, every state, 100 a day by default). */
export async function createOpenOrder(
  options: Partial<DeliverySettings> & { quantity?: number; paidAt?: number; buyerId?: string } = {},
) {
  const { quantity = 10, paidAt, buyerId, ...delivery } = options;
  const order = await openOrder(
    testDb(),
    {
      quantity,
      ...(buyerId ? { userId: buyerId } : {}),
      ...(paidAt === undefined ? {} : { paidAt: new Date(paidAt) }),
    },
    { ...delivery, transferPhone: "transferPhone" in options ? (options.transferPhone ?? null) : "2145559000" },
  );
  return { id: order.id, buyerId: order.userId ?? "", quantity };
}

/**
 * Wednesday 2027-03-03 20:00 UTC: 3 pm in New York … 10 am in Honolulu, a day no state keeps as a holiday,
 * so every prospect's legal calling hours are open (docs/decisions/0064). Ahead of the real clock, so
 * nothing a test made before reads as made later.
 */
const CALLING_HOURS = Date.UTC(2027, 2, 3, 20);

/**
 * Routes this file's pings inside the prospects' legal calling hours whatever the real time: the clock
 * (`Date` only, which the Worker reads too) starts at `at` before the file's first test and runs on from
 * there. Call once at the top of a test file that routes pings; a test that sets its own clock must pick
 * a moment inside the calling hours too.
 */
export function routeAtCallingHours(at = CALLING_HOURS): void {
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    vi.setSystemTime(at);
  });
  afterAll(() => {
    vi.useRealTimers();
  });
}

let phoneCount = 0;
/** A fresh valid prospect phone for each call (Chicago's area code unless given: the prospect's zone, decision 0064). */
export function newPhone(areaCode = "312"): string {
  phoneCount += 1;
  return `${areaCode}${String(Date.now() % 10_000).padStart(4, "0")}${String(phoneCount % 1000).padStart(3, "0")}`;
}

export function pingBody(overrides: { state?: string; phone?: string } = {}) {
  return {
    prospect: {
      firstName: "Mary",
      lastName: "Johnson",
      phone: overrides.phone ?? newPhone(),
      state: overrides.state ?? "TX",
    },
    consent: { optInAt: new Date(Date.now() - 60_000).toISOString(), optInUrl: "https://example.com/quote" },
  };
}

/** Every test starts with no open orders and no transfers. */
export async function clearTransfers(): Promise<void> {
  const db = testDb();
  await db.batch([db.delete(transferEvents), db.delete(transfers), db.delete(orderDelivery)]);
}

export async function orderCounts(orderId: string) {
  const [row] = await testDb()
    .select({
      billable: orderDelivery.transfersBillable,
      notCharged: orderDelivery.transfersNotCharged,
      paused: orderDelivery.paused,
      status: orders.status,
    })
    .from(orderDelivery)
    .innerJoin(orders, eq(orders.id, orderDelivery.orderId))
    .where(eq(orderDelivery.orderId, orderId));
  // `paused` as stored (0 or 1), as the tests compare it.
  return row ? { ...row, paused: row.paused ? 1 : 0 } : null;
}
