/**
 * A literal for the e2e tests' ad hoc queries through `wrangler d1 execute` (no bound parameters there).
 * Seeding and the scripts build their statements with drizzle (scripts/seed.ts, scripts/lib/drizzle-sql.ts).
 */

export function sqlLiteral(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`Not a finite number: ${value}`);
    return String(value);
  }
  return `'${value.replaceAll("'", "''")}'`;
}
