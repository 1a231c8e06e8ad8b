import type { ReactNode } from "react";

/** A scrollable data table with a header row; children are the body rows. */
export function Table({ headers, children }: { headers: readonly ReactNode[]; children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-xl border border-line bg-white">
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
    </div>
  );
}
