/**
 * A Consent record's evidence list (product rule 39), one rendering for the buyer's record of a lead or
 * transfer (src/features/consent/views/ConsentRecord.tsx) and the admin's of a call-back
 * (src/features/callbacks/views/CallbackConsentRecord.tsx): opt-in time and page, consent text, IP address,
 * the certificate's status and each certificate, with the record rows both dialogs are built of.
 */
import type { ReactNode } from "react";
import { formatExactUtc } from "../../../domain/format";
import { CERTIFICATE_STATUS_LABELS, type CertificateStatus, CONSENT_FIELD_LABELS } from "../consent";

/** Evidence times to the second, in UTC: the same instant the certificate and the CSV name. */
export const formatUtc = (time: number | string) => `${formatExactUtc(time)} UTC`;

export const linkClass = "text-brand-700 underline";

/** One labelled row of a record. */
export function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 border-t border-line py-2 sm:grid-cols-[14rem_1fr] sm:gap-4">
      <dt className="font-medium text-ink-soft">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

export const notGiven = <span className="text-ink-soft">Not given</span>;

/** A TrustedForm certificate or a Jornaya LeadiD; a null value reads "Not given". */
interface EvidenceCertificate {
  provider: "trustedform" | "jornaya";
  value: string | null;
  claimNote?: string | null;
}

export function EvidenceList({
  evidence,
  ipAddressMissing = notGiven,
  certificate,
  certificateNote,
  certificates,
}: {
  evidence: {
    optInAt: number | string | null;
    optInUrl: string | null;
    consentText: string | null;
    ipAddress: string | null;
  };
  /** What an absent IP address reads (a buyer's masked transfer says when it shows). */
  ipAddressMissing?: ReactNode;
  certificate: CertificateStatus;
  /** Said after the certificate's status (a masked one: when it shows). */
  certificateNote?: ReactNode;
  certificates: readonly EvidenceCertificate[];
}) {
  return (
    <dl className="mt-2">
      <Row label={CONSENT_FIELD_LABELS.optInAt}>{evidence.optInAt ? formatUtc(evidence.optInAt) : notGiven}</Row>
      <Row label={CONSENT_FIELD_LABELS.optInUrl}>
        {evidence.optInUrl ? (
          <a className={linkClass} href={evidence.optInUrl} target="_blank" rel="noopener noreferrer nofollow">
            {evidence.optInUrl}
          </a>
        ) : (
          notGiven
        )}
      </Row>
      <Row label={CONSENT_FIELD_LABELS.consentText}>
        {evidence.consentText ? <q className="whitespace-pre-wrap">{evidence.consentText}</q> : notGiven}
      </Row>
      <Row label={CONSENT_FIELD_LABELS.ipAddress}>
        {evidence.ipAddress ? <code>{evidence.ipAddress}</code> : ipAddressMissing}
      </Row>
      <Row label="Certificate">
        {CERTIFICATE_STATUS_LABELS[certificate]}
        {certificateNote}
      </Row>
      {certificates.map((item) => (
        <Row
          key={item.provider}
          label={CONSENT_FIELD_LABELS[item.provider === "trustedform" ? "trustedFormUrl" : "jornayaLeadId"]}
        >
          {item.value === null ? (
            notGiven
          ) : item.provider === "trustedform" ? (
            <a className={linkClass} href={item.value} target="_blank" rel="noopener noreferrer">
              {item.value}
            </a>
          ) : (
            <code>{item.value}</code>
          )}
          {item.claimNote && <span className="mt-1 block text-xs text-ink-soft">{item.claimNote}</span>}
        </Row>
      ))}
    </dl>
  );
}
