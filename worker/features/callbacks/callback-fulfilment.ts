/**
 * The call-back and aged-lead bundle part of the admin's Fulfilment tab (docs/decisions/0063): the open
 * call-back orders and the paid bundle orders with their counts, the call-backs and appointments still
 * waiting for an order (those about to expire unsold flagged), and an admin's placing of one by hand in
 * an order of their choice, through the same placement as every other (worker/features/callbacks/callbacks.ts
 * `placeCallback`), so room, the 30-day rule, the e-mail and the webhook stay the same.
 */
import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { defaultTimeZone } from "../../../src/domain/time-zones";
import {
  type CallbackToPlace,
  expiresSoon,
  type OpenCallbackOrder,
  orderMisfit,
  prospectBuyerKey,
  SAME_PROSPECT_WINDOW_MS,
} from "../../../src/features/callbacks/callbacks";
import { agedLeads, callbackOpportunities as callbacks, orders, users } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError, NotFoundError } from "../../errors";
import { bundleOf } from "../aged-leads/index";
import { suppressedSql } from "../do-not-call/index";
import { openCallbackOrders, placeCallback } from "./callbacks";

/** Rows shown at once in each list (the call-backs soonest window first, orders oldest paid first). */
const LIST_LIMIT = 200;
/** Bundle orders shown: the most recently paid. */
const BUNDLE_LIMIT = 50;

const CALLBACK_ALREADY_ASSIGNED = "This call-back is already in an order.";
const NO_SUCH_CALLBACK = "No such call-back.";

/** The buyers' names (username, else e-mail) by id, in one query. */
async function buyerNames(deps: Pick<Deps, "db">, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await deps.db
    .select({ id: users.id, name: sql<string>`coalesce(${users.username}, ${users.email}, '')` })
    .from(users)
    .where(sql`${users.id} IN (SELECT value FROM json_each(${JSON.stringify([...new Set(userIds)])}))`);
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** Paid aged-lead bundle orders, newest first: bought, delivered (sold to the order) and refunded. */
async function bundleOrders(deps: Pick<Deps, "db">) {
  const sold = deps.db
    .select({ orderId: agedLeads.soldOrderId, count: count().as("count") })
    .from(agedLeads)
    .where(isNotNull(agedLeads.soldOrderId))
    .groupBy(agedLeads.soldOrderId)
    .as("sold");
  const rows = await deps.db
    .select({
      id: orders.id,
      kind: orders.kind,
      details: orders.details,
      paidAt: orders.paidAt,
      buyer: sql<string>`coalesce(${users.username}, ${orders.email}, '')`,
      delivered: sql<number>`coalesce(${sold.count}, 0)`,
    })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .leftJoin(sold, eq(sold.orderId, orders.id))
    .where(
      and(
        eq(orders.status, "paid"),
        inArray(orders.kind, ["survey", "ringcloud"]),
        sql`json_extract(${orders.details}, '$.bundle') IS NOT NULL`,
      ),
    )
    .orderBy(desc(orders.paidAt), desc(orders.id))
    .limit(BUNDLE_LIMIT);
  return rows.flatMap((row) => {
    const bundle = bundleOf(row);
    if (!bundle) return [];
    const refunded = Number(row.details.undeliveredCount ?? 0);
    return [
      {
        orderId: row.id,
        buyer: row.buyer,
        band: bundle.band,
        bought: bundle.quantity,
        delivered: row.delivered,
        refunded,
        remaining: Math.max(0, bundle.quantity - row.delivered - refunded),
        paidAt: row.paidAt?.toISOString() ?? null,
      },
    ];
  });
}

/** Which of `open` each waiting call-back fits (oldest paid first, as `chooseOrder` takes them). */
async function fittingOrders(deps: Deps, waiting: CallbackToPlace[], open: OpenCallbackOrder[]) {
  const keys = [...new Set(waiting.map((item) => item.phoneKey))];
  const recent =
    keys.length === 0
      ? []
      : await deps.db
          .selectDistinct({ userId: callbacks.buyerUserId, phoneKey: callbacks.phoneKey })
          .from(callbacks)
          .where(
            and(
              sql`${callbacks.phoneKey} IN (SELECT value FROM json_each(${JSON.stringify(keys)}))`,
              gt(callbacks.deliveredAt, new Date(deps.now - SAME_PROSPECT_WINDOW_MS)),
            ),
          );
  const seen = new Set(
    recent.flatMap((r) => (r.userId && r.phoneKey !== null ? [prospectBuyerKey(r.userId, r.phoneKey)] : [])),
  );
  // `open` is sorted oldest paid first: the order `chooseOrder` would take them in.
  const fits = new Map<string, string[]>();
  for (const item of waiting)
    fits.set(
      item.id,
      open.filter((order) => orderMisfit(item, order, seen) === null).map((order) => order.id),
    );
  return fits;
}

/** The tab's call-back part: open call-back orders, bundle orders, and the call-backs waiting for an order. */
export async function callbackFulfilment(deps: Deps) {
  const { db, now } = deps;
  const [open, bundles, waitingRows] = await Promise.all([
    openCallbackOrders(deps),
    bundleOrders(deps),
    db
      .select()
      .from(callbacks)
      // A number a shared Do Not Call list holds is never placed, so it is not offered either.
      .where(
        and(
          isNull(callbacks.orderId),
          gt(callbacks.windowEnd, new Date(now)),
          sql`NOT ${suppressedSql(sql`${callbacks.phoneKey}`, sql`${callbacks.registryListedAt}`)}`,
        ),
      )
      .orderBy(asc(callbacks.windowStart), asc(callbacks.id))
      .limit(LIST_LIMIT),
  ]);
  open.sort((a, b) => a.paidAt - b.paidAt || (a.id < b.id ? -1 : 1));
  const shown = open.slice(0, LIST_LIMIT);
  const names = await buyerNames(
    deps,
    shown.map((order) => order.userId),
  );
  const waiting = waitingRows.flatMap((row) =>
    row.windowStart && row.windowEnd && row.phoneKey !== null
      ? [
          {
            row,
            place: {
              id: row.id,
              state: row.state,
              phoneKey: row.phoneKey,
              timeZone: row.timeZone ?? defaultTimeZone(row.state),
              windowStart: row.windowStart.getTime(),
              windowEnd: row.windowEnd.getTime(),
            },
          },
        ]
      : [],
  );
  const fits = await fittingOrders(
    deps,
    waiting.map((item) => item.place),
    open,
  );
  return {
    callbackOrders: shown.map((order) => ({
      orderId: order.id,
      buyer: names.get(order.userId) ?? "",
      bought: order.quantity,
      delivered: order.delivered,
      remaining: order.quantity - order.delivered,
      states: order.states,
      preference: order.preference,
      paidAt: new Date(order.paidAt).toISOString(),
    })),
    bundleOrders: bundles,
    unassigned: waiting.map(({ row, place }) => ({
      id: row.id,
      kind: row.kind,
      name: row.name,
      phone: row.phone,
      state: row.state,
      timeZone: place.timeZone,
      windowStart: new Date(place.windowStart).toISOString(),
      windowEnd: new Date(place.windowEnd).toISOString(),
      source: row.source,
      expiresSoon: expiresSoon(place.windowStart, now),
      fittingOrderIds: fits.get(row.id) ?? [],
    })),
  };
}

/**
 * An admin places a waiting call-back in the order they picked. Refused (ConflictError, with the reason)
 * when the call-back is already in an order, its window has passed, or the order is not open or does not
 * fit it; two admins placing the same call-back at once leave it in exactly one order.
 */
export async function assignCallback(deps: Deps, adminId: string, callbackId: string, orderId: string) {
  const [row] = await deps.db.select({ id: callbacks.id }).from(callbacks).where(eq(callbacks.id, callbackId));
  if (!row) throw new NotFoundError(NO_SUCH_CALLBACK);
  const placement = await placeCallback(deps, callbackId, { orderId });
  if ("already" in placement) throw new ConflictError(CALLBACK_ALREADY_ASSIGNED, { orderId: placement.already });
  if ("unplaced" in placement) throw new ConflictError(placement.unplaced);
  console.log(JSON.stringify({ callbackAssigned: callbackId, orderId: placement.placed, by: adminId }));
  return { callbackId, orderId: placement.placed };
}
