/**
 * The bench's Do Not Call numbers (scripts/bench-suppression.ts): area codes 201-350 (the bench leads' own)
 * with every 30th line number, as a registry file or written straight into D1.
 */
import { createWriteStream, mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { root } from "./lib/paths.ts";

export const FIRST_AREA = 201;
export const AREAS = 150;
/** Line numbers j·30 below 1,000,000 in each area code. */
export const STRIDE = 30;
/** The i-th suppressed number (sorted ascending, as the registry's files are). */
export function suppressedNumber(i: number, perArea: number): number {
  const area = FIRST_AREA + Math.floor(i / perArea);
  return area * 10_000_000 + (i % perArea) * STRIDE;
}

export const perAreaOf = (count: number) => Math.ceil(count / AREAS);

/** Writes the file a registry download would be: one 10-digit number a line. */
export async function writeNumbersFile(count: number): Promise<string> {
  const dir = resolve(root, ".wrangler/bench");
  mkdirSync(dir, { recursive: true });
  const path = resolve(dir, `dnc-${count}.txt`);
  const out = createWriteStream(path);
  const perArea = perAreaOf(count);
  let chunk: string[] = [];
  for (let i = 0; i < count; i++) {
    chunk.push(String(suppressedNumber(i, perArea)));
    if (chunk.length === 100_000 || i === count - 1) {
      if (!out.write(`${chunk.join("\n")}\n`))
        await new Promise<void>((resolveDrain) => out.once("drain", () => resolveDrain()));
      chunk = [];
    }
  }
  await new Promise<void>((resolveEnd) => out.end(resolveEnd));
  return path;
}

const SQL_CHUNK = 1_000_000;

/** The same numbers written straight into D1 (for the size whose load is not the thing measured). */
export async function loadNumbersInSql(d1: D1Database, count: number, now: number): Promise<void> {
  const perArea = perAreaOf(count);
  const today = new Date(now).toISOString().slice(0, 10);
  const list = await d1
    .prepare(
      "INSERT INTO suppression_lists (kind, name, refreshed_on, numbers) VALUES ('litigator', 'Bench litigators', ?, ?) RETURNING id",
    )
    .bind(today, count)
    .first<{ id: number }>();
  // A million rows a statement: one statement of five million outlived the local proxy's request on a busy machine.
  for (let from = 0; from < count; from += SQL_CHUNK) {
    await d1
      .prepare(
        `INSERT INTO suppression_numbers (number, list_id, added_on)
         WITH RECURSIVE i(n) AS (SELECT ?5 UNION ALL SELECT n + 1 FROM i WHERE n < ?1 - 1)
         SELECT (${FIRST_AREA} + n / ?2) * 10000000 + (n % ?2) * ${STRIDE}, ?3, ?4 FROM i`,
      )
      .bind(Math.min(count, from + SQL_CHUNK), perArea, list?.id ?? 0, Math.floor(now / 86_400_000), from)
      .run();
  }
  await d1.batch([
    d1
      .prepare(
        `UPDATE aged_leads SET suppressed_at = ? WHERE sold_at IS NULL AND suppressed_at IS NULL
         AND EXISTS (SELECT 1 FROM suppression_numbers WHERE number = aged_leads.phone_key)`,
      )
      .bind(now),
  ]);
}

/** The report a browser sends with an upload whose file's `count` numbers were all accepted as new. */
export const cleanFileReport = (count: number) => ({
  lines: count,
  header: false,
  blank: 0,
  accepted: count,
  added: count,
  removed: 0,
  duplicates: 0,
  rejected: 0,
  rejections: [],
});
