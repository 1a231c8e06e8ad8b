import type { ReactNode } from "react";

export interface SummaryRow {
  label: ReactNode;
  value: ReactNode;
}

/** An order summary: label/value rows, then the total set apart. */
export function Summary({
  rows,
  total,
  totalTestId,
}: {
  rows: readonly SummaryRow[];
  total: ReactNode;
  totalTestId?: string;
}) {
  return (
    <dl className="space-y-2 text-sm">
      {rows.map((row, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are static per render
        <div key={index} className="flex justify-between gap-4">
          <dt className="text-ink-soft">{row.label}</dt>
          <dd className="text-right font-medium">{row.value}</dd>
        </div>
      ))}
      <div className="flex justify-between border-t border-line pt-3 text-base">
        <dt className="font-semibold">Total</dt>
        <dd className="font-bold" data-testid={totalTestId}>
          {total}
        </dd>
      </div>
    </dl>
  );
}
