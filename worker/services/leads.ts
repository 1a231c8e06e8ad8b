/** Aged leads for buyers (PRODUCT.md D6, D7): listing, reservation, sale. */
import { type LocationTerm, parseLocationFilter } from "../../src/domain/location-filter";
import { maskName, maskPhone } from "../../src/domain/masking";
import { type AgeRange, agedLeadPrice } from "../../src/domain/pricing";
import {
  AGED_LEADS_PAGE_SIZE,
  type AgedLeadPage,
  type OwnedLead,
  RESERVATION_MINUTES,
} from "../../src/domain/schemas/dashboard";

interface LeadRow {
  id: string;
  name: string;
  email: string | null;
  phone: string;
  state: string;
  age_range: AgeRange | null;
  price_cents: number;
  form_fill_time: number | null;
}

/** Unsold, and not held by a reservation that is still running. */
const AVAILABLE = "sold_at IS NULL AND (reserved_until IS NULL OR reserved_until < ?1)";

function locationSql(terms: readonly LocationTerm[], firstParam: number): { sql: string; params: string[] } {
  if (terms.length === 0) return { sql: "1", params: [] };
  const params: string[] = [];
  const clauses = terms.map((term) => {
    if (term.matchesAll) return "1";
    params.push(term.text);
    const index = firstParam + params.length - 1;
    return term.matchesPhone
      ? `(instr(lower(state), ?${index}) > 0 OR instr(phone, ?${index}) > 0)`
      : `instr(lower(state), ?${index}) > 0`;
  });
  return { sql: `(${clauses.join(" OR ")})`, params };
}

export function priceLead(row: Pick<LeadRow, "form_fill_time" | "age_range" | "price_cents">, now: number) {
  return agedLeadPrice({ formFillTime: row.form_fill_time, ageRange: row.age_range, priceCents: row.price_cents }, now);
}

export async function listAvailableLeads(
  db: D1Database,
  page: number,
  location: string | undefined,
): Promise<AgedLeadPage> {
  const now = Date.now();
  const where = locationSql(parseLocationFilter(location), 2);
  const filter = `${AVAILABLE} AND ${where.sql}`;
  const [count, rows] = await db.batch<{ total: number } | LeadRow>([
    db.prepare(`SELECT count(*) AS total FROM aged_leads WHERE ${filter}`).bind(now, ...where.params),
    db
      .prepare(
        `SELECT id, name, phone, state, age_range, price_cents, form_fill_time FROM aged_leads WHERE ${filter}
         ORDER BY created_at DESC, id LIMIT ${AGED_LEADS_PAGE_SIZE} OFFSET ${(page - 1) * AGED_LEADS_PAGE_SIZE}`,
      )
      .bind(now, ...where.params),
  ]);
  const total = (count?.results[0] as { total: number } | undefined)?.total ?? 0;
  const items = ((rows?.results ?? []) as LeadRow[]).map((row) => {
    const priced = priceLead(row, now);
    return {
      id: row.id,
      name: maskName(row.name),
      phone: maskPhone(row.phone),
      state: row.state,
      currentAgeRange: priced.ageRange,
      actualAge: priced.ageDays,
      formFillTime: row.form_fill_time === null ? null : new Date(row.form_fill_time).toISOString(),
      currentPrice: priced.priceCents / 100,
      price: priced.priceCents / 100,
      priceCents: priced.priceCents,
    };
  });
  return {
    items,
    total,
    page,
    pageSize: AGED_LEADS_PAGE_SIZE,
    pageCount: Math.max(1, Math.ceil(total / AGED_LEADS_PAGE_SIZE)),
  };
}

export type Reservation =
  | { ok: true; prices: { id: string; priceCents: number }[] }
  | { ok: false; status: 400 | 409; message: string; unavailable: string[] };

const CONFLICT_PREFIX = "Another buyer just bought or reserved these leads, so we took them out of your selection: ";

/** Reserves every lead for the order, or none of them (D6). */
export async function reserveLeads(db: D1Database, orderId: string, leadIds: readonly string[]): Promise<Reservation> {
  const ids = [...new Set(leadIds)];
  const now = Date.now();
  const reservedUntil = now + RESERVATION_MINUTES * 60_000;
  const [known, reserved] = await db.batch<{ id: string; name: string } | LeadRow>([
    db
      .prepare("SELECT id, name FROM aged_leads WHERE id IN (SELECT value FROM json_each(?1))")
      .bind(JSON.stringify(ids)),
    db
      .prepare(
        `UPDATE aged_leads SET reserved_by_order_id = ?2, reserved_until = ?3
         WHERE id IN (SELECT value FROM json_each(?4)) AND ${AVAILABLE}
         RETURNING id, age_range, price_cents, form_fill_time`,
      )
      .bind(now, orderId, reservedUntil, JSON.stringify(ids)),
  ]);
  const knownNames = new Map(((known?.results ?? []) as { id: string; name: string }[]).map((r) => [r.id, r.name]));
  const reservedRows = (reserved?.results ?? []) as LeadRow[];
  if (reservedRows.length === ids.length) {
    return {
      ok: true,
      prices: reservedRows.map((row) => ({ id: row.id, priceCents: priceLead(row, now).priceCents })),
    };
  }
  await releaseLeads(db, orderId);
  const unknown = ids.filter((id) => !knownNames.has(id));
  if (unknown.length > 0)
    return { ok: false, status: 400, message: `Unknown leads: ${unknown.join(", ")}`, unavailable: unknown };
  const reservedIds = new Set(reservedRows.map((row) => row.id));
  const taken = ids.filter((id) => !reservedIds.has(id));
  return {
    ok: false,
    status: 409,
    // Named as the buyer saw them in the list (masked), never by id.
    message: `${CONFLICT_PREFIX}${taken.map((id) => maskName(knownNames.get(id) ?? "")).join(", ")}`,
    unavailable: taken,
  };
}

export async function releaseLeads(db: D1Database, orderId: string): Promise<void> {
  await db
    .prepare(
      "UPDATE aged_leads SET reserved_by_order_id = NULL, reserved_until = NULL WHERE reserved_by_order_id = ? AND sold_at IS NULL",
    )
    .bind(orderId)
    .run();
}

/**
 * On payment: the order's leads become the buyer's. A lead whose reservation ran out is still sold to
 * this buyer unless another buyer has reserved or bought it since. Answers how many were assigned.
 */
export async function sellReservedLeads(
  db: D1Database,
  order: { id: string; userId: string | null; leadIds: string[] },
) {
  const now = Date.now();
  const result = await db
    .prepare(
      `UPDATE aged_leads SET sold_to_user_id = ?1, sold_order_id = ?2, sold_at = ?3, reserved_until = NULL
       WHERE id IN (SELECT value FROM json_each(?4)) AND sold_at IS NULL
         AND (reserved_by_order_id = ?2 OR reserved_until IS NULL OR reserved_until < ?3)`,
    )
    .bind(order.userId, order.id, now, JSON.stringify(order.leadIds))
    .run();
  return result.meta.changes;
}

export async function listOwnedLeads(db: D1Database, userId: string): Promise<OwnedLead[]> {
  const { results } = await db
    .prepare(
      `SELECT id, name, email, phone, state, form_fill_time, sold_at, sold_order_id FROM aged_leads
       WHERE sold_to_user_id = ? AND sold_at IS NOT NULL ORDER BY sold_at DESC, name`,
    )
    .bind(userId)
    .all<LeadRow & { sold_at: number; sold_order_id: string }>();
  return results.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    state: row.state,
    formFillTime: row.form_fill_time === null ? null : new Date(row.form_fill_time).toISOString(),
    purchasedAt: new Date(row.sold_at).toISOString(),
    orderId: row.sold_order_id,
  }));
}
