/**
 * How the Lead Tracker and the Fulfilment tab write transfers: durations, delivery progress, local times.
 * The returns form states its rules from ../domain/returns.ts.
 */
import { formatterPerZone } from "../../../domain/time-zones";
import { NOT_CHARGED_LABEL, TRANSFER_BUFFER_SECONDS } from "../transfers";

/** 185 → "3:05"; null (the call has not ended) → "—". */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return "—";
  const whole = Math.max(0, Math.round(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** "32 of 50 delivered, 4 not charged". */
export function deliveryProgressText(delivered: number, total: number, notCharged: number): string {
  return `${delivered} of ${total} delivered, ${notCharged} not charged`;
}

/** "3 today of 10 a day", or "3 today" when the order has no daily cap yet. */
export function todayText(todayCount: number, perDayCap: number | null): string {
  return perDayCap === null ? `${todayCount} today` : `${todayCount} today of ${perDayCap} a day`;
}

/**
 * What "today" and the daily cap count, as routing counts it (worker/features/transfers/transfer-routing.ts,
 * `deliveredOnDay`): the order's transfers of its local day that connected, charged or not, and one ringing
 * now; unanswered, failed and expired ones are not counted.
 */
export const DAILY_CAP_RULE_TEXT = `"Today" counts the calls put through to an order since midnight in its delivery time zone, charged or not (calls under ${TRANSFER_BUFFER_SECONDS / 60} minutes included), plus a call ringing now. Unanswered and failed calls are not counted. An order that reaches its daily cap gets no more calls until the next day.`;

/** Whether a transfer is charged: "Billable", the buffer's "under 2 minutes — not charged", or not ended yet. */
export function chargeText(transfer: { billable: boolean; durationSeconds: number | null }): string {
  if (transfer.billable) return "Billable";
  return transfer.durationSeconds === null ? "Not completed" : NOT_CHARGED_LABEL;
}

const zoned = formatterPerZone({
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZoneName: "short",
});
/** An instant as the buyer reads it in their delivery time zone, e.g. "Nov 23, 2026, 9:05 AM EST". */
export function formatInZone(epochMs: number, timeZone: string): string {
  return zoned(timeZone).format(epochMs);
}

/** "67%" for a rate between 0 and 1; "—" when there is nothing to rate yet. */
export function formatRate(rate: number | null): string {
  return rate === null ? "—" : `${Math.round(rate * 100)}%`;
}
