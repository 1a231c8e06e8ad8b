/** Aged leads for buyers (PRODUCT.md D6, D7): listing, reservation, sale. */
import { type AgeRange, agedLeadPrice } from "../../src/domain/pricing";
import { RESERVATION_MINUTES } from "../../src/domain/schemas/dashboard";

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

export function priceLead(row: Pick<LeadRow, "form_fill_time" | "age_range" | "price_cents">, now: number) {
  return agedLeadPrice({ formFillTime: row.form_fill_time, ageRange: row.age_range, priceCents: row.price_cents }, now);
}

export type Reservation =
  | { ok: true; prices: { id: string; priceCents: number }[] }
  | { ok: false; status: 400 | 409; message: string; unavailable: string[] };

/** Reserves every lead for the order, or none of them (D6). */
export async function reserveLeads(db: D1Database, orderId: string, leadIds: readonly string[]): Promise<Reservation> {
  const ids = [...new Set(leadIds)];
  const now = Date.now();
  const reservedUntil = now + RESERVATION_MINUTES * 60_000;
  const [known, reserved] = await db.batch<{ id: string } | LeadRow>([
    db.prepare("SELECT id FROM aged_leads WHERE id IN (SELECT value FROM json_each(?1))").bind(JSON.stringify(ids)),
    db
      .prepare(
        `UPDATE aged_leads SET reserved_by_order_id = ?2, reserved_until = ?3
         WHERE id IN (SELECT value FROM json_each(?4)) AND ${AVAILABLE}
         RETURNING id, age_range, price_cents, form_fill_time`,
      )
      .bind(now, orderId, reservedUntil, JSON.stringify(ids)),
  ]);
  const knownIds = new Set(((known?.results ?? []) as { id: string }[]).map((row) => row.id));
  const reservedRows = (reserved?.results ?? []) as LeadRow[];
  if (reservedRows.length === ids.length) {
    return {
      ok: true,
      prices: reservedRows.map((row) => ({ id: row.id, priceCents: priceLead(row, now).priceCents })),
    };
  }
  await releaseLeads(db, orderId);
  const unknown = ids.filter((id) => !knownIds.has(id));
  if (unknown.length > 0)
    return { ok: false, status: 400, message: `Unknown leads: ${unknown.join(", ")}`, unavailable: unknown };
  const reservedIds = new Set(reservedRows.map((row) => row.id));
  const taken = ids.filter((id) => !reservedIds.has(id));
  return {
    ok: false,
    status: 409,
    message: `These leads were just sold or reserved by another buyer: ${taken.join(", ")}`,
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
