/** Delivered live transfers straight into D1, as routing and the partner's events leave them (decision 0067). */
import { transfers } from "../../../worker/db/schema";
import { type Database, uniquePhone } from "./db";
import { createOpenOrder } from "./orders";
import { createPartner } from "./partners";

/** Any column of `transfers`; the partner and the order are made unless `partnerId` / `orderId` are given. */
export type TransferOverrides = Partial<typeof transfers.$inferInsert>;

export type TestTransfer = typeof transfers.$inferSelect;

/** The YYYY-MM-DD of `at` in UTC: the local day columns' default (give them for a test about days). */
const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The row of a completed, billable five-minute call routed ten minutes ago to `orderId` from `partnerId`:
 * "Ann Lee" of TX on a fresh phone. For many rows in one statement or batch (`insertInChunks`).
 */
export function transferRow(
  overrides: TransferOverrides & { partnerId: string; orderId: string },
): typeof transfers.$inferInsert {
  const routedAt = overrides.routedAt ?? new Date(Date.now() - 10 * 60_000);
  const buyerUserId = overrides.buyerUserId ?? null;
  return {
    id: crypto.randomUUID(),
    buyerKey: buyerUserId ?? "email:guest@example.com",
    firstName: "Ann",
    lastName: "Lee",
    phone: uniquePhone(),
    state: "TX",
    optInAt: new Date(routedAt.getTime() - 60_000),
    optInUrl: "https://example.com/quote",
    transferPhone: "2145559000",
    status: "completed",
    expiresAt: routedAt,
    connectedAt: new Date(routedAt.getTime() + 5000),
    endedAt: new Date(routedAt.getTime() + 305_000),
    durationSeconds: 300,
    billable: true,
    buyerLocalDay: utcDay(routedAt),
    partnerLocalDay: utcDay(routedAt),
    ...overrides,
    buyerUserId,
    routedAt,
  };
}

/**
 * One such call (see `transferRow`), its partner and its order (of a fresh buyer) made unless given.
 * Rows written here skip routing's checks and counts (order_delivery's billable count is not moved): for
 * history and views, not for routing.
 */
export async function createTransfer(db: Database, overrides: TransferOverrides = {}): Promise<TestTransfer> {
  const partnerId = overrides.partnerId ?? (await createPartner(db)).id;
  const order =
    overrides.orderId === undefined ? await createOpenOrder(db, { userId: overrides.buyerUserId }) : undefined;
  const orderId = overrides.orderId ?? order?.id ?? "";
  const buyerUserId = overrides.buyerUserId === undefined ? (order?.userId ?? null) : overrides.buyerUserId;
  const [row] = await db
    .insert(transfers)
    .values(transferRow({ ...overrides, partnerId, orderId, buyerUserId }))
    .returning();
  if (!row) throw new Error("the transfer was not inserted");
  return row;
}
