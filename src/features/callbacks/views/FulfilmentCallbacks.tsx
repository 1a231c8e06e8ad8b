/**
 * The Fulfilment tab's call-back part (docs/decisions/0063): open call-back orders and aged-lead bundle
 * orders with their counts, and the call-backs and appointments waiting for an order, those about to
 * expire unsold marked. An admin places a waiting one by hand in an open order that fits; a refusal
 * shows the server's reason. Its own chunk: the tab's first load does not carry it.
 */

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { type Answer, api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { RetryNotice } from "../../../ui/retry";
import { Spinner } from "../../../ui/spinner";
import { fieldErrorClass, inputClass } from "../../../ui/styles";
import { Table } from "../../../ui/table";
import { EXPIRING_SOON_TEXT, windowLabel } from "../callbacks";

const CALLBACKS_URL = "/api/admin/fulfilment/callbacks";
type Overview = Answer<typeof api.admin.fulfilment.callbacks.$get>;
type Waiting = Overview["unassigned"][number];
type CallbackOrder = Overview["callbackOrders"][number];

const empty = (text: string) => (
  <p className="rounded-xl border border-dashed border-line py-6 text-center text-ink-soft">{text}</p>
);

const shortId = (id: string) => id.slice(0, 8);
const orderTerms = (order: CallbackOrder) =>
  `${order.states ? order.states.join(", ") : "Every state"} · ${order.preference}`;

function AssignCell({ item, orders }: { item: Waiting; orders: Map<string, CallbackOrder> }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [orderId, setOrderId] = useState(item.fittingOrderIds[0] ?? "");
  const [error, setError] = useState("");
  const assign = useMutation({
    mutationFn: () => call(api.admin.callbacks[":id"].assign.$post({ param: { id: item.id }, json: { orderId } })),
    onSuccess: () => {
      setError("");
      void queryClient.invalidateQueries({ queryKey: [CALLBACKS_URL] });
    },
    onError: (failure) => {
      setError(errorMessage(failure, "The call-back could not be placed. Please try again."));
      void queryClient.invalidateQueries({ queryKey: [CALLBACKS_URL] });
    },
  });
  if (item.fittingOrderIds.length === 0) return <span className="text-ink-soft">No open order fits</span>;
  return (
    <div className="flex flex-wrap items-start gap-2">
      <select
        id={`${id}-order`}
        aria-label={`Order for ${item.name}`}
        className={`${inputClass} w-auto`}
        value={orderId}
        onChange={(e) => setOrderId(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        {item.fittingOrderIds.map((fitting) => {
          const order = orders.get(fitting);
          return (
            <option key={fitting} value={fitting}>
              {order ? `${order.buyer} · ${shortId(fitting)} · ${order.remaining} left` : shortId(fitting)}
            </option>
          );
        })}
      </select>
      <Button onClick={() => assign.mutate()} busy={assign.isPending} aria-label={`Assign ${item.name}`}>
        Assign
      </Button>
      {error && (
        <p id={`${id}-error`} className={`${fieldErrorClass} w-full whitespace-normal`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function WaitingCallbacks({ data }: { data: Overview }) {
  const orders = new Map(data.callbackOrders.map((order) => [order.orderId, order]));
  const soon = data.unassigned.filter((item) => item.expiresSoon).length;
  return (
    <section aria-labelledby="waiting-callbacks-title" className="space-y-3">
      <h3 id="waiting-callbacks-title" className="text-lg font-bold">
        Waiting call-backs and appointments
      </h3>
      <p className="text-sm text-ink-soft">
        Not in any order yet. <strong className="text-ink">Expires soon</strong> marks a window that starts within{" "}
        {EXPIRING_SOON_TEXT}: unless it is placed it goes unsold ({soon} now).
      </p>
      {data.unassigned.length === 0 ? (
        empty("No call-back is waiting for an order.")
      ) : (
        <Table label="Waiting call-backs" headers={["Prospect", "Kind", "Window (prospect's time)", "Assign to"]}>
          {data.unassigned.map((item) => (
            <tr
              key={item.id}
              className={`border-t border-line ${item.expiresSoon ? "bg-amber-50" : ""}`}
              data-testid={`waiting-callback-${item.id}`}
            >
              <td className="px-4 py-3">
                <span className="font-medium">{item.name}</span>
                <span className="block text-xs text-ink-soft">
                  {item.phone} · {item.state} · {item.source}
                </span>
              </td>
              <td className="px-4 py-3">{item.kind === "appointment" ? "Appointment" : "Call-back"}</td>
              <td className="px-4 py-3">
                {windowLabel({
                  windowStart: Date.parse(item.windowStart),
                  windowEnd: Date.parse(item.windowEnd),
                  timeZone: item.timeZone,
                })}
                {item.expiresSoon && (
                  <span className="ml-2 rounded-full bg-amber-200 px-2 py-0.5 text-xs font-semibold text-ink">
                    Expires soon
                  </span>
                )}
              </td>
              <td className="px-4 py-3">
                <AssignCell item={item} orders={orders} />
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

export default function FulfilmentCallbacks() {
  const overview = useQuery({
    queryKey: [CALLBACKS_URL],
    queryFn: () => call(api.admin.fulfilment.callbacks.$get()),
  });
  if (overview.isPending) return <Spinner label="Loading call-back orders..." />;
  if (overview.isError)
    return (
      <RetryNotice
        message={errorMessage(overview.error, "The call-back orders could not be loaded.")}
        onRetry={() => void overview.refetch()}
        busy={overview.isFetching}
      />
    );
  const data = overview.data;
  return (
    <>
      <section aria-labelledby="callback-orders-title" className="space-y-3">
        <h3 id="callback-orders-title" className="text-lg font-bold">
          Open call-back orders
        </h3>
        {data.callbackOrders.length === 0 ? (
          empty("No open call-back orders.")
        ) : (
          <Table label="Open call-back orders" headers={["Order", "Buyer", "Bought", "Delivered", "Remaining"]}>
            {data.callbackOrders.map((order) => (
              <tr key={order.orderId} className="border-t border-line" data-testid={`callback-order-${order.orderId}`}>
                <td className="px-4 py-3">
                  <span className="font-medium">{orderTerms(order)}</span>
                  <span className="block text-xs text-ink-soft">{shortId(order.orderId)}</span>
                </td>
                <td className="px-4 py-3">{order.buyer}</td>
                <td className="px-4 py-3">{order.bought}</td>
                <td className="px-4 py-3">{order.delivered}</td>
                <td className="px-4 py-3">{order.remaining}</td>
              </tr>
            ))}
          </Table>
        )}
      </section>
      <WaitingCallbacks data={data} />
      <section aria-labelledby="bundle-orders-title" className="space-y-3">
        <h3 id="bundle-orders-title" className="text-lg font-bold">
          Aged-lead bundle orders
        </h3>
        {data.bundleOrders.length === 0 ? (
          empty("No paid aged-lead bundle orders.")
        ) : (
          <Table label="Aged-lead bundle orders" headers={["Order", "Buyer", "Bought", "Delivered", "Remaining"]}>
            {data.bundleOrders.map((order) => (
              <tr key={order.orderId} className="border-t border-line" data-testid={`bundle-order-${order.orderId}`}>
                <td className="px-4 py-3">
                  <span className="font-medium">{order.band} days</span>
                  <span className="block text-xs text-ink-soft">{shortId(order.orderId)}</span>
                </td>
                <td className="px-4 py-3">{order.buyer}</td>
                <td className="px-4 py-3">{order.bought}</td>
                <td className="px-4 py-3">
                  {order.delivered}
                  {order.refunded > 0 && (
                    <span className="block text-xs text-ink-soft">{order.refunded} refunded (not in stock)</span>
                  )}
                </td>
                <td className="px-4 py-3">{order.remaining}</td>
              </tr>
            ))}
          </Table>
        )}
      </section>
    </>
  );
}
