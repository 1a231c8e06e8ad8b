/**
 * /admin-orders (product rules 8, 45): every live-transfer order, with the admin's status changes. The
 * delivery's parts (each row's counts, the 'Set up delivery' dialog) are transfers' views: the page's shell
 * (src/islands/admin/screens/AdminOrdersScreen.tsx) hands them in, so orders import nothing of transfers.
 */

import { useMutation, useQuery } from "@tanstack/react-query";
import { type ComponentType, type ReactNode, Suspense, useMemo, useState } from "react";
import { ORDER_TRANSITIONS, REVENUE_LABEL, REVENUE_STATUSES } from "../../../domain/dashboard";
import { formatDateTime, formatUsd } from "../../../domain/format";
import { AppProviders } from "../../../islands/AppProviders";
import { QueryProvider } from "../../../islands/QueryProvider";
import { api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { Card } from "../../../ui/card";
import { Dialog } from "../../../ui/dialog";
import { QueryView } from "../../../ui/query-view";
import { Table } from "../../../ui/table";
import { toast } from "../../../ui/toast";
import { ORDER_STATUS_LABELS, ORDER_STATUSES } from "../orders";
import { dollarsToCents } from "../pricing";
import { type OrderStatus, StatusBadge } from "./status-badge";
import type { TransferOrder } from "./transfer-order-row";

/** What the shell hands in: the transfers' views of an order's delivery. */
export interface AdminOrdersParts {
  /** Under each row's transfer counts: its delivery's counts. */
  deliveryCounts: (order: TransferOrder) => ReactNode;
  /** The 'Set up delivery' dialog (lazily loaded by the shell: it carries the settings form). */
  DeliverySetupDialog: ComponentType<{ order: TransferOrder | null; onClose: () => void }>;
}

const ORDERS_QUERY = { queryKey: ["/api/transfer-orders"], queryFn: () => call(api["transfer-orders"].$get()) };

const STATUS_FILTERS = ["all", ...ORDER_STATUSES] as const;
type StatusFilter = (typeof STATUS_FILTERS)[number];
/** What the list says when orders exist but none has the chosen status. */
const NO_MATCH_TEXT = "No orders match this filter";
type Change = { order: TransferOrder; status: keyof typeof ORDER_TRANSITIONS };

const canChange = (order: TransferOrder, status: Change["status"]) =>
  (ORDER_TRANSITIONS[status] as readonly OrderStatus[]).includes(order.status);

/** The first two states, then '+N more' (product rule 45). */
function statesLabel(states: readonly string[]): string {
  if (states.length === 0) return "—";
  const shown = states.slice(0, 2).join(", ");
  return states.length > 2 ? `${shown} +${states.length - 2} more` : shown;
}

function Orders({ deliveryCounts, DeliverySetupDialog }: AdminOrdersParts) {
  const orders = useQuery(ORDERS_QUERY);
  const [filter, setFilter] = useState<StatusFilter>("all");
  const [change, setChange] = useState<Change | null>(null);
  const [settingUp, setSettingUp] = useState<TransferOrder | null>(null);
  const all = orders.data ?? [];
  const totals = useMemo(
    () => ({
      orders: all.length,
      pending: all.filter((o) => o.status === "pending").length,
      revenueCents: all
        .filter((o) => (REVENUE_STATUSES as readonly OrderStatus[]).includes(o.status))
        .reduce((sum, o) => sum + (dollarsToCents(o.totalPrice) ?? 0), 0),
      transfers: all.reduce((sum, o) => sum + o.totalTransfers, 0),
    }),
    [all],
  );
  const update = useMutation({
    mutationFn: ({ order, status }: Change) =>
      call(
        api["transfer-orders"][":id"].status.$patch({ param: { id: encodeURIComponent(order.id) }, json: { status } }),
      ),
    onSuccess: async () => {
      setChange(null);
      await orders.refetch();
      toast({ title: "Success", description: "Order status updated", variant: "success" });
    },
    onError: (error) =>
      toast({ title: "Error", description: errorMessage(error, "Failed to update order"), variant: "destructive" }),
  });

  const resendLink = useMutation({
    mutationFn: (order: TransferOrder) =>
      call(api["transfer-orders"][":id"]["setup-link"].$post({ param: { id: encodeURIComponent(order.id) } })),
    onSuccess: () => toast({ title: "Success", description: "Setup link sent", variant: "success" }),
    onError: (error) =>
      toast({
        title: "Error",
        description: errorMessage(error, "Failed to send the setup link"),
        variant: "destructive",
      }),
  });

  const visible = useQuery({
    ...ORDERS_QUERY,
    select: (list: TransferOrder[]) => (filter === "all" ? list : list.filter((o) => o.status === filter)),
  });
  return (
    <div className="mx-auto max-w-7xl space-y-6 px-4 py-8 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">Transfer Orders</h1>
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {[
          ["Total orders", totals.orders],
          ["Pending orders", totals.pending],
          [REVENUE_LABEL, formatUsd(totals.revenueCents)],
          ["Total transfers", totals.transfers],
        ].map(([label, value]) => (
          <Card key={label}>
            <dt className="text-sm text-ink-soft">{label}</dt>
            <dd
              className="mt-1 text-2xl font-bold"
              data-testid={`summary-${label === REVENUE_LABEL ? "total-revenue" : String(label).toLowerCase().replaceAll(" ", "-")}`}
            >
              {value}
            </dd>
          </Card>
        ))}
      </dl>
      <fieldset className="flex flex-wrap items-center gap-2">
        <legend className="sr-only">Filter by status</legend>
        {STATUS_FILTERS.map((status) => (
          <Button
            key={status}
            variant={filter === status ? "primary" : "secondary"}
            aria-pressed={filter === status}
            onClick={() => setFilter(status)}
          >
            {status === "all" ? "All" : ORDER_STATUS_LABELS[status]}
          </Button>
        ))}
      </fieldset>
      <QueryView
        query={visible}
        loading="Loading orders..."
        failed="Orders could not be loaded. Please reload the page."
        empty={filter === "all" ? "No transfer orders yet." : NO_MATCH_TEXT}
      >
        {(list) => (
          <Table
            label="Transfer orders"
            headers={[
              "Order ID",
              "Customer",
              "Contact",
              "Transfer Details",
              "States",
              "Total",
              "Status",
              "Date",
              "Actions",
            ]}
          >
            {list.map((order) => (
              <tr key={order.id} className="border-t border-line align-top">
                <td className="px-4 py-3 font-mono text-xs" title={order.id}>
                  {order.id.slice(0, 8)}
                </td>
                <td className="max-w-40 px-4 py-3 font-medium whitespace-normal">
                  {`${order.firstName} ${order.lastName}`.trim() || "—"}
                </td>
                <td className="max-w-56 px-4 py-3 whitespace-normal">
                  <div className="break-all">{order.email || "—"}</div>
                  <div className="text-ink-soft">{order.phone}</div>
                </td>
                <td className="px-4 py-3 whitespace-normal">
                  <div>{order.totalTransfers} transfers</div>
                  {order.transfersPerDay !== null && (
                    <div className="text-ink-soft">{order.transfersPerDay} per day</div>
                  )}
                  {order.transferNumber && <div className="text-ink-soft">to {order.transferNumber}</div>}
                  {deliveryCounts(order)}
                </td>
                <td className="max-w-32 px-4 py-3 whitespace-normal">{statesLabel(order.selectedStates)}</td>
                <td className="px-4 py-3 font-semibold">{formatUsd(dollarsToCents(order.totalPrice) ?? 0)}</td>
                <td className="px-4 py-3">
                  <StatusBadge status={order.status} />
                  {order.disputedAt && (
                    <div className="mt-1 text-xs font-semibold text-red-700" data-testid="dispute-flag">
                      Disputed ({order.disputeReason ?? "no reason given"}) on {formatDateTime(order.disputedAt)}
                    </div>
                  )}
                </td>
                <td className="max-w-32 px-4 py-3 whitespace-normal">{formatDateTime(order.createdAt)}</td>
                <td className="px-4 py-3">
                  <div className="flex flex-wrap gap-2">
                    {order.status === "paid" && (
                      <Button variant="secondary" onClick={() => setSettingUp(order)}>
                        Set up delivery
                      </Button>
                    )}
                    {order.status === "paid" && order.delivery?.setupStatus !== "ready" && order.email && (
                      <Button variant="secondary" busy={resendLink.isPending} onClick={() => resendLink.mutate(order)}>
                        Re-send setup link
                      </Button>
                    )}
                    {canChange(order, "completed") && (
                      <Button variant="secondary" onClick={() => setChange({ order, status: "completed" })}>
                        Complete
                      </Button>
                    )}
                    {canChange(order, "cancelled") && (
                      <Button variant="ghost" onClick={() => setChange({ order, status: "cancelled" })}>
                        Cancel
                      </Button>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </QueryView>
      {settingUp && (
        <Suspense fallback={null}>
          <DeliverySetupDialog order={settingUp} onClose={() => setSettingUp(null)} />
        </Suspense>
      )}
      <Dialog
        open={change !== null}
        onOpenChange={(open) => !open && setChange(null)}
        title={change?.status === "completed" ? "Mark this order completed?" : "Cancel this order?"}
        description={
          change && `Order ${change.order.id.slice(0, 8)} · ${formatUsd(dollarsToCents(change.order.totalPrice) ?? 0)}`
        }
      >
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={() => setChange(null)}>
            Keep as is
          </Button>
          <Button
            variant={change?.status === "cancelled" ? "danger" : "primary"}
            busy={update.isPending}
            onClick={() => change && update.mutate(change)}
          >
            {change?.status === "completed" ? "Mark completed" : "Cancel order"}
          </Button>
        </div>
      </Dialog>
    </div>
  );
}

export default function AdminOrders(parts: AdminOrdersParts) {
  return (
    <QueryProvider>
      <AppProviders>
        <Orders {...parts} />
      </AppProviders>
    </QueryProvider>
  );
}
