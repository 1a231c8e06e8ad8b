/** Fixtures for aged-lead bundles (decision 0057): listed leads of a chosen age band and state. */
import { env } from "cloudflare:workers";
import { leadDedupeKey } from "../../src/domain/leads";

const DAY_MS = 86_400_000;

export interface LeadOptions {
  state?: string;
  ageDays: number;
  withheld?: boolean;
  suppressed?: boolean;
}

/** `count` unsold leads `ageDays` old (which decides their band, product rule 5); answers their ids. */
export async function insertLeads(count: number, options: LeadOptions): Promise<string[]> {
  const rows = Array.from({ length: count }, (_, i) => {
    const phone = `7${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`;
    const formFillTime = Date.now() - options.ageDays * DAY_MS - i * 1000;
    return { id: crypto.randomUUID(), phone, formFillTime, dedupeKey: leadDedupeKey(phone, formFillTime) };
  });
  await env.DB.prepare(
    `INSERT INTO aged_leads (id, name, email, phone, state, form_fill_time, dedupe_key, withheld, suppressed_at)
     SELECT value ->> 'id', 'Bea Bundle', 'bea@example.com', value ->> 'phone', ?1, value ->> 'formFillTime',
            value ->> 'dedupeKey', ?2, ?3
     FROM json_each(?4)`,
  )
    .bind(options.state ?? "TX", options.withheld ? 1 : 0, options.suppressed ? Date.now() : null, JSON.stringify(rows))
    .run();
  return rows.map((row) => row.id);
}
