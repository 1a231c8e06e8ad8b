/** SQL text for seeding and scripts that talk to D1 through wrangler (no bound parameters there). */

export function sqlLiteral(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`Not a finite number: ${value}`);
    return String(value);
  }
  return `'${value.replaceAll("'", "''")}'`;
}

export function insertSql(table: string, columns: Record<string, string | number | boolean | null>): string {
  return `INSERT INTO ${table} (${Object.keys(columns).join(", ")}) VALUES (${Object.values(columns).map(sqlLiteral).join(", ")});`;
}
