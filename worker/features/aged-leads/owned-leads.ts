/**
 * My Leads (product rule 12): the leads a buyer bought and kept, a page at a time, and their CSV streamed
 * in chunks; each with its consent evidence (decision 0041) and a flag when its number reached a Do Not
 * Call list after the purchase (decision 0042).
 */
import { and, count, desc, eq, gt, isNotNull, isNull, lt, or } from "drizzle-orm";
import type { Callable } from "../../../src/domain/callable";
import { csvLines } from "../../../src/domain/csv-writer";
import {
  MY_LEADS_EXPORT_CHUNK,
  MY_LEADS_PAGE_SIZE,
  type OwnedLead,
  type OwnedLeadPage,
} from "../../../src/domain/schemas/dashboard";
import { CONSENT_CSV_HEADER, consentCsvCells } from "../../../src/features/consent/index";
import { agedLeads } from "../../db/schema";
import type { Deps } from "../../deps";
import { leadConsentColumns, purchasedLeadConsent } from "../consent/index";
import { suppressedAfterPurchase } from "../do-not-call/index";
import { callableMemo } from "../transfers/index";

const owned = {
  id: agedLeads.id,
  name: agedLeads.name,
  email: agedLeads.email,
  phone: agedLeads.phone,
  state: agedLeads.state,
  formFillTime: agedLeads.formFillTime,
  soldAt: agedLeads.soldAt,
  orderId: agedLeads.soldOrderId,
  ...leadConsentColumns,
};
type OwnedRow = { [K in keyof typeof owned]: (typeof owned)[K]["_"]["data"] | null };

type CallableOf = (place: { state: string; phone: string }) => Callable;

const toOwnedLead = (row: OwnedRow, callable: CallableOf): OwnedLead => ({
  id: row.id ?? "",
  name: row.name ?? "",
  email: row.email,
  phone: row.phone ?? "",
  state: row.state ?? "",
  formFillTime: row.formFillTime?.toISOString() ?? null,
  purchasedAt: (row.soldAt ?? new Date(0)).toISOString(),
  orderId: row.orderId ?? "",
  consent: purchasedLeadConsent(row),
  suppressedOn: null,
  // When the buyer may call it, at the request's clock (docs/decisions/0070).
  callable: callable({ state: row.state ?? "", phone: row.phone ?? "" }),
});

/** Leads the buyer bought and kept: an approved return or a full refund takes a lead out of My Leads. */
const boughtBy = (userId: string) =>
  and(
    eq(agedLeads.soldToUserId, userId),
    isNotNull(agedLeads.soldAt),
    isNull(agedLeads.returnedAt),
    isNull(agedLeads.refundedAt),
  );

/** My Leads, newest purchase first, one page at a time (aged_leads_sold_to_idx). */
export async function listOwnedLeads(deps: Deps, userId: string, page: number): Promise<OwnedLeadPage> {
  const { db } = deps;
  const [[counted], rows] = await db.batch([
    db.select({ total: count() }).from(agedLeads).where(boughtBy(userId)),
    db
      .select(owned)
      .from(agedLeads)
      .where(boughtBy(userId))
      .orderBy(desc(agedLeads.soldAt), agedLeads.id)
      .limit(MY_LEADS_PAGE_SIZE)
      .offset((page - 1) * MY_LEADS_PAGE_SIZE),
  ]);
  const total = counted?.total ?? 0;
  const callable = callableMemo(deps.now);
  const items = rows.map((row) => toOwnedLead(row, callable));
  // Numbers added to a Do Not Call list since they were bought: flagged, so the buyer stops calling.
  const flags = await suppressedAfterPurchase(
    deps,
    userId,
    items.map((lead) => ({ phone: lead.phone, purchasedAt: Date.parse(lead.purchasedAt) })),
  );
  return {
    items: items.map((lead) => ({ ...lead, suppressedOn: flags.get(lead.phone) ?? null })),
    total,
    page,
    pageSize: MY_LEADS_PAGE_SIZE,
    pageCount: Math.max(1, Math.ceil(total / MY_LEADS_PAGE_SIZE)),
  };
}

/** Every lead the buyer owns, read in chunks after the last (soldAt, id) seen: one query per chunk. */
async function* ownedLeadChunks(deps: Deps, userId: string): AsyncGenerator<OwnedRow[]> {
  const { db } = deps;
  let after: { soldAt: Date; id: string } | null = null;
  while (true) {
    const rows: OwnedRow[] = await db
      .select(owned)
      .from(agedLeads)
      .where(
        and(
          boughtBy(userId),
          after
            ? or(
                lt(agedLeads.soldAt, after.soldAt),
                and(eq(agedLeads.soldAt, after.soldAt), gt(agedLeads.id, after.id)),
              )
            : undefined,
        ),
      )
      .orderBy(desc(agedLeads.soldAt), agedLeads.id)
      .limit(MY_LEADS_EXPORT_CHUNK);
    if (rows.length > 0) yield rows;
    const last = rows.at(-1);
    if (rows.length < MY_LEADS_EXPORT_CHUNK || !last?.soldAt || !last.id) return;
    after = { soldAt: last.soldAt, id: last.id };
  }
}

const MY_LEADS_CSV_HEADER = [
  "Name",
  "Phone",
  "Email",
  "State",
  "Form fill time",
  "Purchased at",
  "Order",
  "Time zone",
  "Callable",
  ...CONSENT_CSV_HEADER,
];

/** The My Leads CSV as a stream: each chunk is read from D1 only when the client is ready for it. */
export function myLeadsCsv(deps: Deps, userId: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const chunks = ownedLeadChunks(deps, userId);
  const callable = callableMemo(deps.now);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvLines([MY_LEADS_CSV_HEADER])));
    },
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) {
        controller.close();
        return;
      }
      const rows = next.value.map((row) => {
        const lead = toOwnedLead(row, callable);
        return [
          ...[lead.name, lead.phone, lead.email, lead.state, lead.formFillTime, lead.purchasedAt, lead.orderId].map(
            (value) => value ?? "",
          ),
          lead.callable.timeZone,
          lead.callable.label,
          // The same consent object as the row and the webhook (docs/decisions/0054).
          ...consentCsvCells(lead.consent),
        ];
      });
      // Every cell quoted (the writer escapes formulae).
      controller.enqueue(encoder.encode(`\r\n${csvLines(rows, true)}`));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
