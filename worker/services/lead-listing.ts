/**
 * The aged-lead marketplace list (PRODUCT.md D6, D15) and My Leads, built to stay fast at a million leads
 * (docs/decisions/0012): totals come from the per-state counts table, pages from partial indexes over
 * unsold leads, newest first, with the location filter turned into exact index keys.
 */
import { and, count, desc, eq, gt, isNotNull, isNull, lt, or } from "drizzle-orm";
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
import { database } from "../db/client";
import { agedLeads } from "../db/schema";
import { priceLead } from "./leads";
import { suppressedAfterPurchase } from "./suppression-checks";

/**
 * Listed (unsold, not suppressed: the listing indexes' predicate), not held by a reservation that is still
 * running (?1 = now), and not on the buyer's private Do Not Call list (?3 = the buyer). The running
 * reservations and the buyer's scrubbed leads are read once per query into a set the listing index is
 * checked against, so the listing indexes need no `reserved_until` and reserving 200 leads does not
 * rewrite 600 of their entries; the buyer's set is as large as their list's matches (decision 0042).
 */
const AVAILABLE = `sold_at IS NULL AND suppressed_at IS NULL AND rowid NOT IN (
  SELECT rowid FROM aged_leads INDEXED BY aged_leads_reservations_idx
    WHERE sold_at IS NULL AND suppressed_at IS NULL AND reserved_until >= ?1
  UNION ALL SELECT a.rowid FROM buyer_scrubbed_leads b JOIN aged_leads a ON a.id = b.lead_id WHERE b.user_id = ?3)`;
const ORDER = "ORDER BY created_at DESC, id";

interface PreviewRow {
  id: string;
  name: string;
  phone: string;
  state: string;
  age_range: AgeRange | null;
  price_cents: number;
  form_fill_time: number | null;
}

interface KeyCount {
  state: string;
  areaCode: string;
  n: number;
}

/**
 * Listed leads per key (the triggers' table), running reservations (aged_leads_reservations_idx) and the
 * buyer's privately scrubbed leads that are listed and not reserved (?2 = the buyer; the two never overlap).
 */
const UNSOLD_SQL = "SELECT state, area_code AS areaCode, unsold AS n FROM aged_lead_counts WHERE unsold > 0";
const SCRUBBED = `FROM buyer_scrubbed_leads b JOIN aged_leads a ON a.id = b.lead_id
  WHERE b.user_id = ?2 AND a.sold_at IS NULL AND a.suppressed_at IS NULL AND NOT coalesce(a.reserved_until >= ?1, 0)`;
const HELD_BY_KEY_SQL = `SELECT state, coalesce(area_code, '') AS areaCode, count(*) AS n
  FROM aged_leads INDEXED BY aged_leads_reservations_idx WHERE sold_at IS NULL AND suppressed_at IS NULL AND reserved_until >= ?1
  GROUP BY state, area_code
  UNION ALL SELECT a.state, coalesce(a.area_code, ''), count(*) ${SCRUBBED} GROUP BY a.state, a.area_code`;
const HELD_SQL = `SELECT '' AS state, '' AS areaCode, count(*) AS n
  FROM aged_leads INDEXED BY aged_leads_reservations_idx WHERE sold_at IS NULL AND suppressed_at IS NULL AND reserved_until >= ?1
  UNION ALL SELECT '', '', count(*) ${SCRUBBED}`;

/**
 * The counts read last in this isolate: a hint to plan the page query before this request's counts
 * arrive, so counts and page go to D1 in one batch. The hint never decides the answer: a plan whose keys
 * turn out different from the fresh counts' is run again.
 */
let lastUnsold: KeyCount[] = [];

/** The filter's keys and the available leads, in total and among those selected. */
function tally(terms: readonly LocationTerm[], unsold: readonly KeyCount[], held: readonly KeyCount[]) {
  const keys = locationKeys(
    terms,
    unsold.map((row) => row.state),
  );
  const sum = (rows: readonly KeyCount[]) => rows.reduce((total, row) => total + row.n, 0);
  if (keys.all) {
    const available = sum(unsold) - sum(held);
    return { keys, available, matched: available, areaOutside: [] as string[] };
  }
  // The selected area codes that have listed leads outside the selected states.
  const areaOutside = [
    ...new Set(
      unsold
        .filter((row) => keys.areaCodes.includes(row.areaCode) && !keys.states.includes(row.state))
        .map((row) => row.areaCode),
    ),
  ].sort();
  const heldBy = new Map<string, number>();
  for (const row of held) {
    const key = `${row.state}\n${row.areaCode}`;
    heldBy.set(key, (heldBy.get(key) ?? 0) + row.n);
  }
  let available = 0;
  let matched = 0;
  for (const row of unsold) {
    const n = row.n - (heldBy.get(`${row.state}\n${row.areaCode}`) ?? 0);
    available += n;
    if (keysMatch(keys, row)) matched += n;
  }
  return { keys, available, matched, areaOutside };
}

type Plan = ReturnType<typeof tally>;

const samePlan = (a: Plan, b: Plan) =>
  a.keys.all || b.keys.all
    ? a.keys.all === b.keys.all
    : [...a.keys.states].sort().join("\n") === [...b.keys.states].sort().join("\n") &&
      a.areaOutside.join("\n") === b.areaOutside.join("\n");

/**
 * The rowids of one page, newest first, and their parameters (?1 now, ?2 offset, ?3 the buyer, then the
 * key lists: at most 5). Raw SQL: drizzle cannot say INDEXED BY, which pins each shape to the index it was
 * measured with (decision 0012 shows the plans).
 */
function pageRowids(
  keys: LocationKeys,
  plan: { matched: number; available: number; areaOutside: readonly string[] },
  now: number,
  offset: number,
  userId: string,
) {
  const { matched, available } = plan;
  const params: (string | number)[] = [now, offset, userId];
  // One key list: `= ?n` for a single value (one ordered index range), else a JSON list.
  const oneOf = (column: string, values: readonly string[]) => {
    params.push(values.length === 1 ? (values[0] ?? "") : JSON.stringify(values));
    const n = params.length;
    return values.length === 1 ? `${column} = ?${n}` : `${column} IN (SELECT value FROM json_each(?${n}))`;
  };
  const page = `${ORDER} LIMIT ${AGED_LEADS_PAGE_SIZE} OFFSET ?2`;
  if (keys.all) {
    return { sql: `SELECT rowid FROM aged_leads INDEXED BY aged_leads_listing_idx WHERE ${AVAILABLE} ${page}`, params };
  }
  const { states } = keys;
  // Area codes whose listed leads all lie in the selected states add nothing (a buyer typing "FL, 305"):
  // the counts say so, and leaving them out spares walking their whole range (decision 0043).
  const areaCodes =
    states.length > 0 ? keys.areaCodes.filter((code) => plan.areaOutside.includes(code)) : keys.areaCodes;
  const stateIn = states.length > 0 ? oneOf("state", states) : null;
  const areaIn = areaCodes.length > 0 ? oneOf("area_code", areaCodes) : null;
  // Each key costs about (offset + page) index entries and a merge; walking the newest-first index costs
  // (offset + page) × available / matched. Pick the cheaper one.
  if ((states.length + areaCodes.length) * matched > available) {
    const filter = [stateIn, areaIn].filter(Boolean).join(" OR ");
    return {
      sql: `SELECT rowid FROM aged_leads INDEXED BY aged_leads_listing_idx WHERE ${AVAILABLE} AND (${filter}) ${page}`,
      params,
    };
  }
  const branches: string[] = [];
  if (stateIn) {
    branches.push(
      `SELECT rowid, created_at, id FROM aged_leads INDEXED BY aged_leads_state_listing_idx WHERE ${AVAILABLE} AND ${stateIn}`,
    );
  }
  if (areaIn) {
    // A lead of a selected state is already in the first branch.
    branches.push(
      `SELECT rowid, created_at, id FROM aged_leads INDEXED BY aged_leads_area_listing_idx
       WHERE ${AVAILABLE} AND ${areaIn}${stateIn ? ` AND NOT (${stateIn})` : ""}`,
    );
  }
  return { sql: `SELECT rowid FROM (${branches.join(" UNION ALL ")} ${page})`, params };
}

export async function listAvailableLeads(
  d1: D1Database,
  page: number,
  location: string | undefined,
  /** The buyer asking: their private Do Not Call list leaves its leads out of their list only. */
  userId: string,
): Promise<AgedLeadPage> {
  const now = Date.now();
  const offset = (page - 1) * AGED_LEADS_PAGE_SIZE;
  const terms = parseLocationFilter(location);
  const pageQuery = (plan: Plan) => {
    const rowids = pageRowids(plan.keys, plan, now, offset, userId);
    return d1
      .prepare(
        `SELECT id, name, phone, state, age_range, price_cents, form_fill_time FROM aged_leads
         WHERE rowid IN (${rowids.sql}) ${ORDER}`,
      )
      .bind(...rowids.params);
  };
  // Raw D1 batch (one transaction, one round trip): the page query needs INDEXED BY, which drizzle lacks.
  const planned = tally(terms, lastUnsold, []);
  const withPage = planned.matched > offset;
  const [unsold, held, listed] = await d1.batch<KeyCount | PreviewRow>([
    d1.prepare(UNSOLD_SQL),
    d1.prepare(planned.keys.all ? HELD_SQL : HELD_BY_KEY_SQL).bind(now, userId),
    ...(withPage ? [pageQuery(planned)] : []),
  ]);
  lastUnsold = (unsold?.results ?? []) as KeyCount[];
  const fresh = tally(terms, lastUnsold, (held?.results ?? []) as KeyCount[]);
  const { matched } = fresh;
  let rows = (listed?.results ?? []) as PreviewRow[];
  if (matched > offset && !(withPage && samePlan(planned, fresh))) {
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
        currentPrice: priced.priceCents / 100,
        price: priced.priceCents / 100,
        priceCents: priced.priceCents,
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
  suppressedOn: null,
});

/** Leads the buyer bought and kept: an approved return (issue 16) or a full refund takes a lead out of My Leads. */
const boughtBy = (userId: string) =>
  and(
    eq(agedLeads.soldToUserId, userId),
    isNotNull(agedLeads.soldAt),
    isNull(agedLeads.returnedAt),
    isNull(agedLeads.refundedAt),
  );

/** My Leads, newest purchase first, one page at a time (aged_leads_sold_to_idx). */
export async function listOwnedLeads(d1: D1Database, userId: string, page: number): Promise<OwnedLeadPage> {
  const db = database(d1);
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
  const items = rows.map(toOwnedLead);
  // Numbers added to a Do Not Call list since they were bought: flagged, so the buyer stops calling.
  const flags = await suppressedAfterPurchase(
    { db },
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
export async function* ownedLeadChunks(d1: D1Database, userId: string): AsyncGenerator<OwnedLead[]> {
  const db = database(d1);
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
    if (rows.length > 0) yield rows.map(toOwnedLead);
    const last = rows.at(-1);
    if (rows.length < MY_LEADS_EXPORT_CHUNK || !last?.soldAt || !last.id) return;
    after = { soldAt: last.soldAt, id: last.id };
  }
}

export const MY_LEADS_CSV_HEADER = ["Name", "Phone", "Email", "State", "Form fill time", "Purchased at", "Order"];

/** The My Leads CSV as a stream: each chunk is read from D1 only when the client is ready for it. */
export function myLeadsCsv(d1: D1Database, userId: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const chunks = ownedLeadChunks(d1, userId);
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
      const rows = next.value.map((lead) =>
        [lead.name, lead.phone, lead.email, lead.state, lead.formFillTime, lead.purchasedAt, lead.orderId].map(
          (value) => value ?? "",
        ),
      );
      // Every cell quoted (the writer escapes formulae).
      controller.enqueue(encoder.encode(`\r\n${csvLines(rows, true)}`));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
