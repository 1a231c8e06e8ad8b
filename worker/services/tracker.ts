/**
 * The Lead Tracker: a buyer's delivered transfers (filtered and paged in SQL, or
 * streamed as CSV) and the progress of their live-transfer orders (pausing and resuming them:
 * ./delivery-pauses). Only the buyer's own transfers and orders: anything else is 404.
 */
import { and, count, desc, eq, gt, gte, inArray, isNotNull, lt, lte, or, type SQL, sql } from "drizzle-orm";
import { csvLines } from "../../src/domain/csv-writer";
import { CONTACT_SHOWN_STATUSES, maskLastName, maskPhone, type TrackerTransferStatus } from "../../src/domain/masking";
import { localTime, US_TIME_ZONES } from "../../src/domain/time-zones";
import { certificateStatus, hasConsentCertificate } from "../../src/features/consent/consent";
import { CONSENT_CSV_HEADER, consentCsvCells, consentSummary } from "../../src/features/consent/consent-record";
import {
  type ReturnStatus,
  TRACKER_PAGE_SIZE,
  type TrackerPage,
  type TrackerTransfer,
  withinReturnWindow,
} from "../../src/features/returns/returns";
import type { TrackerQuery } from "../../src/features/returns/schemas/returns";
import { limitsText } from "../../src/features/transfers/delivery-limits";
import { pauseView } from "../../src/features/transfers/delivery-pauses";
import { packageName, type TrackerOrder } from "../../src/features/transfers/order-progress";
import { NOT_CHARGED_LABEL } from "../../src/features/transfers/transfers";
import type { Database } from "../db/client";
import { orderAgents, orderDelivery, orders, returns, transfers, users } from "../db/schema";
import type { Deps } from "../deps";
import { NotFoundError } from "../errors";
import { suppressedAfterPurchase } from "../features/do-not-call/suppression-checks";

const DEFAULT_TRACKER_TIME_ZONE = "America/New_York";
/** The CSV export reads this many transfers per database query. */
const EXPORT_CHUNK = 500;

const trackerColumns = {
  id: transfers.id,
  orderId: transfers.orderId,
  routedAt: transfers.routedAt,
  endedAt: transfers.endedAt,
  expiresAt: transfers.expiresAt,
  firstName: transfers.firstName,
  lastName: transfers.lastName,
  phone: transfers.phone,
  state: transfers.state,
  durationSeconds: transfers.durationSeconds,
  billable: transfers.billable,
  status: transfers.status,
  recordingUrl: transfers.recordingUrl,
  optInAt: transfers.optInAt,
  optInUrl: transfers.optInUrl,
  consentText: transfers.consentText,
  ipAddress: transfers.ipAddress,
  trustedFormUrl: transfers.trustedFormUrl,
  jornayaLeadId: transfers.jornayaLeadId,
  timeZone: orderDelivery.timeZone,
  // Aliased: D1's batch answers rows keyed by column name, and `status` is also the transfer's.
  returnStatus: sql<ReturnStatus | null>`${returns.status}`.as("return_status"),
  returnNote: sql<string | null>`${returns.adminNote}`.as("return_note"),
  // The agent who took the call (docs/decisions/0072); a removed agent keeps its row and its name.
  agentName: sql<string | null>`${orderAgents.name}`.as("agent_name"),
};

type TrackerRow = Awaited<ReturnType<typeof trackerSelect>>[number];

function toTrackerTransfer(row: TrackerRow, now: number): TrackerTransfer {
  const routedAt = row.routedAt.getTime();
  const status: TrackerTransferStatus =
    row.status === "routed" && row.expiresAt.getTime() <= now ? "expired" : row.status;
  // Only paid-for prospects: a call that never connected shows them as the marketplace masks leads.
  const contactShown = CONTACT_SHOWN_STATUSES.includes(status);
  return {
    id: row.id,
    orderId: row.orderId,
    routedAt,
    endedAt: row.endedAt?.getTime() ?? null,
    firstName: row.firstName,
    lastName: contactShown ? row.lastName : maskLastName(row.lastName),
    phone: contactShown ? row.phone : maskPhone(row.phone),
    contactShown,
    state: row.state,
    durationSeconds: row.durationSeconds,
    billable: row.billable,
    status,
    recordingUrl: row.recordingUrl,
    agentName: row.agentName ?? null,
    timeZone: row.timeZone ?? DEFAULT_TRACKER_TIME_ZONE,
    returnable: row.billable && row.returnStatus === null && withinReturnWindow("transfer", routedAt, now),
    returnStatus: row.returnStatus ?? null,
    returnNote: row.returnNote ?? null,
    // Transfers' certificates are not claimed (docs/decisions/0054): on file at most, never verified.
    consent: consentSummary(row, certificateStatus(hasConsentCertificate(row), null), contactShown),
    suppressedOn: null,
  };
}

/** 404 unless the order is the buyer's. */
export async function buyersOrder(deps: Deps, userId: string, orderId: string) {
  const [order] = await deps.db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!order) throw new NotFoundError("No such order.");
  return order;
}

/** The filter of a tracker query; dates are the buyer's local days (`buyer_local_day`, in the order's zone). */
function trackerFilter(userId: string, query: Omit<TrackerQuery, "page">): SQL | undefined {
  return and(
    eq(transfers.buyerUserId, userId),
    query.orderId ? eq(transfers.orderId, query.orderId) : undefined,
    query.from ? gte(transfers.buyerLocalDay, query.from) : undefined,
    query.to ? lte(transfers.buyerLocalDay, query.to) : undefined,
    query.billable ? eq(transfers.billable, query.billable === "true") : undefined,
  );
}

function trackerSelect(db: Database, where: SQL | undefined) {
  return db
    .select(trackerColumns)
    .from(transfers)
    .leftJoin(orderDelivery, eq(orderDelivery.orderId, transfers.orderId))
    .leftJoin(returns, eq(returns.transferId, transfers.id))
    .leftJoin(orderAgents, eq(orderAgents.id, transfers.agentId))
    .where(where);
}

/** A page of the buyer's transfers, newest first. */
export async function listTrackerTransfers(deps: Deps, userId: string, query: TrackerQuery): Promise<TrackerPage> {
  const { db, now } = deps;
  if (query.orderId) await buyersOrder(deps, userId, query.orderId);
  const where = trackerFilter(userId, query);
  const [[counted], rows] = await db.batch([
    db.select({ total: count() }).from(transfers).where(where),
    trackerSelect(db, where)
      .orderBy(desc(transfers.routedAt), desc(transfers.id))
      .limit(TRACKER_PAGE_SIZE)
      .offset((query.page - 1) * TRACKER_PAGE_SIZE),
  ]);
  const items = rows.map((row) => toTrackerTransfer(row, now));
  // A delivered caller whose number reached a Do Not Call list after the call is flagged.
  const flags = await suppressedAfterPurchase(
    deps,
    userId,
    rows.flatMap((row, i) =>
      items[i]?.contactShown ? [{ phone: row.phone, purchasedAt: row.routedAt.getTime() }] : [],
    ),
  );
  return {
    items: items.map((item, i) => ({
      ...item,
      suppressedOn: item.contactShown ? (flags.get(rows[i]?.phone ?? "") ?? null) : null,
    })),
    page: query.page,
    pageSize: TRACKER_PAGE_SIZE,
    total: counted?.total ?? 0,
  };
}

const TRACKER_CSV_HEADER = [
  "Time",
  "Time zone",
  "First name",
  "Last name",
  "Phone",
  "State",
  "Duration (seconds)",
  "Billable",
  "Status",
  "Recording",
  "Order",
  "Agent",
  "Return",
  ...CONSENT_CSV_HEADER,
];

function csvRow(transfer: TrackerTransfer): string[] {
  const local = localTime(transfer.routedAt, transfer.timeZone);
  const minute = `${String(Math.floor(local.minute / 60)).padStart(2, "0")}:${String(local.minute % 60).padStart(2, "0")}`;
  const billing = transfer.billable ? "billable" : transfer.status === "completed" ? NOT_CHARGED_LABEL : "not charged";
  return [
    `${local.day} ${minute}`,
    transfer.timeZone,
    transfer.firstName,
    transfer.lastName,
    transfer.phone,
    transfer.state,
    transfer.durationSeconds === null ? "" : String(transfer.durationSeconds),
    billing,
    transfer.status,
    transfer.recordingUrl ?? "",
    transfer.orderId,
    transfer.agentName ?? "",
    transfer.returnStatus ?? "",
  ];
}

/**
 * The tracker's CSV with the same filters, streamed: each chunk is read (newest first, after the last
 * one seen) only when the client is ready for it. Cells that would run as spreadsheet formulas are escaped.
 */
export async function trackerCsv(
  deps: Deps,
  userId: string,
  query: Omit<TrackerQuery, "page">,
): Promise<ReadableStream<Uint8Array>> {
  const { db, now } = deps;
  if (query.orderId) await buyersOrder(deps, userId, query.orderId);
  const encoder = new TextEncoder();
  const where = trackerFilter(userId, query);
  let after: { routedAt: Date; id: string } | null = null;
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvLines([TRACKER_CSV_HEADER])));
    },
    async pull(controller) {
      if (done) return controller.close();
      const rows = await trackerSelect(
        db,
        and(
          where,
          after
            ? or(
                lt(transfers.routedAt, after.routedAt),
                and(eq(transfers.routedAt, after.routedAt), lt(transfers.id, after.id)),
              )
            : undefined,
        ),
      )
        .orderBy(desc(transfers.routedAt), desc(transfers.id))
        .limit(EXPORT_CHUNK);
      const last = rows.at(-1);
      done = rows.length < EXPORT_CHUNK || !last;
      if (last) after = { routedAt: last.routedAt, id: last.id };
      if (rows.length > 0) {
        const lines = rows.map((row) => {
          const transfer = toTrackerTransfer(row, now);
          return [...csvRow(transfer), ...consentCsvCells(transfer.consent)];
        });
        controller.enqueue(encoder.encode(`\r\n${csvLines(lines)}`));
      }
      if (done) controller.close();
    },
  });
}

// ——— Orders: progress, today's count ———

/** Today's local day in each US zone (at most two different days at any moment). */
function todayByZone(now: number): Map<string, string> {
  return new Map(US_TIME_ZONES.map((zone) => [zone, localTime(now, zone).day]));
}

/**
 * Transfers routed to each order on its buyer's current local day, except expired or unanswered ones
 * (the count the order's daily cap is checked against in routing).
 */
export async function todayCounts(deps: Deps, orderIds: SQL | string[]): Promise<Map<string, number>> {
  const { db, now } = deps;
  const days = todayByZone(now);
  if (Array.isArray(orderIds) && orderIds.length === 0) return new Map();
  const rows = await db
    .select({ orderId: transfers.orderId, day: transfers.buyerLocalDay, n: count(), timeZone: orderDelivery.timeZone })
    .from(transfers)
    .innerJoin(orderDelivery, eq(orderDelivery.orderId, transfers.orderId))
    .where(
      and(
        inArray(transfers.orderId, orderIds),
        inArray(transfers.buyerLocalDay, [...new Set(days.values())]),
        or(
          inArray(transfers.status, ["connected", "completed"]),
          and(eq(transfers.status, "routed"), gt(transfers.expiresAt, new Date(now))),
        ),
      ),
    )
    .groupBy(transfers.orderId, transfers.buyerLocalDay);
  const counts = new Map<string, number>();
  for (const row of rows) {
    if (days.get(row.timeZone ?? DEFAULT_TRACKER_TIME_ZONE) === row.day) counts.set(row.orderId, row.n);
  }
  return counts;
}

const orderColumns = {
  orderId: orders.id,
  kind: orders.kind,
  tier: orders.tier,
  quantity: orders.quantity,
  createdAt: orders.createdAt,
  transfersTotal: orderDelivery.transfersTotal,
  delivered: orderDelivery.transfersBillable,
  notCharged: orderDelivery.transfersNotCharged,
  perDayCap: orderDelivery.perDayCap,
  days: orderDelivery.days,
  closedFrom: orderDelivery.closedFrom,
  closedUntil: orderDelivery.closedUntil,
  perHourCap: orderDelivery.perHourCap,
  maxConcurrent: orderDelivery.maxConcurrent,
  paused: orderDelivery.paused,
  pauseKind: orderDelivery.pauseKind,
  pausedReason: orderDelivery.pausedReason,
  pauseNeedsAdmin: orderDelivery.pauseNeedsAdmin,
  transferPhone: orderDelivery.transferPhone,
  setupStatus: orderDelivery.setupStatus,
  /** Who bought it (the admin's Fulfilment tab): the username, else the order's e-mail. */
  buyer: sql<string>`coalesce(${users.username}, ${orders.email}, '')`,
};

type OrderRow = Awaited<ReturnType<typeof orderProgressSelect>>[number];

export function toTrackerOrder(row: OrderRow, today: number): TrackerOrder {
  return {
    orderId: row.orderId,
    packageName: packageName(row.kind, row.tier, row.quantity),
    createdAt: row.createdAt.getTime(),
    transfersTotal: row.transfersTotal,
    delivered: row.delivered,
    notCharged: row.notCharged,
    remaining: Math.max(0, row.transfersTotal - row.delivered),
    todayCount: today,
    perDayCap: row.perDayCap,
    limits: limitsText(row),
    paused: row.paused,
    pause: pauseView(row),
    transferPhone: row.transferPhone,
    setupStatus: row.setupStatus,
  };
}

export function orderProgressSelect(deps: Deps) {
  return deps.db
    .select(orderColumns)
    .from(orders)
    .innerJoin(orderDelivery, eq(orderDelivery.orderId, orders.id))
    .leftJoin(users, eq(users.id, orders.userId));
}

/** The buyer's live-transfer orders (those with delivery settings), newest first. */
export async function listTrackerOrders(deps: Deps, userId: string): Promise<TrackerOrder[]> {
  const rows = await orderProgressSelect(deps)
    .where(and(eq(orders.userId, userId), isNotNull(orders.paidAt)))
    .orderBy(desc(orders.createdAt))
    .limit(200);
  const today = await todayCounts(
    deps,
    rows.map((row) => row.orderId),
  );
  return rows.map((row) => toTrackerOrder(row, today.get(row.orderId) ?? 0));
}
