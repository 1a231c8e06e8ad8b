import type { ReactNode } from "react";

/**
 * A data table with a header row; children are the body rows. Its scroll box is a labelled region that
 * takes focus, so keyboard users can scroll it sideways with the arrow keys.
 */
export function Table({
  headers,
  label,
  children,
}: {
  headers: readonly ReactNode[];
  /** Names the scroll region (e.g. 'Transfer orders'). */
  label?: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-label={label ?? "Table"}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll box must be reachable by keyboard (WCAG 2.1.1)
      tabIndex={0}
      className="overflow-x-auto rounded-xl border border-line bg-white focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      <table className="w-full text-left text-sm whitespace-nowrap">
        <thead className="bg-surface text-ink-soft">
          <tr>
            {headers.map((header, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the header row is static
              <th key={index} scope="col" className="px-4 py-3">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </section>
  );
}
