/**
 * My Call-Backs: each call-back and appointment delivered to the buyer's paid call-back orders, with the
 * full contact and the window in the prospect's time zone and the buyer's own, and how long until it opens
 * (src/features/callbacks/callbacks.ts, docs/decisions/0058), and its outcome and return (./CallbackActions, decision 0062).
 */

import { useQuery } from "@tanstack/react-query";
import { Fragment } from "react";
import { WINDOW_FIT_LABELS } from "../../../domain/callable";
import { formatDayTimeIn, formatWindowIn } from "../../../domain/format";
import { api, call } from "../../../lib/api";
import { CallableText } from "../../../ui/callable";
import { Card } from "../../../ui/card";
import { Spinner } from "../../../ui/spinner";
import { buttonClass } from "../../../ui/styles";
import { type DeliveredCallback, icsPath } from "../../callbacks/index";
import { CERTIFICATE_STATUS_LABELS } from "../../consent/index";
import { CallbackActions } from "./CallbackActions";

/** "opens in 2 h 5 min", "open now", "passed". */
function untilOpen(windowStart: number, windowEnd: number, now: number): string {
  if (now >= windowEnd) return "Passed";
  if (now >= windowStart) return "Open now";
  const minutes = Math.ceil((windowStart - now) / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  return `Opens in ${[days ? `${days} d` : "", hours ? `${hours} h` : "", rest ? `${rest} min` : ""].filter(Boolean).join(" ")}`;
}

const windowText = formatWindowIn;

/** The whole stored consent record, folded: what a buyer shows when asked how the prospect agreed. */
function ConsentDetails({ consent }: { consent: DeliveredCallback["consent"] }) {
  const rows: [string, string | null][] = [
    ["Opt-in time (UTC)", consent.optInAt],
    ["Opt-in page", consent.optInUrl],
    ["Consent text", consent.consentText],
    ["IP address", consent.ipAddress],
    ["TrustedForm certificate", consent.trustedFormUrl],
    ["Jornaya LeadiD", consent.jornayaLeadId],
  ];
  return (
    <details className="mt-1">
      <summary className="cursor-pointer font-medium text-brand-700 underline">Full consent record</summary>
      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        {rows.map(([label, value]) => (
          <Fragment key={label}>
            <dt className="text-ink-soft">{label}</dt>
            <dd className="break-all">{value ?? "Not given"}</dd>
          </Fragment>
        ))}
      </dl>
    </details>
  );
}

export function MyCallbacksView() {
  const callbacks = useQuery({
    queryKey: ["/api/my-callbacks"],
    queryFn: () => call(api["my-callbacks"].$get()),
  });
  const items = callbacks.data?.callbacks;
  const now = Date.now();
  return (
    <section aria-labelledby="my-callbacks-title" className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="my-callbacks-title" className="text-2xl font-bold">
          My Call-Backs
        </h2>
        {items && items.length > 0 && (
          <a href="/api/my-callbacks.csv" download className={buttonClass("secondary")}>
            Export CSV
          </a>
        )}
      </div>
      {callbacks.isPending ? (
        <Spinner label="Loading your call-backs..." />
      ) : callbacks.isError || !items ? (
        <p className="text-ink-soft">Your call-backs could not be loaded. Please reload the page.</p>
      ) : items.length === 0 ? (
        <p className="rounded-xl border border-dashed border-line py-12 text-center text-ink-soft">
          No call-backs yet. They arrive here as soon as a paid call-back order of yours receives one.
        </p>
      ) : (
        <ul aria-label="My call-backs" className="grid gap-4 lg:grid-cols-2">
          {items.map((item) => {
            const start = Date.parse(item.windowStart);
            const end = Date.parse(item.windowEnd);
            return (
              <li key={item.id}>
                <Card className="space-y-3">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <h3 className="text-lg font-semibold">{item.name}</h3>
                    <span className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-700">
                      {item.kind === "appointment" ? "Appointment" : "Call-back"} · {untilOpen(start, end, now)}
                    </span>
                  </div>
                  <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                    <dt className="text-ink-soft">Phone</dt>
                    <dd>
                      <a href={`tel:+1${item.phone}`} className="font-medium text-brand-700 underline">
                        {item.phone}
                      </a>
                    </dd>
                    <dt className="text-ink-soft">E-mail</dt>
                    <dd className="break-all">{item.email || "—"}</dd>
                    <dt className="text-ink-soft">State</dt>
                    <dd>{item.state}</dd>
                    <dt className="text-ink-soft">Their time</dt>
                    <dd>{windowText(start, end, item.timeZone)}</dd>
                    <dt className="text-ink-soft">Your time</dt>
                    <dd>{windowText(start, end)}</dd>
                    <dt className="text-ink-soft">Calling</dt>
                    <dd>
                      <CallableText callable={item.callable} />
                      <span
                        className={
                          item.windowFit === "inside" ? "block text-ink-soft" : "block font-medium text-red-900"
                        }
                      >
                        {WINDOW_FIT_LABELS[item.windowFit]}
                      </span>
                    </dd>
                    <dt className="text-ink-soft">Consent</dt>
                    <dd>
                      {item.consent.optInAt
                        ? `Opted in ${formatDayTimeIn(Date.parse(item.consent.optInAt), item.timeZone)}`
                        : "No opt-in time"}
                      {item.consent.optInUrl ? ` on ${item.consent.optInUrl}` : ""} ·{" "}
                      {CERTIFICATE_STATUS_LABELS[item.consent.certificate]}
                      <ConsentDetails consent={item.consent} />
                    </dd>
                  </dl>
                  {item.kind === "appointment" && (
                    <a href={icsPath(item.id)} download className="text-sm font-medium text-brand-700 underline">
                      Download calendar invite (.ics)
                    </a>
                  )}
                  <CallbackActions item={item} now={now} />
                </Card>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
