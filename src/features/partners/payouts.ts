/** Partner payouts: weekly statements of billable transfers, due by the partner's payment terms. Pure: no I/O. */
import type { PaymentTerms } from "./partner";

const PAYMENT_TERM_DAYS: Record<PaymentTerms, number> = { "Net 7": 7, "Net 15": 15, "Net 30": 30 };

function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/**
 * Partners are paid by the week: a statement period runs Monday to Sunday (the partner's local days)
 * and is due its payment terms' days after the period ends.
 */
export function payoutPeriod(day: string, terms: PaymentTerms): { start: string; end: string; due: string } {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  const start = addDays(day, -((weekday + 6) % 7));
  const end = addDays(start, 6);
  return { start, end, due: addDays(end, PAYMENT_TERM_DAYS[terms]) };
}

export interface PayoutLine {
  start: string;
  end: string;
  due: string;
  billableTransfers: number;
  amountCents: number;
}

/** Folds billable transfers per local day into weekly statement lines, newest period first. */
export function payoutStatement(
  billablePerDay: { day: string; billable: number }[],
  payPerTransferCents: number,
  terms: PaymentTerms,
): PayoutLine[] {
  const lines = new Map<string, PayoutLine>();
  for (const { day, billable } of billablePerDay) {
    const period = payoutPeriod(day, terms);
    const line = lines.get(period.start) ?? { ...period, billableTransfers: 0, amountCents: 0 };
    line.billableTransfers += billable;
    line.amountCents = line.billableTransfers * payPerTransferCents;
    lines.set(period.start, line);
  }
  return [...lines.values()].sort((a, b) => (a.start < b.start ? 1 : -1));
}
