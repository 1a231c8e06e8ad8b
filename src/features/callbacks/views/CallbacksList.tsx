/**
 * The callbacks tab's latest call-backs and appointments (docs/decisions/0059): each with its window in
 * the prospect's zone, the order it went to, and its whole consent record in a dialog
 * (./CallbackConsentRecord.tsx, docs/decisions/0063). Its own chunk, loaded as it nears the screen.
 */

import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { formatUsd } from "../../../domain/format";
import { formatterPerZone } from "../../../domain/time-zones";
import { api, call } from "../../../lib/api";
import { QueryView } from "../../../ui/query-view";
import { Table } from "../../../ui/table";
import { CALLBACK_KIND_LABELS, type CallbackKind } from "../callbacks";

// The consent record's dialog loads the first time one is opened (the tab stays within its weight).
const CallbackConsentDialog = lazy(() => import("./CallbackConsentRecord"));

interface RecordSubject {
  id: string;
  label: string;
}

const recordButtonId = (id: string) => `callback-consent-${id}`;

/** "Consent record" on a row: opens the record's dialog (focus comes back here when it closes). */
function ConsentRecordButton({ id, label, onOpen }: RecordSubject & { onOpen: (subject: RecordSubject) => void }) {
  return (
    <button
      id={recordButtonId(id)}
      type="button"
      className="font-medium text-brand-700 underline"
      onClick={() => onOpen({ id, label })}
    >
      Consent record<span className="sr-only"> of {label}</span>
    </button>
  );
}

const startFormat = formatterPerZone({ month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
const endFormat = formatterPerZone({ hour: "numeric", minute: "2-digit", timeZoneName: "short" });
const atFormat = formatterPerZone({
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZoneName: "short",
});

/** A window as the prospect reads it: "Dec 1, 9:00 AM – 11:00 AM CST", or an appointment's "Dec 1, 2:30 PM MST". */
function windowText(row: {
  kind: CallbackKind;
  timeZone: string;
  windowStart: string | null;
  windowEnd: string | null;
}) {
  if (!row.windowStart || !row.windowEnd) return "—";
  const start = Date.parse(row.windowStart);
  if (row.kind === "appointment") return atFormat(row.timeZone).format(start);
  return `${startFormat(row.timeZone).format(start)} – ${endFormat(row.timeZone).format(Date.parse(row.windowEnd))}`;
}

/** Delivered (to which order, short), waiting for a paid order, or no longer placeable. */
function deliveryText(row: { orderId: string | null; windowEnd: string | null }) {
  if (row.orderId) return `Delivered · order ${row.orderId.slice(0, 8)}`;
  if (!row.windowEnd) return "Not placed (no window)";
  return Date.parse(row.windowEnd) > Date.now() ? "Waiting" : "Not delivered (window passed)";
}

export function CallbacksList() {
  const list = useQuery({
    queryKey: ["/api/admin/callback-opportunities"],
    queryFn: () => call(api.admin["callback-opportunities"].$get()),
  });
  const [record, setRecord] = useState<RecordSubject | null>(null);
  const closeRecord = () => {
    const opener = record && document.getElementById(recordButtonId(record.id));
    setRecord(null);
    setTimeout(() => opener?.focus(), 0);
  };
  return (
    <section aria-labelledby="callbacks-list" className="space-y-3">
      <h3 id="callbacks-list" className="text-lg font-bold">
        Latest callback opportunities
      </h3>
      <QueryView
        query={list}
        loading="Loading..."
        failed="Could not load the opportunities."
        empty="No callback opportunities yet."
      >
        {(rows) => (
          <Table
            label="Latest callback opportunities"
            headers={[
              "Name",
              "Email",
              "Phone",
              "State",
              "Price",
              "Kind",
              "Window (prospect's time)",
              "Delivery",
              "Consent",
            ]}
          >
            {rows.map((row) => (
              <tr key={row.id} className="border-t border-line">
                <td className="px-4 py-2 font-medium">{row.name}</td>
                <td className="px-4 py-2">{row.email}</td>
                <td className="px-4 py-2">{row.phone}</td>
                <td className="px-4 py-2">{row.state}</td>
                <td className="px-4 py-2">{formatUsd(row.priceCents)}</td>
                <td className="px-4 py-2">{CALLBACK_KIND_LABELS[row.kind]}</td>
                <td className="px-4 py-2">{windowText(row)}</td>
                <td className="px-4 py-2" title={row.orderId ?? undefined}>
                  {deliveryText(row)}
                </td>
                <td className="px-4 py-2">
                  <ConsentRecordButton id={row.id} label={`${row.name} (${row.state})`} onOpen={setRecord} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </QueryView>
      {record && (
        <Suspense>
          <CallbackConsentDialog id={record.id} label={record.label} onClose={closeRecord} />
        </Suspense>
      )}
    </section>
  );
}
