/**
 * The "Consent record" of a lead or transfer a buyer bought (product rule 39, decision 0041):
 * every piece of consent evidence stored with it, its certificates and whether they can be claimed here,
 * and the suppression lists it was checked against before the sale or the routing. Only the buyer's own
 * leads and transfers: anything else is 404.
 */
import { and, eq, isNotNull } from "drizzle-orm";
import {
  CONTACT_SHOWN_STATUSES,
  maskLastName,
  maskPhone,
  type TrackerTransferStatus,
} from "../../../src/domain/masking";
import {
  type CertificateCheck,
  certificateStatus,
  consentCertificates,
  hasConsentCertificate,
} from "../../../src/features/consent/consent";
import {
  type ConsentRecord,
  type ConsentSummary,
  consentSummary,
  type StoredConsent,
  type SuppressionCheckView,
} from "../../../src/features/consent/consent-record";
import type { SuppressionCheckSubject } from "../../../src/features/do-not-call/index";
import { agedLeads, suppressionChecks, transfers } from "../../db/schema";
import type { Deps } from "../../deps";
import { NotFoundError } from "../../errors";
import { checkLeadCertificates } from "./certificate-checks";
import {
  type ConsentCertificateClaimer,
  claimerFor,
  NOT_CONFIGURED_MESSAGES,
  notConfiguredClaimer,
} from "./consent-certificates";

/** What a suppression check is about: an order's aged leads, or a routed transfer (decision 0042). */
type CheckSubject = { type: SuppressionCheckSubject; id: string };

/**
 * The lists a sale (its order) or a routed transfer was checked against, as recorded with it
 * (`suppression_checks`: each list's kind, name and refreshed-on day at the time). Null when nothing was
 * recorded: the view then says "No suppression check recorded".
 */
async function suppressionChecksOf(deps: Deps, subject: CheckSubject): Promise<SuppressionCheckView[] | null> {
  const rows = await deps.db
    .select({
      listName: suppressionChecks.listName,
      kind: suppressionChecks.listKind,
      refreshedOn: suppressionChecks.refreshedOn,
      checkedAt: suppressionChecks.checkedAt,
    })
    .from(suppressionChecks)
    .where(and(eq(suppressionChecks.subjectType, subject.type), eq(suppressionChecks.subjectId, subject.id)))
    .orderBy(suppressionChecks.listKind, suppressionChecks.listName, suppressionChecks.listId);
  if (rows.length === 0) return null;
  return rows.map((row) => ({ ...row, checkedAt: row.checkedAt.getTime() }));
}

/** The certificates a record shows, each with what claiming it can do here. */
function certificatesOf(evidence: StoredConsent, claimer: ConsentCertificateClaimer) {
  return consentCertificates(evidence).map((certificate) => ({
    provider: certificate.provider,
    value: certificate.provider === "trustedform" ? certificate.url : certificate.token,
    claimNote: claimer.configured(certificate.provider) ? null : NOT_CONFIGURED_MESSAGES[certificate.provider],
  }));
}

const evidenceColumns = <T extends typeof agedLeads | typeof transfers>(table: T) => ({
  optInAt: table.optInAt,
  optInUrl: table.optInUrl,
  consentText: table.consentText,
  ipAddress: table.ipAddress,
  trustedFormUrl: table.trustedFormUrl,
  jornayaLeadId: table.jornayaLeadId,
});

/** An aged lead's stored consent columns, its certificate check included: what `purchasedLeadConsent` reads. */
export const leadConsentColumns = { ...evidenceColumns(agedLeads), certificateCheck: agedLeads.certificateCheck };

/**
 * The one builder of a bought lead's consent object (docs/decisions/0054): My Leads' rows, its CSV and the
 * `lead.purchased` webhook all read it, so they say the same. The certificate counts only when it is on
 * file and no placeholder (`hasConsentCertificate`), and is verified only by a stored claim.
 */
export function purchasedLeadConsent(
  row: { optInAt: Date | null; certificateCheck: CertificateCheck | null } & Omit<StoredConsent, "optInAt">,
): ConsentSummary {
  return consentSummary(row, certificateStatus(hasConsentCertificate(row), row.certificateCheck));
}

const stored = (row: { optInAt: Date | null } & Omit<StoredConsent, "optInAt">): StoredConsent => ({
  optInAt: row.optInAt?.getTime() ?? null,
  optInUrl: row.optInUrl,
  consentText: row.consentText,
  ipAddress: row.ipAddress,
  trustedFormUrl: row.trustedFormUrl,
  jornayaLeadId: row.jornayaLeadId,
});

/** The consent record of an aged lead sold to `userId` (returned or refunded ones too: a dispute may need it). */
export async function leadConsentRecord(
  deps: Deps,
  userId: string,
  leadId: string,
  claimer: ConsentCertificateClaimer = claimerFor(deps.env),
): Promise<ConsentRecord> {
  const [row] = await deps.db
    .select({
      id: agedLeads.id,
      name: agedLeads.name,
      email: agedLeads.email,
      phone: agedLeads.phone,
      state: agedLeads.state,
      orderId: agedLeads.soldOrderId,
      soldAt: agedLeads.soldAt,
      ...leadConsentColumns,
    })
    .from(agedLeads)
    .where(and(eq(agedLeads.id, leadId), eq(agedLeads.soldToUserId, userId), isNotNull(agedLeads.soldAt)));
  if (!row) throw new NotFoundError("No such lead among yours.");
  const evidence = stored(row);
  // The first view after the sale claims the certificate when a provider is set up (certificate-checks.ts).
  const checks = await checkLeadCertificates(deps, [row], claimer);
  const orderId = row.orderId ?? "";
  return {
    kind: "aged_lead",
    id: row.id,
    orderId,
    name: row.name,
    phone: row.phone,
    state: row.state,
    deliveredAt: row.soldAt?.getTime() ?? 0,
    evidence,
    certificate: certificateStatus(hasConsentCertificate(evidence), checks.get(row.id) ?? null),
    evidenceShown: true,
    certificates: certificatesOf(evidence, claimer),
    suppressionChecks: await suppressionChecksOf(deps, { type: "order", id: orderId }),
  };
}

/**
 * The consent record of a transfer routed to `userId`. Until the call connects (a paid-for prospect) the
 * name and phone are masked as in the Lead Tracker, and so are the IP address and the certificates: the
 * record then says only whether a certificate exists.
 */
export async function transferConsentRecord(
  deps: Deps,
  userId: string,
  transferId: string,
  claimer: ConsentCertificateClaimer = notConfiguredClaimer,
): Promise<ConsentRecord> {
  const [row] = await deps.db
    .select({
      id: transfers.id,
      orderId: transfers.orderId,
      firstName: transfers.firstName,
      lastName: transfers.lastName,
      phone: transfers.phone,
      state: transfers.state,
      status: transfers.status,
      routedAt: transfers.routedAt,
      ...evidenceColumns(transfers),
    })
    .from(transfers)
    .where(and(eq(transfers.id, transferId), eq(transfers.buyerUserId, userId)));
  if (!row) throw new NotFoundError("No such transfer among yours.");
  const shown = CONTACT_SHOWN_STATUSES.includes(row.status as TrackerTransferStatus);
  const all = stored(row);
  const evidence = shown ? all : { ...all, ipAddress: null, trustedFormUrl: null, jornayaLeadId: null };
  return {
    kind: "transfer",
    id: row.id,
    orderId: row.orderId,
    name: `${row.firstName} ${shown ? row.lastName : maskLastName(row.lastName)}`,
    phone: shown ? row.phone : maskPhone(row.phone),
    state: row.state,
    deliveredAt: row.routedAt.getTime(),
    evidence,
    // Transfers' certificates are not claimed: on file at most (docs/decisions/0054).
    certificate: certificateStatus(hasConsentCertificate(all), null),
    evidenceShown: shown,
    certificates: certificatesOf(evidence, claimer),
    suppressionChecks: await suppressionChecksOf(deps, { type: "transfer", id: row.id }),
  };
}
