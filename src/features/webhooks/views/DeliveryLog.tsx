/**
 * An endpoint's delivery log: each event's time, type, status, attempts, last answer
 * (status code, latency, its first 1 KB) and next attempt, filtered and paged on the server; "Resend"
 * for one event and for every failed event of the chosen time range.
 */

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { formatCount, formatLogTime } from "../../../domain/format";
import { api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { Pager } from "../../../ui/pager";
import { Spinner } from "../../../ui/spinner";
import { inputClass, labelClass } from "../../../ui/styles";
import { Table } from "../../../ui/table";
import { toast } from "../../../ui/toast";
import { ALL_WEBHOOK_EVENT_TYPES, type AnyWebhookEventType } from "../../webhook-outbox/index";
import type { DeliveryStatus } from "../delivery";
import type { WebhookDeliveryView } from "../schemas/webhook-settings";

export const deliveriesUrl = (endpointId: string) => `/api/webhook-endpoints/${endpointId}/deliveries`;

const STATUS_TEXT: Record<DeliveryStatus, string> = {
  pending: "Pending",
  retrying: "Retrying",
  delivered: "Delivered",
  dead_letter: "Dead letter",
};
const STATUS_CLASS: Record<DeliveryStatus, string> = {
  pending: "bg-sky-100 text-sky-900",
  retrying: "bg-amber-100 text-amber-900",
  delivered: "bg-green-100 text-green-900",
  dead_letter: "bg-red-100 text-red-900",
};
const STATUS_FILTERS = [
  ["", "Any status"],
  ["failed", "Failed (retrying or dead letter)"],
  ["delivered", "Delivered"],
  ["pending", "Pending"],
  ["retrying", "Retrying"],
  ["dead_letter", "Dead letter"],
] as const;

const at = (iso: string | null) => (iso ? formatLogTime(iso) : "—");

type StatusFilter = (typeof STATUS_FILTERS)[number][0];

interface Filters {
  status: StatusFilter;
  type: AnyWebhookEventType | "";
  from: string;
  to: string;
}

/** A `datetime-local` value (the buyer's clock) as ISO 8601, or undefined when empty or unreadable. */
function instant(local: string): string | undefined {
  const time = local ? new Date(local).getTime() : Number.NaN;
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

function lastAnswer(item: WebhookDeliveryView): string {
  if (item.lastStatusCode === null) return item.attempts === 0 ? "Not sent yet" : "No answer";
  return `HTTP ${item.lastStatusCode}${item.latencyMs === null ? "" : ` in ${item.latencyMs} ms`}`;
}

function LogRow({ endpointId, item }: { endpointId: string; item: WebhookDeliveryView }) {
  const queryClient = useQueryClient();
  const resend = useMutation({
    mutationFn: () =>
      call(
        api["webhook-endpoints"][":id"].deliveries[":eventId"].resend.$post({
          param: { id: endpointId, eventId: item.eventId },
        }),
      ),
    onSuccess: async () => {
      toast({ title: "Sent again", description: `${item.type} ${item.eventId} is on its way.`, variant: "success" });
      await queryClient.invalidateQueries({ queryKey: [deliveriesUrl(endpointId)] });
    },
    onError: (error) =>
      toast({
        title: "Could not resend",
        description: errorMessage(error, "Please try again."),
        variant: "destructive",
      }),
  });
  const detail = item.answer || item.lastError;
  return (
    <tr className="border-t border-line align-top" data-testid={`delivery-${item.eventId}`}>
      <td className="px-4 py-3">{at(item.createdAt)}</td>
      <td className="px-4 py-3">
        <code>{item.type}</code>
        <span className="block text-xs text-ink-soft">{item.eventId}</span>
      </td>
      <td className="px-4 py-3">
        <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_CLASS[item.status]}`}>
          {STATUS_TEXT[item.status]}
        </span>
        {item.nextAttemptAt && item.attempts > 0 && (
          <span className="block text-xs text-ink-soft">Next try {at(item.nextAttemptAt)}</span>
        )}
      </td>
      <td className="px-4 py-3">{item.attempts}</td>
      <td className="px-4 py-3 whitespace-normal">
        {lastAnswer(item)}
        {detail && (
          <details className="mt-1 max-w-sm">
            <summary className="cursor-pointer text-brand-700 underline">
              {item.answer ? "Answer (first 1 KB)" : "Why"}
            </summary>
            <pre className="mt-1 max-h-40 overflow-auto rounded bg-surface p-2 text-xs whitespace-pre-wrap break-all">
              {item.answer || item.lastError}
            </pre>
          </details>
        )}
      </td>
      <td className="px-4 py-3">
        <Button
          variant="secondary"
          aria-label={`Resend ${item.type} of ${at(item.createdAt)}`}
          busy={resend.isPending}
          onClick={() => resend.mutate()}
        >
          Resend
        </Button>
      </td>
    </tr>
  );
}

export function DeliveryLog({ endpointId, endpointName }: { endpointId: string; endpointName: string }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [draft, setDraft] = useState<Filters>({ status: "", type: "", from: "", to: "" });
  const [filters, setFilters] = useState<Filters>(draft);
  const query = {
    page: String(page),
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.type ? { type: filters.type } : {}),
    ...(instant(filters.from) ? { from: instant(filters.from) } : {}),
    ...(instant(filters.to) ? { to: instant(filters.to) } : {}),
  };
  const log = useQuery({
    queryKey: [deliveriesUrl(endpointId), query],
    queryFn: () => call(api["webhook-endpoints"][":id"].deliveries.$get({ param: { id: endpointId }, query })),
    // While something waits for its first attempt (a test event just sent), look again shortly.
    refetchInterval: ({ state }) =>
      state.data?.items.some((item) => item.status === "pending") && state.dataUpdateCount < 40 ? 1500 : false,
  });
  // Opened again later: the log as it is now, not as it was when last seen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per opening
  useEffect(() => {
    void log.refetch();
  }, []);
  const from = instant(filters.from);
  const to = instant(filters.to);
  const resendRange = useMutation({
    mutationFn: () =>
      call(
        api["webhook-endpoints"][":id"]["resend-failed"].$post({
          param: { id: endpointId },
          json: { from: from ?? "", to: to ?? "" },
        }),
      ),
    onSuccess: async (answer) => {
      toast({
        title: answer.resent === 0 ? "Nothing to resend" : `${answer.resent} events sent again`,
        description: answer.more
          ? "More failed events remain in this range: press again to send the next ones."
          : "Every failed event of the range is on its way.",
        variant: "success",
      });
      await queryClient.invalidateQueries({ queryKey: [deliveriesUrl(endpointId)] });
    },
    onError: (error) =>
      toast({
        title: "Could not resend",
        description: errorMessage(error, "Please try again."),
        variant: "destructive",
      }),
  });

  // The selects offer only their own values, so the value is of the filter's type.
  const change = (name: keyof Filters) => (event: { target: { value: string } }) =>
    setDraft({ ...draft, [name]: event.target.value } as Filters);
  const data = log.data;
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-4">
      <h4 id={`${id}-title`} className="font-semibold">
        Delivery log
      </h4>
      <form
        className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5"
        onSubmit={(event) => {
          event.preventDefault();
          // The same filters again: look again (new events may have arrived).
          if (page === 1 && JSON.stringify(draft) === JSON.stringify(filters)) void log.refetch();
          setPage(1);
          setFilters(draft);
        }}
      >
        <div>
          <label htmlFor={`${id}-status`} className={labelClass}>
            Status
          </label>
          <select id={`${id}-status`} className={inputClass} value={draft.status} onChange={change("status")}>
            {STATUS_FILTERS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-type`} className={labelClass}>
            Event
          </label>
          <select id={`${id}-type`} className={inputClass} value={draft.type} onChange={change("type")}>
            <option value="">Any event</option>
            {ALL_WEBHOOK_EVENT_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
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
            type="datetime-local"
            className={inputClass}
            value={draft.from}
            onChange={change("from")}
          />
        </div>
        <div>
          <label htmlFor={`${id}-to`} className={labelClass}>
            To
          </label>
          <input
            id={`${id}-to`}
            type="datetime-local"
            className={inputClass}
            value={draft.to}
            onChange={change("to")}
          />
        </div>
        <div className="flex items-end">
          <Button type="submit" variant="secondary" className="w-full">
            Show
          </Button>
        </div>
      </form>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="secondary"
          disabled={!from || !to}
          busy={resendRange.isPending}
          onClick={() => resendRange.mutate()}
        >
          Resend failed events of this range
        </Button>
        {(!from || !to) && <p className="text-sm text-ink-soft">Choose From and To, then Show, to resend a range.</p>}
      </div>
      {log.isPending ? (
        <Spinner label="Loading the delivery log..." />
      ) : log.isError || !data ? (
        <p className="text-ink-soft">
          {errorMessage(log.error, "The delivery log could not be loaded. Please reload the page.")}
        </p>
      ) : data.total === 0 ? (
        <p className="rounded-xl border border-dashed border-line py-8 text-center text-ink-soft">
          No events yet. Send a test event to see one here.
        </p>
      ) : (
        <>
          <p className="text-sm text-ink-soft" aria-live="polite">
            {formatCount(data.total)} {data.total === 1 ? "event" : "events"} · page {data.page} of {data.pageCount}
          </p>
          <Table
            label={`Delivery log of ${endpointName}`}
            headers={["Time", "Event", "Status", "Attempts", "Last answer", "Resend"]}
          >
            {data.items.map((item) => (
              <LogRow key={item.eventId} endpointId={endpointId} item={item} />
            ))}
          </Table>
          <Pager
            label={`Delivery log pages of ${endpointName}`}
            page={page}
            pageCount={data.pageCount}
            onPage={setPage}
          />
        </>
      )}
    </section>
  );
}
