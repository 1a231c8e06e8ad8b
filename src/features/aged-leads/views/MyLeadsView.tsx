/** My Leads: full contact details of purchased leads, the Do Not Call flag and consent per lead, CSV export. */

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatCount, formatDate } from "../../../domain/format";
import { api, call } from "../../../lib/api";
import { CallableText } from "../../../ui/callable";
import { Pager } from "../../../ui/pager";
import { Spinner } from "../../../ui/spinner";
import { buttonClass } from "../../../ui/styles";
import { Table } from "../../../ui/table";
import { ConsentSummaryCell } from "../../consent/views/index";
import { PhoneWithDncFlag } from "../../do-not-call/views/index";

export function MyLeadsView() {
  const [page, setPage] = useState(1);
  const leads = useQuery({
    queryKey: ["/api/my-leads", page],
    queryFn: () => call(api["my-leads"].$get({ query: { page: String(page) } })),
  });
  const data = leads.data;
  return (
    <section aria-labelledby="my-leads-title" className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="my-leads-title" className="text-2xl font-bold">
          My Leads
        </h2>
        {data && data.total > 0 && (
          <a href="/api/my-leads.csv" download className={buttonClass("secondary")}>
            Export CSV
          </a>
        )}
      </div>
      {leads.isPending ? (
        <Spinner label="Loading your leads..." />
      ) : leads.isError || !data ? (
        <p className="text-ink-soft">Your leads could not be loaded. Please reload the page.</p>
      ) : data.total === 0 ? (
        <p className="rounded-xl border border-dashed border-line py-12 text-center text-ink-soft">
          You have not bought any leads yet. Choose some under Buy Aged Leads.
        </p>
      ) : (
        <>
          <p className="text-sm text-ink-soft" aria-live="polite">
            {formatCount(data.total)} leads · page {data.page} of {data.pageCount}
          </p>
          <Table label="My leads" headers={["Name", "Phone", "E-mail", "State", "Calling", "Purchased", "Consent"]}>
            {data.items.map((lead) => (
              <tr key={lead.id} className="border-t border-line">
                <td className="px-4 py-3 font-medium">{lead.name}</td>
                <td className="px-4 py-3">
                  <PhoneWithDncFlag phone={lead.phone} suppressedOn={lead.suppressedOn} />
                </td>
                <td className="px-4 py-3">{lead.email ?? "—"}</td>
                <td className="px-4 py-3">{lead.state}</td>
                <td className="px-4 py-3">
                  <CallableText callable={lead.callable} />
                </td>
                <td className="px-4 py-3">{formatDate(lead.purchasedAt)}</td>
                <td className="min-w-56 px-4 py-3">
                  <ConsentSummaryCell
                    consent={lead.consent}
                    subject={{ kind: "aged_lead", id: lead.id, label: lead.name }}
                  />
                </td>
              </tr>
            ))}
          </Table>
          <Pager label="My Leads pages" page={page} pageCount={data.pageCount} onPage={setPage} />
        </>
      )}
    </section>
  );
}
