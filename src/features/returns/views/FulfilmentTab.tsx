/**
 * The admin's Fulfilment tab: open live-transfer orders, partners' calls today, suppressed
 * share of today's pings (docs/decisions/0050) and quality, call-back and aged-lead bundle orders with
 * the waiting call-backs (callbacks' FulfilmentCallbacks.tsx, docs/decisions/0063),
 * and the returns queue with Approve / Deny (a note is required to deny), decided rows updated in place.
 */

import { type UseQueryResult, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, Suspense, useId, useState } from "react";
import { formatDateTime } from "../../../domain/format";
import { type Answer, api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { lazyView } from "../../../ui/lazy-view";
import { RetryNotice } from "../../../ui/retry";
import { Spinner } from "../../../ui/spinner";
import { fieldErrorClass, inputClass, labelClass } from "../../../ui/styles";
import { Table } from "../../../ui/table";
import { deliveryProgressText, formatDuration, formatRate, PauseCell, todayText } from "../../transfers/views/index";
import { DECISION_NOTE_MAX, RETURN_MESSAGES, RETURN_STATUSES, type ReturnStatus, returnReasonLabel } from "../returns";
import { RETURN_STATUS_LABELS, ReturnStatusBadge } from "./return-status";

// Call-back and bundle orders and the waiting call-backs: their own chunk (docs/decisions/0063).
const FulfilmentCallbacks = lazyView(() => import("../../callbacks/views/index").then((m) => m.FulfilmentCallbacks));

const FULFILMENT_URL = "/api/admin/fulfilment";
const ADMIN_RETURNS_URL = "/api/admin/returns";
type AdminReturn = Answer<typeof api.admin.returns.$get>[number];

function Loading<T>({
  query,
  what,
  children,
}: {
  query: UseQueryResult<T>;
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Spinner label={`Loading ${what}...`} />;
  if (query.isError)
    return (
      <RetryNotice
        message={errorMessage(query.error, `The ${what} could not be loaded.`)}
        onRetry={() => void query.refetch()}
        busy={query.isFetching}
      />
    );
  return <>{children(query.data)}</>;
}

function ReturnDecision({ item, onDecided }: { item: AdminReturn; onDecided: (updated: AdminReturn) => void }) {
  const id = useId();
  const [note, setNote] = useState("");
  const [error, setError] = useState("");
  const decide = useMutation({
    mutationFn: (decision: "approved" | "denied") =>
      call(
        api.admin.returns[":id"].decision.$post({
          param: { id: item.id },
          json: { decision, note: note.trim() || undefined },
        }),
      ),
    onSuccess: (updated) => {
      setError("");
      onDecided(updated);
    },
    onError: (failure) => setError(errorMessage(failure, "The decision could not be saved. Please try again.")),
  });
  function submit(decision: "approved" | "denied") {
    if (decision === "denied" && !note.trim()) {
      setError(RETURN_MESSAGES.noteRequired);
      return;
    }
    decide.mutate(decision);
  }
  const name = item.itemLabel;
  return (
    <div className="space-y-2">
      <label htmlFor={`${id}-note`} className={labelClass}>
        Note to the buyer <span className="font-normal text-muted">(required to deny)</span>
      </label>
      <textarea
        id={`${id}-note`}
        rows={2}
        maxLength={DECISION_NOTE_MAX}
        className={inputClass}
        value={note}
        onChange={(e) => setNote(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <p id={`${id}-error`} className={fieldErrorClass} role="alert">
          {error}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => submit("approved")} busy={decide.isPending} aria-label={`Approve the return of ${name}`}>
          Approve
        </Button>
        <Button
          variant="danger"
          onClick={() => submit("denied")}
          disabled={decide.isPending}
          aria-label={`Deny the return of ${name}`}
        >
          Deny
        </Button>
      </div>
    </div>
  );
}

function ReturnsQueue() {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<ReturnStatus | "">("pending");
  const url = status ? `${ADMIN_RETURNS_URL}?status=${status}` : ADMIN_RETURNS_URL;
  const returns = useQuery({
    queryKey: [url],
    queryFn: () => call(api.admin.returns.$get({ query: status ? { status } : {} })),
  });
  // A decided row stays in view with its new status until the list is asked for again.
  const [decided, setDecided] = useState<Record<string, AdminReturn>>({});
  const filterId = useId();

  function onDecided(updated: AdminReturn) {
    setDecided((current) => ({ ...current, [updated.id]: updated }));
    // The orders' counts change with an approved transfer return; other filters are stale.
    void queryClient.invalidateQueries({ queryKey: [FULFILMENT_URL] });
  }

  return (
    <section aria-labelledby="returns-queue-title" className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h3 id="returns-queue-title" className="text-lg font-bold">
          Returns
        </h3>
        <div>
          <label htmlFor={filterId} className={labelClass}>
            Show
          </label>
          <select
            id={filterId}
            className={inputClass}
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as ReturnStatus | "");
              setDecided({});
            }}
          >
            {RETURN_STATUSES.map((value) => (
              <option key={value} value={value}>
                {RETURN_STATUS_LABELS[value]}
              </option>
            ))}
            <option value="">All returns</option>
          </select>
        </div>
      </div>
      <Loading query={returns} what="returns">
        {(list) =>
          list.length === 0 ? (
            <p className="rounded-xl border border-dashed border-line py-8 text-center text-ink-soft">
              No returns {status ? `are ${RETURN_STATUS_LABELS[status].toLowerCase()}` : "yet"}.
            </p>
          ) : (
            <ul className="space-y-3">
              {list.map((original) => {
                const item = decided[original.id] ?? original;
                return (
                  <li
                    key={item.id}
                    className="grid gap-4 rounded-xl border border-line bg-white p-4 md:grid-cols-[1fr_20rem]"
                    data-testid={`admin-return-${item.id}`}
                  >
                    <div className="min-w-0 space-y-1">
                      <div className="flex flex-wrap items-center gap-2">
                        <h4 className="font-semibold">{item.itemLabel}</h4>
                        <ReturnStatusBadge status={item.status} />
                      </div>
                      <p className="text-sm text-ink-soft">
                        {item.kind === "transfer"
                          ? "Live transfer"
                          : item.kind === "callback"
                            ? "Call-back"
                            : "Aged lead"}
                        {item.partnerBusinessName && ` from ${item.partnerBusinessName}`} · buyer{" "}
                        {item.buyerUsername ?? item.buyerEmail ?? "unknown"} · {formatDateTime(item.createdAt)}
                      </p>
                      <p className="text-sm break-words">
                        <span className="font-medium">{returnReasonLabel(item.reason)}</span>
                        {item.reasonText && ` — ${item.reasonText}`}
                      </p>
                      {item.adminNote && <p className="text-sm break-words">Note: {item.adminNote}</p>}
                    </div>
                    {item.status === "pending" && <ReturnDecision item={item} onDecided={onDecided} />}
                  </li>
                );
              })}
            </ul>
          )
        }
      </Loading>
    </section>
  );
}

export default function FulfilmentTab() {
  const overview = useQuery({ queryKey: [FULFILMENT_URL], queryFn: () => call(api.admin.fulfilment.$get()) });
  return (
    <div className="space-y-8">
      <Loading query={overview} what="fulfilment overview">
        {(data) => (
          <>
            <section aria-labelledby="open-orders-title" className="space-y-3">
              <h3 id="open-orders-title" className="text-lg font-bold">
                Open live-transfer orders
              </h3>
              {data.orders.length === 0 ? (
                <p className="rounded-xl border border-dashed border-line py-8 text-center text-ink-soft">
                  No open live-transfer orders.
                </p>
              ) : (
                <Table
                  label="Open orders"
                  headers={["Order", "Buyer", "Delivered", "Remaining", "Today", "Deliveries"]}
                >
                  {data.orders.map((order) => (
                    <tr key={order.orderId} className="border-t border-line" data-testid={`fulfil-${order.orderId}`}>
                      <td className="px-4 py-3">
                        <span className="font-medium">{order.packageName}</span>
                        <span className="block text-xs text-ink-soft">{order.orderId.slice(0, 8)}</span>
                      </td>
                      <td className="px-4 py-3">{order.buyer}</td>
                      <td className="px-4 py-3">
                        {deliveryProgressText(order.delivered, order.transfersTotal, order.notCharged)}
                      </td>
                      <td className="px-4 py-3">{order.remaining}</td>
                      <td className="px-4 py-3">
                        {todayText(order.todayCount, order.perDayCap)}
                        {order.limits && <span className="block text-xs text-ink-soft">{order.limits}</span>}
                      </td>
                      <td className="px-4 py-3">
                        <PauseCell order={order} queryKey={FULFILMENT_URL} />
                      </td>
                    </tr>
                  ))}
                </Table>
              )}
            </section>
            <section aria-labelledby="partners-today-title" className="space-y-3">
              <h3 id="partners-today-title" className="text-lg font-bold">
                Partners today
              </h3>
              {data.partners.length === 0 ? (
                <p className="rounded-xl border border-dashed border-line py-8 text-center text-ink-soft">
                  No partners yet.
                </p>
              ) : (
                <Table
                  label="Partners"
                  headers={["Partner", "Calls today", "Suppressed pings today", "Billable rate", "Average duration"]}
                >
                  {data.partners.map((partner) => (
                    <tr key={partner.id} className="border-t border-line">
                      <td className="px-4 py-3 font-medium">{partner.businessName}</td>
                      <td className="px-4 py-3">
                        {partner.todayCalls} of {partner.dailyCallCap}
                      </td>
                      <td className="px-4 py-3" data-testid={`suppressed-share-${partner.id}`}>
                        {formatRate(partner.suppressedShare)}
                        <span className="block text-xs text-ink-soft">
                          {partner.todaySuppressed} of {partner.todayPings} pings
                        </span>
                      </td>
                      <td className="px-4 py-3">{formatRate(partner.billableRate)}</td>
                      <td className="px-4 py-3 tabular-nums">{formatDuration(partner.averageDurationSeconds)}</td>
                    </tr>
                  ))}
                </Table>
              )}
            </section>
          </>
        )}
      </Loading>
      <Suspense fallback={<Spinner label="Loading call-back orders..." />}>
        <FulfilmentCallbacks />
      </Suspense>
      <ReturnsQueue />
    </div>
  );
}
