/** Aged leads straight into D1, one or many (decision 0067). */
import { leadDedupeKey } from "../../../src/features/aged-leads/leads";
import { insertInChunks } from "../../../worker/db/bulk-insert";
import { agedLeads } from "../../../worker/db/schema";
import { type Database, uniquePhone } from "./db";

const DAY_MS = 86_400_000;

/** Any column of `aged_leads`. The dedupe key follows the phone and form-fill time unless given. */
export type LeadOverrides = Partial<typeof agedLeads.$inferInsert>;

export type TestLead = typeof agedLeads.$inferInsert & { id: string; phone: string };

/**
 * The row of an unsold lead: "Mary Johnson" in TX, filled in ten days ago (so $5.00 by the pricing rule,
 * product rule 5), on a phone no other factory lead of the file has. D1's triggers fill its area code and
 * its listing counts; a lead whose phone is no US number is stored suppressed.
 */
function leadRow(overrides: LeadOverrides = {}): TestLead {
  const phone = overrides.phone ?? uniquePhone();
  const formFillTime =
    overrides.formFillTime === undefined ? new Date(Date.now() - 10 * DAY_MS) : overrides.formFillTime;
  return {
    name: "Mary Johnson",
    email: "mary@example.com",
    state: "TX",
    dedupeKey: leadDedupeKey(phone, formFillTime),
    ...overrides,
    id: overrides.id ?? crypto.randomUUID(),
    phone,
    formFillTime,
  };
}

/** One lead (see `leadRow` for its defaults); answers the columns it wrote (triggers add the area code and phone key). */
export async function createLead(db: Database, overrides: LeadOverrides = {}): Promise<TestLead> {
  const row = leadRow(overrides);
  await db.insert(agedLeads).values(row);
  return row;
}

/**
 * `count` leads in as few statements as D1 allows (one batch); `overrides(i)` sets the i-th lead's columns.
 * Each is filled in a second before the one before it, so their dedupe keys differ even on one phone.
 * They share one `created_at` unless given: set `createdAt` when a test reads them newest first.
 * Answers their ids in order.
 */
export async function createLeads(
  db: Database,
  count: number,
  overrides: LeadOverrides | ((i: number) => LeadOverrides) = {},
): Promise<string[]> {
  const rows = Array.from({ length: count }, (_, i) => {
    const own = typeof overrides === "function" ? overrides(i) : overrides;
    const formFillTime =
      own.formFillTime === undefined ? new Date(Date.now() - 10 * DAY_MS - i * 1000) : own.formFillTime;
    return leadRow({ ...own, formFillTime });
  });
  const [first, ...rest] = insertInChunks(db, agedLeads, rows);
  if (first) await db.batch([first, ...rest]);
  return rows.map((row) => row.id);
}
