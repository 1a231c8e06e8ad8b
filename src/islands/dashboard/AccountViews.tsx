/** My Leads (full contact details of purchased leads, CSV export) and My Orders ('Pay now' on a pending order, a live-transfer order's agents). */
import { useState } from "react";
import { formatCount, formatDate, formatUsd } from "../../domain/format";
import { ConsentSummaryCell } from "../../features/consent/views/ConsentRecord";
import { PhoneWithDncFlag } from "../../features/do-not-call/views/dnc-flag";
import { PayNow } from "../../features/orders/views/PayNow";
import { StatusBadge } from "../../features/orders/views/status-badge";
import { api, call } from "../../lib/api";
import { useQuery } from "../../lib/query";
import { CallableText } from "../../ui/callable";
import { Pager } from "../../ui/pager";
import { QueryView } from "../../ui/query-view";
import { Spinner } from "../../ui/spinner";
import { buttonClass } from "../../ui/styles";
import { Table } from "../../ui/table";
import { OrderAgents } from "./agents/OrderAgents";

const KIND_LABELS: Record<string, string> = {
  package: "Transfer package",
  survey: "Survey order",
  ringcloud: "Ringcloud package",
  transfer: "Call transfers",
  "aged-leads": "Aged leads",
  callbacks: "Call-back or appointment",
};

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

export function MyOrdersView() {
  const orders = useQuery({ queryKey: ["/api/my-orders"], queryFn: () => call(api["my-orders"].$get()) });
  return (
    <section aria-labelledby="my-orders-title" className="space-y-5">
      <h2 id="my-orders-title" className="text-2xl font-bold">
        My Orders
      </h2>
      <QueryView
        query={orders}
        loading="Loading your orders..."
        failed="Your orders could not be loaded. Please reload the page."
        empty="No orders yet."
      >
        {(list) => (
          <ul className="space-y-3">
            {list.map((order) => (
              <li
                key={order.id}
                className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-line bg-white p-4"
              >
                <div>
                  <p className="font-semibold">
                    {KIND_LABELS[order.kind] ?? order.kind} · {order.quantity}
                  </p>
                  <p className="text-sm text-ink-soft">
                    {formatDate(order.createdAt)} · Order {order.id.slice(0, 8)}
                  </p>
                </div>
                <div className="flex items-center gap-3">
                  <span className="font-semibold">{formatUsd(order.totalCents)}</span>
                  <StatusBadge status={order.status} />
                </div>
                {order.notice && (
                  <p className="w-full text-sm text-ink-soft" data-testid="order-not-charged">
                    {order.notice}
                  </p>
                )}
                {order.status === "pending" && <PayNow orderId={order.id} />}
                {order.delivers && <OrderAgents orderId={order.id} />}
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </section>
  );
}
