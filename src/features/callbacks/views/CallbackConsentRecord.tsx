/**
 * "Consent record" on the admin's Callbacks rows (docs/decisions/0063): the whole record of one call-back
 * or appointment in a dialog, as a buyer's Consent record shows a lead's (src/features/consent/views/ConsentRecord.tsx):
 * the prospect, source, window and order, and every piece of consent evidence stored. The record loads
 * when the dialog opens.
 */

import { useQuery } from "@tanstack/react-query";
import { api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { Dialog } from "../../../ui/dialog";
import { Spinner } from "../../../ui/spinner";
import { EvidenceList, formatUtc, notGiven, Row } from "../../consent/views/index";

const SOURCE_LABELS: Record<string, string> = { admin: "Admin form", import: "CSV upload", partner: "Partner API" };
/** Intake's scrub (docs/decisions/0058): a listed number is refused, so a stored call-back passed it. */
const SCRUB_NOTE =
  "Checked against the shared Do Not Call lists when it was taken in (a listed number is refused); no per-list record is kept for call-backs.";

function RecordView({ id }: { id: string }) {
  const record = useQuery({
    queryKey: ["callback-consent", id],
    queryFn: () => call(api.admin["callback-opportunities"][":id"].consent.$get({ param: { id } })),
  });
  if (record.isPending) return <Spinner label="Loading the consent record..." />;
  if (record.isError)
    return (
      <p role="alert">{errorMessage(record.error, "The consent record could not be loaded. Please try again.")}</p>
    );
  const item = record.data;
  const { consent } = item;
  return (
    <div className="space-y-6 text-sm" data-testid="callback-consent-record">
      <section aria-labelledby="callback-consent-what">
        <h3 id="callback-consent-what" className="font-semibold">
          {item.kind === "appointment" ? "Appointment" : "Call-back"}
        </h3>
        <dl className="mt-2">
          <Row label="Prospect">
            {item.name} · {item.phone} · {item.state}
            {item.zip ? ` ${item.zip}` : ""}
            {item.email ? ` · ${item.email}` : ""}
          </Row>
          <Row label="Source">{SOURCE_LABELS[item.source] ?? item.source}</Row>
          <Row label="Taken in">{formatUtc(item.createdAt)}</Row>
          <Row label="Window (UTC)">
            {item.windowStart && item.windowEnd
              ? `${formatUtc(item.windowStart)} – ${formatUtc(item.windowEnd)} (prospect's zone ${item.timeZone})`
              : notGiven}
          </Row>
          <Row label="Order">
            {item.orderId && item.deliveredAt
              ? `${item.orderId} · delivered ${formatUtc(item.deliveredAt)}`
              : "Waiting"}
          </Row>
        </dl>
      </section>
      <section aria-labelledby="callback-consent-evidence">
        <h3 id="callback-consent-evidence" className="font-semibold">
          Consent evidence
        </h3>
        <EvidenceList
          evidence={consent}
          certificate={consent.certificate}
          certificates={[
            { provider: "trustedform", value: consent.trustedFormUrl },
            { provider: "jornaya", value: consent.jornayaLeadId },
          ]}
        />
      </section>
      <section aria-labelledby="callback-consent-checks">
        <h3 id="callback-consent-checks" className="font-semibold">
          Suppression
        </h3>
        <p className="mt-2 text-ink-soft">{SCRUB_NOTE}</p>
      </section>
    </div>
  );
}

/**
 * The dialog of one call-back's record, open while mounted; `onClose` unmounts it. Its own chunk, loaded
 * the first time an admin opens a record (./CallbacksTab.tsx), so the tab's first load does not carry it.
 */
export default function CallbackConsentDialog({
  id,
  label,
  onClose,
}: {
  id: string;
  label: string;
  onClose: () => void;
}) {
  return (
    <Dialog open onOpenChange={(next) => !next && onClose()} title={`Consent record: ${label}`} size="xl">
      <RecordView id={id} />
      <div className="mt-6 flex justify-end">
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </div>
    </Dialog>
  );
}
