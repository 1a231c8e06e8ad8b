/**
 * Live transfers, the partner portal's figures: the partner's profile, today's calls
 * against its cap, billable rate and average duration, its transfers a page at a time, and the weekly
 * payout statement.
 */
import { and, count, desc, eq, isNull, lt, sql } from "drizzle-orm";
import { localTime } from "../../../src/domain/time-zones";
import type { PaymentTerms } from "../../../src/features/partners/partner";
import { type PayoutLine, payoutStatement } from "../../../src/features/partners/payouts";
import { partners, transfers } from "../../db/schema";
import type { Deps } from "../../deps";
import { partnerRefusalsOn, type TransferView, transferView } from "../transfers/index";

export interface PartnerProfile {
  id: string;
  businessName: string;
  dailyCallCap: number;
  timeZone: string;
  payPerTransferCents: number;
  paymentTerms: PaymentTerms;
  /** Pings must carry `consent.trustedFormUrl` (an admin's setting, decision 0041). */
  requireTrustedForm: boolean;
}

/** The partner record of a partner user, or undefined. */
export async function findPartnerByUser(deps: Deps, userId: string): Promise<PartnerProfile | undefined> {
  const [row] = await deps.db
    .select({
      id: partners.id,
      businessName: partners.businessName,
      dailyCallCap: partners.dailyCallCap,
      timeZone: partners.timeZone,
      payPerTransferCents: partners.payPerTransferCents,
      paymentTerms: partners.paymentTerms,
      requireTrustedForm: partners.requireTrustedForm,
    })
    .from(partners)
    .where(eq(partners.userId, userId));
  return row;
}

export interface PartnerStats {
  today: {
    day: string;
    calls: number;
    dailyCallCap: number;
    /** Pings refused today: all, and those outside the prospect's legal window, over a state's 24-hour calls, or on a Do Not Call list. */
    refusals: { refused: number; callingWindow: number; callLimit: number; suppressed: number };
  };
  completed: number;
  billable: number;
  /** Billable / completed, 0..1; null before any completed call. */
  billableRate: number | null;
  averageDurationSeconds: number | null;
}

export async function partnerStats(deps: Deps, partner: PartnerProfile): Promise<PartnerStats> {
  const { db, now } = deps;
  const day = localTime(now, partner.timeZone).day;
  const [[today], [totals], refusals] = await Promise.all([
    db
      .select({ calls: count() })
      .from(transfers)
      .where(and(eq(transfers.partnerId, partner.id), eq(transfers.partnerLocalDay, day))),
    db
      .select({
        completed: count(),
        billable: sql<number>`coalesce(sum(${transfers.billable}), 0)`,
        averageDuration: sql<number | null>`avg(${transfers.durationSeconds})`,
      })
      .from(transfers)
      .where(and(eq(transfers.partnerId, partner.id), eq(transfers.status, "completed"))),
    partnerRefusalsOn(deps, partner.id, day),
  ]);
  const completed = totals?.completed ?? 0;
  const billable = Number(totals?.billable ?? 0);
  return {
    today: { day, calls: today?.calls ?? 0, dailyCallCap: partner.dailyCallCap, refusals },
    completed,
    billable,
    billableRate: completed > 0 ? billable / completed : null,
    averageDurationSeconds: totals?.averageDuration == null ? null : Math.round(totals.averageDuration),
  };
}

const TRANSFER_PAGE_SIZE = 50;

/** The partner's transfers, newest first, a page at a time (`before`: the routedAt of the last one seen). */
export async function listPartnerTransfers(
  deps: Deps,
  partnerId: string,
  options: { before?: number } = {},
): Promise<TransferView[]> {
  const { db, now } = deps;
  const rows = await db
    .select()
    .from(transfers)
    .where(
      and(
        eq(transfers.partnerId, partnerId),
        options.before ? lt(transfers.routedAt, new Date(options.before)) : undefined,
      ),
    )
    .orderBy(desc(transfers.routedAt))
    .limit(TRANSFER_PAGE_SIZE);
  return rows.map((row) => transferView(row, now));
}

/**
 * Weekly payout lines: billable transfers × the partner's pay per transfer, due per its payment terms.
 * Only transfers completed while they held their slot are billable (a late report ends as `expired`,
 * never billable: transfer-events.ts); a transfer whose return was approved is not paid.
 */
export async function partnerPayouts(deps: Deps, partner: PartnerProfile): Promise<PayoutLine[]> {
  const perDay = await deps.db
    .select({ day: transfers.partnerLocalDay, billable: count() })
    .from(transfers)
    .where(
      and(
        eq(transfers.partnerId, partner.id),
        eq(transfers.status, "completed"),
        eq(transfers.billable, true),
        isNull(transfers.returnedAt),
      ),
    )
    .groupBy(transfers.partnerLocalDay);
  return payoutStatement(perDay, partner.payPerTransferCents, partner.paymentTerms);
}
