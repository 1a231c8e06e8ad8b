/**
 * The Lead Tracker's transfers (returns feature): a buyer's delivered transfers with their returns, filtered
 * and paged in SQL, or streamed as CSV. Only the buyer's own transfers: another's order is 404. The orders'
 * progress beside them (and their pauses) is live-transfer delivery's: worker/features/transfers/tracker.ts.
 */
import { and, count, desc, eq, gte, lt, lte, or, type SQL, sql } from "drizzle-orm";
import { csvLines } from "../../../src/domain/csv-writer";
import {
  CONTACT_SHOWN_STATUSES,
  maskLastName,
  maskPhone,
  type TrackerTransferStatus,
} from "../../../src/domain/masking";
import { localTime } from "../../../src/domain/time-zones";
import {
  CONSENT_CSV_HEADER,
  certificateStatus,
  consentCsvCells,
  consentSummary,
  hasConsentCertificate,
} from "../../../src/features/consent/index";
import {
  type ReturnStatus,
  TRACKER_PAGE_SIZE,
  type TrackerPage,
  type TrackerTransfer,
  withinReturnWindow,
} from "../../../src/features/returns/returns";
import type { TrackerQuery } from "../../../src/features/returns/schemas/returns";
import { NOT_CHARGED_LABEL } from "../../../src/features/transfers/index";
import type { Database } from "../../db/client";
import { orderAgents, orderDelivery, returns, transfers } from "../../db/schema";
import type { Deps } from "../../deps";
import { suppressedAfterPurchase } from "../do-not-call/index";
import { buyersOrder, DEFAULT_TRACKER_TIME_ZONE } from "../transfers/index";

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
