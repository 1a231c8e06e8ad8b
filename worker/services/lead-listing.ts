/**
 * The aged-lead marketplace list (PRODUCT.md D6, D15) and My Leads, built to stay fast at a million leads
 * (docs/decisions/0012): totals come from the per-state counts table, pages from partial indexes over
 * unsold leads, newest first, with the location filter turned into exact index keys.
 */
import { and, count, desc, eq, gt, isNotNull, isNull, lt, or } from "drizzle-orm";
import { CONSENT_CSV_HEADER, consentCsvCells, consentSummary } from "../../src/domain/consent-record";
import { csvLines } from "../../src/domain/csv-writer";
import {
  keysMatch,
  type LocationKeys,
  type LocationTerm,
  locationKeys,
  parseLocationFilter,
} from "../../src/domain/location-filter";
import { maskName, maskPhone } from "../../src/domain/masking";
import type { AgeRange } from "../../src/domain/pricing";
import {
  AGED_LEADS_PAGE_SIZE,
  type AgedLeadPage,
  MY_LEADS_EXPORT_CHUNK,
  MY_LEADS_PAGE_SIZE,
  type OwnedLead,
  type OwnedLeadPage,
} from "../../src/domain/schemas/dashboard";
import { agedLeads } from "../db/schema";
import type { Deps } from "../deps";
import { priceLead } from "./leads";

/**
 * For sale (unsold, not withheld: docs/decisions/0041), and not held by a reservation that is still running
 * (?1 = now). The running reservations are read once per query from their own small index into a set the
 * listing index is checked against, so the listing indexes need no `reserved_until` and reserving 200 leads
 * does not rewrite 600 of their entries. The predicates repeat the partial indexes' own.
 */
const FOR_SALE = "sold_at IS NULL AND withheld = 0";
const AVAILABLE = `${FOR_SALE} AND rowid NOT IN (SELECT rowid FROM aged_leads INDEXED BY aged_leads_reservations_idx
  WHERE ${FOR_SALE} AND reserved_until >= ?1)`;
/** "With certificate" (`hasConsentCertificate`, stored as `certified`), literal so the partial index applies. */
const CERTIFIED = "certified = 1";
const ORDER = "ORDER BY created_at DESC, id";

interface PreviewRow {
  id: string;
  name: string;
  phone: string;
  state: string;
  age_range: AgeRange | null;
  price_cents: number;
  form_fill_time: number | null;
  certified: number;
}

/** Leads per key: `n` in all, `c` of them with a certificate. */
interface KeyCount {
  state: string;
  areaCode: string;
  n: number;
  c: number;
}

/** Leads for sale per key (the triggers' table) and running reservations (aged_leads_reservations_idx). */
const UNSOLD_SQL =
  "SELECT state, area_code AS areaCode, unsold AS n, certified AS c FROM aged_lead_counts WHERE unsold > 0";
const HELD_BY_KEY_SQL = `SELECT state, coalesce(area_code, '') AS areaCode, count(*) AS n, sum(certified) AS c
  FROM aged_leads INDEXED BY aged_leads_reservations_idx WHERE ${FOR_SALE} AND reserved_until >= ?1
  GROUP BY state, area_code`;
const HELD_SQL = `SELECT '' AS state, '' AS areaCode, count(*) AS n, coalesce(sum(certified), 0) AS c
  FROM aged_leads INDEXED BY aged_leads_reservations_idx WHERE ${FOR_SALE} AND reserved_until >= ?1`;

/**
 * The counts read last in this isolate: a hint to plan the page query before this request's counts
 * arrive, so counts and page go to D1 in one batch. The hint never decides the answer: a plan whose keys
 * turn out different from the fresh counts' is run again.
 */
let lastUnsold: KeyCount[] = [];

/**
 * The filter's keys and the available leads of the listed population (every lead, or only those with a
 * certificate): in total (`available`), among the keys (`matched`), and every lead among the keys
 * (`matchedAll`, what a walk down the key indexes passes over).
 */
function tally(
  terms: readonly LocationTerm[],
  unsold: readonly KeyCount[],
  held: readonly KeyCount[],
  certifiedOnly: boolean,
) {
  const keys = locationKeys(
    terms,
    unsold.map((row) => row.state),
  );
  const heldBy = new Map(held.map((row) => [`${row.state}\n${row.areaCode}`, row]));
  let available = 0;
  let matched = 0;
  let matchedAll = 0;
  for (const row of unsold) {
    const heldRow = keys.all ? undefined : heldBy.get(`${row.state}\n${row.areaCode}`);
    const n = row.n - (heldRow?.n ?? 0);
    const listed = certifiedOnly ? row.c - (heldRow?.c ?? 0) : n;
    available += listed;
    if (keys.all || keysMatch(keys, row)) {
      matched += listed;
      matchedAll += n;
    }
  }
  if (keys.all) {
    // Without a filter the running reservations are one total (HELD_SQL), not per key.
    const heldTotal = held.reduce((total, row) => total + (certifiedOnly ? row.c : row.n), 0);
    const heldAll = held.reduce((total, row) => total + row.n, 0);
    return { keys, available: available - heldTotal, matched: matched - heldTotal, matchedAll: matchedAll - heldAll };
  }
  return { keys, available, matched, matchedAll };
}

type Plan = ReturnType<typeof tally>;

const sameKeys = (a: LocationKeys, b: LocationKeys) =>
  a.all || b.all ? a.all === b.all : [...a.states].sort().join("\n") === [...b.states].sort().join("\n");

/**
 * The rowids of one page, newest first, and their parameters (?1 now, ?2 offset, then the key lists: at
 * most 4). Raw SQL: drizzle cannot say INDEXED BY, which pins each shape to the index it was measured
 * with (decision 0012 shows the plans). "With certificate" walks its own partial index, or tests
 * `certified` inside the key indexes (decision 0041).
 */
function pageRowids(plan: Plan, certifiedOnly: boolean, now: number, offset: number) {
  const { keys, available, matchedAll } = plan;
  const walkIndex = certifiedOnly ? "aged_leads_certified_listing_idx" : "aged_leads_listing_idx";
  const certified = certifiedOnly ? ` AND ${CERTIFIED}` : "";
  const params: (string | number)[] = [now, offset];
  // One key list: `= ?n` for a single value (one ordered index range), else a JSON list.
  const oneOf = (column: string, values: readonly string[]) => {
    params.push(values.length === 1 ? (values[0] ?? "") : JSON.stringify(values));
    const n = params.length;
    return values.length === 1 ? `${column} = ?${n}` : `${column} IN (SELECT value FROM json_each(?${n}))`;
  };
  const page = `${ORDER} LIMIT ${AGED_LEADS_PAGE_SIZE} OFFSET ?2`;
  if (keys.all) {
    return {
      sql: `SELECT rowid FROM aged_leads INDEXED BY ${walkIndex} WHERE ${AVAILABLE}${certified} ${page}`,
      params,
    };
  }
  const { states, areaCodes } = keys;
  const stateIn = states.length > 0 ? oneOf("state", states) : null;
  const areaIn = areaCodes.length > 0 ? oneOf("area_code", areaCodes) : null;
  // Walking the keys' indexes costs about (offset + page) × matchedAll / matched entries per key, plus a
  // merge; walking the newest-first index of the population costs (offset + page) × available / matched.
  // Pick the cheaper one (without the certificate filter matchedAll = matched, decision 0012's rule).
  if ((states.length + areaCodes.length) * matchedAll > available) {
    const filter = [stateIn, areaIn].filter(Boolean).join(" OR ");
    return {
      sql: `SELECT rowid FROM aged_leads INDEXED BY ${walkIndex} WHERE ${AVAILABLE}${certified} AND (${filter}) ${page}`,
      params,
    };
  }
  const branches: string[] = [];
  if (stateIn) {
    branches.push(
      `SELECT rowid, created_at, id FROM aged_leads INDEXED BY aged_leads_state_listing_idx
       WHERE ${AVAILABLE}${certified} AND ${stateIn}`,
    );
  }
  if (areaIn) {
    // A lead of a selected state is already in the first branch.
    branches.push(
      `SELECT rowid, created_at, id FROM aged_leads INDEXED BY aged_leads_area_listing_idx
       WHERE ${AVAILABLE}${certified} AND ${areaIn}${stateIn ? ` AND NOT (${stateIn})` : ""}`,
    );
  }
  return { sql: `SELECT rowid FROM (${branches.join(" UNION ALL ")} ${page})`, params };
}

/** The marketplace list; `certifiedOnly` lists only leads with a consent certificate (decision 0041). */
export async function listAvailableLeads(
  deps: Deps,
  page: number,
  location: string | undefined,
  certifiedOnly = false,
): Promise<AgedLeadPage> {
  const { now } = deps;
  const d1 = deps.env.DB; // raw D1: the measured listing path (decision 0012), see the batch below
  const offset = (page - 1) * AGED_LEADS_PAGE_SIZE;
  const terms = parseLocationFilter(location);
  const pageQuery = (plan: Plan) => {
    const rowids = pageRowids(plan, certifiedOnly, now, offset);
    return d1
      .prepare(
        `SELECT id, name, phone, state, age_range, price_cents, form_fill_time, certified FROM aged_leads
         WHERE rowid IN (${rowids.sql}) ${ORDER}`,
      )
      .bind(...rowids.params);
  };
  // Raw D1 batch (one transaction, one round trip): the page query needs INDEXED BY, which drizzle lacks.
  const planned = tally(terms, lastUnsold, [], certifiedOnly);
  const withPage = planned.matched > offset;
  const [unsold, held, listed] = await d1.batch<KeyCount | PreviewRow>([
    d1.prepare(UNSOLD_SQL),
    d1.prepare(planned.keys.all ? HELD_SQL : HELD_BY_KEY_SQL).bind(now),
    ...(withPage ? [pageQuery(planned)] : []),
  ]);
  lastUnsold = (unsold?.results ?? []) as KeyCount[];
  const fresh = tally(terms, lastUnsold, (held?.results ?? []) as KeyCount[], certifiedOnly);
  const { matched } = fresh;
  let rows = (listed?.results ?? []) as PreviewRow[];
  if (matched > offset && !(withPage && sameKeys(planned.keys, fresh.keys))) {
    rows = (await pageQuery(fresh).all<PreviewRow>()).results;
  }
  return {
    items: rows.map((row) => {
      const priced = priceLead(row, now);
      return {
        id: row.id,
        name: maskName(row.name),
        phone: maskPhone(row.phone),
        state: row.state,
        currentAgeRange: priced.ageRange,
        actualAge: priced.ageDays,
        // D15: the day only before purchase.
        formFillTime: row.form_fill_time === null ? null : new Date(row.form_fill_time).toISOString().slice(0, 10),
        // Spec-fixed names (aged-lead list item): dollars; `priceCents` beside them.
        currentPrice: priced.priceCents / 100,
        price: priced.priceCents / 100,
        priceCents: priced.priceCents,
        // Before purchase only whether a certificate exists, never its URL (D22).
        certified: row.certified === 1,
      };
    }),
    total: matched,
    page,
    pageSize: AGED_LEADS_PAGE_SIZE,
    pageCount: Math.max(1, Math.ceil(matched / AGED_LEADS_PAGE_SIZE)),
  };
}

const owned = {
  id: agedLeads.id,
  name: agedLeads.name,
  email: agedLeads.email,
  phone: agedLeads.phone,
  state: agedLeads.state,
  formFillTime: agedLeads.formFillTime,
  soldAt: agedLeads.soldAt,
  orderId: agedLeads.soldOrderId,
  optInAt: agedLeads.optInAt,
  optInUrl: agedLeads.optInUrl,
  consentText: agedLeads.consentText,
  ipAddress: agedLeads.ipAddress,
  trustedFormUrl: agedLeads.trustedFormUrl,
  jornayaLeadId: agedLeads.jornayaLeadId,
  certified: agedLeads.certified,
};
type OwnedRow = { [K in keyof typeof owned]: (typeof owned)[K]["_"]["data"] | null };

const toOwnedLead = (row: OwnedRow): OwnedLead => ({
  id: row.id ?? "",
  name: row.name ?? "",
  email: row.email,
  phone: row.phone ?? "",
  state: row.state ?? "",
  formFillTime: row.formFillTime?.toISOString() ?? null,
  purchasedAt: (row.soldAt ?? new Date(0)).toISOString(),
  orderId: row.orderId ?? "",
  consent: consentSummary(row, row.certified === true),
});

/** The consent cells of an owned lead's CSV row: everything stored, certificates included (D22). */
const consentCells = (row: OwnedRow) =>
  consentCsvCells({ ...row, optInAt: row.optInAt?.getTime() ?? null }, row.certified === true);

/** Leads the buyer bought and kept: an approved return (issue 16) or a full refund takes a lead out of My Leads. */
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
  return {
    items: rows.map(toOwnedLead),
    total,
    page,
    pageSize: MY_LEADS_PAGE_SIZE,
    pageCount: Math.max(1, Math.ceil(total / MY_LEADS_PAGE_SIZE)),
  };
}

/** Every lead the buyer owns, read in chunks after the last (soldAt, id) seen: one query per chunk. */
export async function* ownedLeadChunks(deps: Deps, userId: string): AsyncGenerator<OwnedRow[]> {
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

export const MY_LEADS_CSV_HEADER = [
  "Name",
  "Phone",
  "Email",
  "State",
  "Form fill time",
  "Purchased at",
  "Order",
  ...CONSENT_CSV_HEADER,
];

/** The My Leads CSV as a stream: each chunk is read from D1 only when the client is ready for it. */
export function myLeadsCsv(deps: Deps, userId: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const chunks = ownedLeadChunks(deps, userId);
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
        const lead = toOwnedLead(row);
        return [
          ...[lead.name, lead.phone, lead.email, lead.state, lead.formFillTime, lead.purchasedAt, lead.orderId].map(
            (value) => value ?? "",
          ),
          ...consentCells(row),
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
