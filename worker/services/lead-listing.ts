/**
 * The aged-lead marketplace list (PRODUCT.md D6, D15) and My Leads, built to stay fast at a million leads
 * (docs/decisions/0012): totals come from the per-state counts table, pages from partial indexes over
 * unsold leads, newest first, with the location filter turned into exact index keys.
 */
import { and, count, desc, eq, gt, gte, isNotNull, isNull, lt, or } from "drizzle-orm";
import { keysMatch, type LocationKeys, locationKeys, parseLocationFilter } from "../../src/domain/location-filter";
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
import { agedLeadCounts, agedLeads } from "../db/schema";
import { priceLead } from "./leads";

/** Unsold, and not held by a reservation that is still running (?1 = now). */
const AVAILABLE = "sold_at IS NULL AND (reserved_until IS NULL OR reserved_until < ?1)";
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

/** Available leads in total and among those the filter selects, from the counts table (no scan). */
async function availableCounts(d1: D1Database, location: string | undefined, now: number) {
  const db = database(d1);
  const terms = parseLocationFilter(location);
  const unsold = db
    .select({ state: agedLeadCounts.state, areaCode: agedLeadCounts.areaCode, unsold: agedLeadCounts.unsold })
    .from(agedLeadCounts)
    .where(gt(agedLeadCounts.unsold, 0));
  // Running reservations, read from aged_leads_reservations_idx: in total, or per key for a filter.
  const running = and(isNull(agedLeads.soldAt), gte(agedLeads.reservedUntil, new Date(now)));
  const everything = locationKeys(terms, []);
  if (everything.all) {
    const [rows, [held]] = await db.batch([unsold, db.select({ held: count() }).from(agedLeads).where(running)]);
    const available = rows.reduce((sum, row) => sum + row.unsold, 0) - (held?.held ?? 0);
    return { keys: everything, available, matched: available };
  }
  const [rows, reserved] = await db.batch([
    unsold,
    db
      .select({ state: agedLeads.state, areaCode: agedLeads.areaCode, held: count() })
      .from(agedLeads)
      .where(running)
      .groupBy(agedLeads.state, agedLeads.areaCode),
  ]);
  const keys = locationKeys(
    terms,
    rows.map((row) => row.state),
  );
  const held = new Map(reserved.map((row) => [`${row.state}\n${row.areaCode ?? ""}`, row.held]));
  let available = 0;
  let matched = 0;
  for (const row of rows) {
    const n = row.unsold - (held.get(`${row.state}\n${row.areaCode}`) ?? 0);
    available += n;
    if (keysMatch(keys, row)) matched += n;
  }
  return { keys, available, matched };
}

/**
 * The rowids of one page, newest first, and their parameters (?1 now, ?2 offset, then the key lists: at
 * most 4). Raw SQL: drizzle cannot say INDEXED BY, which pins each shape to the index it was measured
 * with (decision 0012 shows the plans).
 */
function pageRowids(keys: LocationKeys, matched: number, available: number, now: number, offset: number) {
  const params: (string | number)[] = [now, offset];
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
  const { states, areaCodes } = keys;
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
): Promise<AgedLeadPage> {
  const now = Date.now();
  const offset = (page - 1) * AGED_LEADS_PAGE_SIZE;
  const { keys, available, matched } = await availableCounts(d1, location, now);
  let rows: PreviewRow[] = [];
  if (matched > offset) {
    const rowids = pageRowids(keys, matched, available, now, offset);
    const result = await d1
      .prepare(
        `SELECT id, name, phone, state, age_range, price_cents, form_fill_time FROM aged_leads
         WHERE rowid IN (${rowids.sql}) ${ORDER}`,
      )
      .bind(...rowids.params)
      .all<PreviewRow>();
    rows = result.results;
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
});

const boughtBy = (userId: string) => and(eq(agedLeads.soldToUserId, userId), isNotNull(agedLeads.soldAt));

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
  return {
    items: rows.map(toOwnedLead),
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

const csvCell = (value: string | null) => {
  const text = value ?? "";
  // Quote every cell; a leading =, +, - or @ would run as a formula in spreadsheets.
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return `"${safe.replaceAll('"', '""')}"`;
};

/** The My Leads CSV as a stream: each chunk is read from D1 only when the client is ready for it. */
export function myLeadsCsv(d1: D1Database, userId: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const chunks = ownedLeadChunks(d1, userId);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(MY_LEADS_CSV_HEADER.join(",")));
    },
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) {
        controller.close();
        return;
      }
      const lines = next.value.map((lead) =>
        [lead.name, lead.phone, lead.email, lead.state, lead.formFillTime, lead.purchasedAt, lead.orderId]
          .map(csvCell)
          .join(","),
      );
      controller.enqueue(encoder.encode(`\r\n${lines.join("\r\n")}`));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
