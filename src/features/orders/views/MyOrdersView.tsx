/**
 * My Orders: 'Pay now' on a pending order, a live-transfer order's agents. Its own module, apart from My
 * Leads, so the page does not load My Leads' consent and Do Not Call cells (docs/decisions/0074). The agents
 * are transfers' view: the page's shell (src/islands/dashboard/screens/MyOrdersScreen.tsx) hands them in.
 */

import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { formatDate, formatUsd } from "../../../domain/format";
import { api, call } from "../../../lib/api";
import { QueryView } from "../../../ui/query-view";
import { PayNow } from "./PayNow";
import { StatusBadge } from "./status-badge";

const KIND_LABELS: Record<string, string> = {
  package: "Transfer package",
  survey: "Survey order",
  ringcloud: "Ringcloud package",
  transfer: "Call transfers",
  "aged-leads": "Aged leads",
  callbacks: "Call-back or appointment",
};

/** `orderAgents`: a live-transfer order's agents (transfers' view, handed in by the shell). */
export function MyOrdersView({ orderAgents }: { orderAgents: (orderId: string) => ReactNode }) {
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
                {order.delivers && orderAgents(order.id)}
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </section>
  );
}
