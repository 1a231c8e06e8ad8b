/** The aged-leads tab (product rule 45): bulk CSV upload, then the single-lead form, then the latest leads. */

import { useQuery } from "@tanstack/react-query";
import { formatUsd } from "../../../domain/format";
import { api, call } from "../../../lib/api";
import { lazyView } from "../../../ui/lazy-view";
import { QueryView } from "../../../ui/query-view";
import { Table } from "../../../ui/table";
import { CERTIFICATE_STATUS_LABELS, certificateStatus } from "../../consent/index";
import { BulkUpload } from "./BulkUpload";

/** Below the bulk upload: its code (and its form library) loads as it nears the screen (decision 0032). */
const SingleLeadForm = lazyView(() => import("./SingleLeadForm").then((m) => m.SingleLeadForm), {
  hydrate: "visible",
});

export function AgedLeadsTab() {
  const recent = useQuery({ queryKey: ["/api/admin/aged-leads"], queryFn: () => call(api.admin["aged-leads"].$get()) });
  return (
    <div className="space-y-6">
      <BulkUpload />
      <SingleLeadForm />
      <section aria-labelledby="recent-leads" className="space-y-3">
        <h3 id="recent-leads" className="text-lg font-bold">
          Latest aged leads
        </h3>
        <QueryView query={recent} loading="Loading..." failed="Could not load the leads." empty="No aged leads yet.">
          {(rows) => (
            <Table
              label="Latest aged leads"
              headers={["Name", "Phone", "State", "Band", "Price", "Certificate", "Status"]}
            >
              {rows.map((row) => (
                <tr key={row.id} className="border-t border-line">
                  <td className="px-4 py-2 font-medium">{row.name}</td>
                  <td className="px-4 py-2">{row.phone}</td>
                  <td className="px-4 py-2">{row.state}</td>
                  <td className="px-4 py-2">{row.ageRange}</td>
                  <td className="px-4 py-2">{formatUsd(row.priceCents)}</td>
                  {/* An unsold lead is never claimed: on file, not verified (docs/decisions/0054). */}
                  <td className="px-4 py-2">{CERTIFICATE_STATUS_LABELS[certificateStatus(row.certified, null)]}</td>
                  <td className="px-4 py-2 capitalize">{row.status}</td>
                </tr>
              ))}
            </Table>
          )}
        </QueryView>
      </section>
    </div>
  );
}
