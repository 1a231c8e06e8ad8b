/**
 * Lead Tracker: the buyer's live-transfer orders (progress, today against the daily cap,
 * pause / resume) and every transfer delivered to them, newest first, paged and filtered on the server.
 */

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { formatCount } from "../../../domain/format";
import { type Answer, api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { Card } from "../../../ui/card";
import { Pager } from "../../../ui/pager";
import { RetryNotice } from "../../../ui/retry";
import { Spinner } from "../../../ui/spinner";
import { buttonClass, inputClass, labelClass } from "../../../ui/styles";
import { toast } from "../../../ui/toast";
import { DAILY_CAP_RULE_TEXT, deliveryProgressText, ResumeWithNumber, todayText } from "../../transfers/views/index";
import { TrackerTransfers } from "./TrackerTransfers";

const TRACKER_ORDERS_URL = "/api/tracker/orders";

interface Filters {
  orderId: string;
  from: string;
  to: string;
  billable: "" | "true" | "false";
}
const NO_FILTERS: Filters = { orderId: "", from: "", to: "", billable: "" };

type TrackerOrder = Answer<typeof api.tracker.orders.$get>[number];

/** The filters that are set, as the list's (and its CSV export's) query parameters. */
function filterParams(filters: Filters): Record<string, string> {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value));
}

/** The same parameters (and the page, when given) as a query string. */
function filterQuery(filters: Filters, page?: number): string {
  const text = String(
    new URLSearchParams({ ...filterParams(filters), ...(page === undefined ? {} : { page: String(page) }) }),
  );
  return text ? `?${text}` : "";
}

function OrderProgress({ order }: { order: TrackerOrder }) {
  const queryClient = useQueryClient();
  const labelId = useId();
  const [notice, setNotice] = useState("");
  const changed = async (updated: TrackerOrder) => {
    setNotice(
      updated.paused
        ? "Deliveries are paused. No transfers reach this order until you resume."
        : "Deliveries resumed. Transfers reach this order again within its hours.",
    );
    await queryClient.invalidateQueries({ queryKey: [TRACKER_ORDERS_URL] });
  };
  const toggle = useMutation({
    mutationFn: (action: "pause" | "resume") =>
      action === "pause"
        ? call(api.tracker.orders[":orderId"].pause.$post({ param: { orderId: order.orderId } }))
        : call(api.tracker.orders[":orderId"].resume.$post({ param: { orderId: order.orderId }, json: {} })),
    onSuccess: changed,
    onError: (error) =>
      toast({
        title: "Could not change deliveries",
        description: errorMessage(error, "Please try again."),
        variant: "destructive",
      }),
  });
  const progress = deliveryProgressText(order.delivered, order.transfersTotal, order.notCharged);
  return (
    <li className="space-y-3 rounded-xl border border-line bg-white p-4" data-testid={`tracker-order-${order.orderId}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h4 id={labelId} className="font-semibold">
            {order.packageName} · Order {order.orderId.slice(0, 8)}
          </h4>
          <p className="text-sm text-ink-soft">
            {order.remaining} remaining · {todayText(order.todayCount, order.perDayCap)}
            {order.setupStatus === "awaiting_setup" && " · awaiting delivery settings"}
          </p>
          {order.limits && <p className="text-sm text-ink-soft">Limits: {order.limits}</p>}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {order.paused && (
            <span className="rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900">Paused</span>
          )}
          {order.pause?.needsNumber ? (
            <ResumeWithNumber order={order} onResumed={changed} />
          ) : (
            <Button
              variant="secondary"
              busy={toggle.isPending}
              onClick={() => toggle.mutate(order.paused ? "resume" : "pause")}
              aria-describedby={labelId}
            >
              {order.paused ? "Resume deliveries" : "Pause deliveries"}
            </Button>
          )}
        </div>
      </div>
      <div>
        <progress
          className="h-2 w-full overflow-hidden rounded-full accent-brand-600"
          max={Math.max(order.transfersTotal, 1)}
          value={order.delivered}
          aria-labelledby={labelId}
          aria-valuetext={progress}
        />
        <p className="mt-1 text-sm" data-testid="order-progress">
          {progress}
        </p>
      </div>
      <p role="status" className="text-sm font-medium text-brand-700">
        {notice}
      </p>
    </li>
  );
}

function TrackerOrders({ orders }: { orders: TrackerOrder[] }) {
  if (orders.length === 0) return null;
  return (
    <section aria-labelledby="tracker-orders-title" className="space-y-3">
      <h3 id="tracker-orders-title" className="text-lg font-bold">
        Your live-transfer orders
      </h3>
      <p className="text-sm text-ink-soft" data-testid="daily-cap-rule">
        {DAILY_CAP_RULE_TEXT}
      </p>
      <ul className="space-y-3">
        {orders.map((order) => (
          <OrderProgress key={order.orderId} order={order} />
        ))}
      </ul>
    </section>
  );
}

function TrackerFilters({
  filters,
  orders,
  onChange,
}: {
  filters: Filters;
  orders: TrackerOrder[];
  onChange: (next: Filters) => void;
}) {
  const id = useId();
  const set = (patch: Partial<Filters>) => onChange({ ...filters, ...patch });
  return (
    <fieldset className="grid gap-3 rounded-xl border border-line bg-white p-4 sm:grid-cols-2 lg:grid-cols-4">
      <legend className="sr-only">Filter transfers</legend>
      <div>
        <label htmlFor={`${id}-order`} className={labelClass}>
          Order
        </label>
        <select
          id={`${id}-order`}
          className={inputClass}
          value={filters.orderId}
          onChange={(e) => set({ orderId: e.target.value })}
        >
          <option value="">All orders</option>
          {orders.map((order) => (
            <option key={order.orderId} value={order.orderId}>
              {order.packageName} · {order.orderId.slice(0, 8)}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-from`} className={labelClass}>
          From
        </label>
        <input
          id={`${id}-from`}
          type="date"
          className={inputClass}
          value={filters.from}
          max={filters.to || undefined}
          onChange={(e) => set({ from: e.target.value })}
        />
      </div>
      <div>
        <label htmlFor={`${id}-to`} className={labelClass}>
          To
        </label>
        <input
          id={`${id}-to`}
          type="date"
          className={inputClass}
          value={filters.to}
          min={filters.from || undefined}
          onChange={(e) => set({ to: e.target.value })}
        />
      </div>
      <div>
        <label htmlFor={`${id}-billable`} className={labelClass}>
          Charge
        </label>
        <select
          id={`${id}-billable`}
          className={inputClass}
          value={filters.billable}
          onChange={(e) => set({ billable: e.target.value as Filters["billable"] })}
        >
          <option value="">All transfers</option>
          <option value="true">Billable only</option>
          <option value="false">Not charged only</option>
        </select>
      </div>
    </fieldset>
  );
}

export function LeadTrackerView() {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const orders = useQuery({ queryKey: [TRACKER_ORDERS_URL], queryFn: () => call(api.tracker.orders.$get()) });
  const transfers = useQuery({
    queryKey: [`/api/tracker/transfers${filterQuery(filters, page)}`],
    queryFn: () => call(api.tracker.transfers.$get({ query: { ...filterParams(filters), page: String(page) } })),
  });
  const filtered = Object.values(filters).some(Boolean);
  const data = transfers.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  function changeFilters(next: Filters) {
    setFilters(next);
    setPage(1);
  }

  return (
    <section aria-labelledby="tracker-title" className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="tracker-title" className="text-2xl font-bold">
            Lead Tracker
          </h2>
          <p className="text-ink-soft">
            Every live transfer delivered to you, newest first, in your orders' time zone.
          </p>
        </div>
        {/* Its place is kept while the transfers load (hidden, not absent), so nothing below moves when it shows. */}
        {!(data && data.total === 0) && (
          <a
            href={`/api/tracker/transfers.csv${filterQuery(filters)}`}
            download
            // `invisible` (visibility: hidden) also keeps it from focus and from assistive technology.
            className={`${buttonClass("secondary")} ${data ? "" : "invisible"}`}
          >
            Export CSV
          </a>
        )}
      </div>

      <TrackerFilters filters={filters} orders={orders.data ?? []} onChange={changeFilters} />

      {transfers.isPending ? (
        <Spinner label="Loading transfers..." />
      ) : transfers.isError || !data ? (
        <RetryNotice
          message={errorMessage(transfers.error, "Your transfers could not be loaded.")}
          onRetry={() => void transfers.refetch()}
          busy={transfers.isFetching}
        />
      ) : data.total === 0 ? (
        <Card className="text-center text-ink-soft">
          {filtered ? (
            <p>No transfers match these filters.</p>
          ) : (
            <p>No transfers delivered yet. Your live transfers appear here as soon as a partner connects a caller.</p>
          )}
        </Card>
      ) : (
        <>
          <p className="text-sm text-ink-soft" aria-live="polite">
            {formatCount(data.total)} transfers · page {data.page} of {pageCount}
          </p>
          <TrackerTransfers items={data.items} />
          <Pager label="Transfer pages" page={page} pageCount={pageCount} onPage={setPage} />
        </>
      )}

      {/* Below the transfers, and once they are in: arriving orders push nothing on screen down (no layout shift). */}
      {!transfers.isPending &&
        (orders.isError ? (
          <RetryNotice
            message={errorMessage(orders.error, "Your orders could not be loaded.")}
            onRetry={() => void orders.refetch()}
            busy={orders.isFetching}
          />
        ) : (
          orders.data && <TrackerOrders orders={orders.data} />
        ))}
    </section>
  );
}
