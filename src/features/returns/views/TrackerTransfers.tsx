/**
 * The Lead Tracker's delivered transfers, one page of them: a table where the view is at least 56rem wide
 * (a 1280-px screen with the dashboard's sidebar, scrollbar included), cards below that (phones, narrow
 * windows). The switch is a container query on the list's own width, so it holds whatever surrounds it,
 * and both are in the server's HTML (no layout shift, nothing measured in script). Five columns leave room
 * in the Prospect cell for a small badge per row (decision 0048).
 */
import type { ReactNode } from "react";
import type { Answer, api } from "../../../lib/api";
import { Table } from "../../../ui/table";
import { ConsentSummaryCell } from "../../consent/views/index";
import { PhoneWithDncFlag } from "../../do-not-call/views/index";
import { chargeText, formatDuration, formatInZone } from "../../transfers/views/index";

type TrackerTransfer = Answer<typeof api.tracker.transfers.$get>["items"][number];

const RETURN_STATUS_TEXT = { pending: "Return pending", approved: "Returned", denied: "Return denied" } as const;
const LIST_LABEL = "Delivered transfers";
const linkClass = "text-brand-700 underline";

const prospectName = (t: TrackerTransfer) => `${t.firstName} ${t.lastName}`;

/** "Nov 22, 2026, 8:50 PM CST" as the day and the time, so the table's Time column takes two short lines. */
function dayAndTime(t: TrackerTransfer): [day: string, time: string] {
  const text = formatInZone(t.routedAt, t.timeZone);
  const cut = text.lastIndexOf(", ");
  return cut < 0 ? [text, ""] : [text.slice(0, cut), text.slice(cut + 2)];
}

/** The prospect's name; a row's flags (badges) sit beside it and wrap under it when the cell is narrow. */
function ProspectName({ t }: { t: TrackerTransfer }) {
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-1 font-medium" data-testid="prospect-name">
      {prospectName(t)}
    </span>
  );
}

/** Shown once the call connected; struck through and flagged if it reached a Do Not Call list since. */
function Phone({ t }: { t: TrackerTransfer }) {
  return t.contactShown ? (
    <PhoneWithDncFlag phone={t.phone} suppressedOn={t.suppressedOn} />
  ) : (
    <span className="text-ink-soft">{t.phone}</span>
  );
}

/** The order's agent who took the call (docs/decisions/0072); "—" for an order without agents. */
const agentText = (t: TrackerTransfer) => t.agentName ?? "—";

function Charge({ t }: { t: TrackerTransfer }) {
  return <span className={t.billable ? "font-semibold" : "text-ink-soft"}>{chargeText(t)}</span>;
}

function Recording({ t }: { t: TrackerTransfer }) {
  return t.recordingUrl ? (
    <a
      className={linkClass}
      href={t.recordingUrl}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={`Listen to the call with ${prospectName(t)}`}
    >
      Listen
    </a>
  ) : null;
}

/** The return's state with the admin's note, the Return link while it can be returned, else "—". */
function ReturnState({ t }: { t: TrackerTransfer }) {
  if (t.returnStatus) {
    return (
      <>
        {RETURN_STATUS_TEXT[t.returnStatus]}
        {t.returnNote && <span className="block max-w-56 text-xs text-ink-soft">{t.returnNote}</span>}
      </>
    );
  }
  if (!t.returnable) return <>—</>;
  return (
    <a
      className={linkClass}
      href={`/dashboard?view=return-lead&transfer=${t.id}`}
      aria-label={`Return the transfer of ${prospectName(t)}`}
    >
      Return
    </a>
  );
}

const consentOf = (t: TrackerTransfer) => (
  <ConsentSummaryCell consent={t.consent} subject={{ kind: "transfer", id: t.id, label: prospectName(t) }} />
);

function TransferRow({ t }: { t: TrackerTransfer }) {
  const [day, time] = dayAndTime(t);
  return (
    <tr className="border-t border-line align-top">
      <td className="px-3 py-3">
        <span className="block">{day}</span>
        <span className="block text-ink-soft">{time}</span>
      </td>
      <td className="px-3 py-3 whitespace-normal">
        <ProspectName t={t} />
        <span className="block">
          <Phone t={t} /> · {t.state}
        </span>
      </td>
      <td className="w-44 px-3 py-3 whitespace-normal">
        <span className="block tabular-nums">{formatDuration(t.durationSeconds)}</span>
        <Charge t={t} />
        <span className="block">
          <span className="text-ink-soft">Agent:</span> {agentText(t)}
        </span>
        <span className="block">
          <Recording t={t} />
        </span>
      </td>
      <td className="px-3 py-3 whitespace-normal">
        <ReturnState t={t} />
      </td>
      <td className="w-60 px-3 py-3">{consentOf(t)}</td>
    </tr>
  );
}

function Field({ label, children, wide = false }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? "col-span-2" : undefined}>
      <dt className="text-xs text-ink-soft">{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function TransferCard({ t }: { t: TrackerTransfer }) {
  return (
    <li className="rounded-xl border border-line bg-white p-4 text-sm" data-testid="transfer-card">
      <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
        <ProspectName t={t} />
        <Charge t={t} />
      </div>
      <p className="text-ink-soft">{formatInZone(t.routedAt, t.timeZone)}</p>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2">
        <Field label="Phone">
          <Phone t={t} />
        </Field>
        <Field label="State">{t.state}</Field>
        <Field label="Duration">
          <span className="tabular-nums">{formatDuration(t.durationSeconds)}</span>
        </Field>
        <Field label="Recording">{t.recordingUrl ? <Recording t={t} /> : "—"}</Field>
        <Field label="Agent" wide>
          {agentText(t)}
        </Field>
        <Field label="Return" wide>
          <ReturnState t={t} />
        </Field>
      </dl>
      <div className="mt-3 border-t border-line pt-3">{consentOf(t)}</div>
    </li>
  );
}

export function TrackerTransfers({ items }: { items: readonly TrackerTransfer[] }) {
  return (
    <div className="@container">
      <div className="hidden @4xl:block">
        <Table label={LIST_LABEL} headers={["Time", "Prospect", "Call", "Return", "Consent"]}>
          {items.map((t) => (
            <TransferRow key={t.id} t={t} />
          ))}
        </Table>
      </div>
      <ul aria-label={LIST_LABEL} className="grid gap-3 @xl:grid-cols-2 @4xl:hidden">
        {items.map((t) => (
          <TransferCard key={t.id} t={t} />
        ))}
      </ul>
    </div>
  );
}
