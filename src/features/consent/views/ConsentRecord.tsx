/**
 * Consent evidence for buyers (product rule 39): the short summary a My Leads or Lead Tracker row
 * shows, and the "Consent record" of one lead or transfer, opened from the row, with everything stored
 * and the suppression lists it was checked against before the sale.
 */

import { useQuery } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { Dialog } from "../../../ui/dialog";
import { Spinner } from "../../../ui/spinner";
import { SUPPRESSION_LIST_KIND_LABELS, type SuppressionListKind } from "../../do-not-call/index";
import { CERTIFICATE_STATUS_LABELS } from "../consent";
import { type ConsentRecord, type ConsentSummary, EVIDENCE_MASKED, NO_SUPPRESSION_CHECK } from "../consent-record";
import { EvidenceList, formatUtc, linkClass, Row } from "./consent-evidence";

export type ConsentSubject = { kind: "aged_lead" | "transfer"; id: string; label: string };

/** A list row's consent: opt-in time and page, the certificates (or whether one exists), and the record. */
export function ConsentSummaryCell({ consent, subject }: { consent: ConsentSummary; subject: ConsentSubject }) {
  const nothing = !consent.optInAt && !consent.optInUrl && consent.certificate === "none";
  return (
    // `relative`: the sr-only labels are positioned inside the table's scroll box, not past the page's edge.
    <div className="relative space-y-1 text-xs whitespace-normal" data-testid="consent-summary">
      {nothing ? (
        <p className="text-ink-soft">No consent evidence</p>
      ) : (
        <>
          {consent.optInAt && <p>Opted in {formatUtc(consent.optInAt)}</p>}
          <p className="flex flex-wrap gap-x-3">
            {consent.optInUrl && (
              <a className={linkClass} href={consent.optInUrl} target="_blank" rel="noopener noreferrer nofollow">
                Opt-in page<span className="sr-only"> of {subject.label}</span>
              </a>
            )}
            {consent.trustedFormUrl ? (
              <a className={linkClass} href={consent.trustedFormUrl} target="_blank" rel="noopener noreferrer">
                TrustedForm certificate<span className="sr-only"> of {subject.label}</span>
              </a>
            ) : consent.jornayaLeadId ? (
              <span>Jornaya LeadiD</span>
            ) : null}
            <span className="text-ink-soft">{CERTIFICATE_STATUS_LABELS[consent.certificate]}</span>
          </p>
        </>
      )}
      <ConsentRecordButton subject={subject} />
    </div>
  );
}

/** "Consent record": opens the whole record of the lead or transfer in a dialog. */
function ConsentRecordButton({ subject }: { subject: ConsentSubject }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const change = (next: boolean) => {
    setOpen(next);
    // Radix returns focus to a Dialog.Trigger only; this dialog opens from a row, so focus goes back to it.
    if (!next) setTimeout(() => button.current?.focus(), 0);
  };
  return (
    <>
      <button ref={button} type="button" className={`${linkClass} font-medium`} onClick={() => setOpen(true)}>
        Consent record<span className="sr-only"> of {subject.label}</span>
      </button>
      <Dialog open={open} onOpenChange={change} title={`Consent record: ${subject.label}`} size="xl">
        {open && <ConsentRecordView subject={subject} />}
        <div className="mt-6 flex justify-end">
          <Button variant="secondary" onClick={() => change(false)}>
            Close
          </Button>
        </div>
      </Dialog>
    </>
  );
}

const fetchRecord = ({ kind, id }: ConsentSubject): Promise<ConsentRecord> =>
  kind === "aged_lead"
    ? call(api["my-leads"][":id"].consent.$get({ param: { id: encodeURIComponent(id) } }))
    : call(api.tracker.transfers[":id"].consent.$get({ param: { id: encodeURIComponent(id) } }));

function ConsentRecordView({ subject }: { subject: ConsentSubject }) {
  const record = useQuery({
    queryKey: ["consent-record", subject.kind, subject.id],
    queryFn: () => fetchRecord(subject),
  });
  if (record.isPending) return <Spinner label="Loading the consent record..." />;
  if (record.isError) {
    return (
      <p role="alert">{errorMessage(record.error, "The consent record could not be loaded. Please try again.")}</p>
    );
  }
  return <RecordBody record={record.data} />;
}

function RecordBody({ record }: { record: ConsentRecord }) {
  const { evidence } = record;
  const masked = <span className="text-ink-soft">Shown once the call connects</span>;
  return (
    <div className="space-y-6 text-sm" data-testid="consent-record">
      <section aria-labelledby="consent-what">
        <h3 id="consent-what" className="font-semibold">
          {record.kind === "aged_lead" ? "Aged lead" : "Live transfer"}
        </h3>
        <dl className="mt-2">
          <Row label="Prospect">
            {record.name} · {record.phone} · {record.state}
          </Row>
          <Row label={record.kind === "aged_lead" ? "Bought" : "Routed to you"}>{formatUtc(record.deliveredAt)}</Row>
          <Row label="Order">{record.orderId}</Row>
        </dl>
      </section>

      <section aria-labelledby="consent-evidence">
        <h3 id="consent-evidence" className="font-semibold">
          Consent evidence
        </h3>
        {!record.evidenceShown && <p className="mt-1 text-ink-soft">{EVIDENCE_MASKED}</p>}
        <EvidenceList
          evidence={evidence}
          ipAddressMissing={record.evidenceShown ? undefined : masked}
          certificate={record.certificate}
          certificateNote={
            record.certificates.length === 0 &&
            record.certificate !== "none" &&
            !record.evidenceShown && <> · {masked}</>
          }
          certificates={record.certificates}
        />
      </section>

      <section aria-labelledby="consent-checks">
        <h3 id="consent-checks" className="font-semibold">
          Suppression lists checked before the {record.kind === "aged_lead" ? "sale" : "transfer"}
        </h3>
        {record.suppressionChecks === null ? (
          <p className="mt-2 text-ink-soft" data-testid="no-suppression-check">
            {NO_SUPPRESSION_CHECK}.
          </p>
        ) : (
          <ul className="mt-2 divide-y divide-line rounded-lg border border-line">
            {record.suppressionChecks.map((check) => (
              <li key={`${check.listName}-${check.kind}`} className="px-3 py-2">
                <span className="font-medium">{check.listName}</span>
                {check.kind && (
                  <span className="text-ink-soft">
                    {" "}
                    · {SUPPRESSION_LIST_KIND_LABELS[check.kind as SuppressionListKind] ?? check.kind}
                  </span>
                )}
                <span className="block text-xs text-ink-soft">
                  Refreshed on {check.refreshedOn ?? "an unknown day"} · checked {formatUtc(check.checkedAt)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
