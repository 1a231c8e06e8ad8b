/**
 * Every multi-row insert goes through insertInChunks, whose statements stay within D1's
 * 100 bound parameters for every table of the schema, however many rows, and use the room they have.
 */
import { getTableColumns, is } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { insertInChunks, paramsPerRow } from "../../worker/db/bulk-insert";
import { D1_LIMITS } from "../../worker/db/limits";
import * as schema from "../../worker/db/schema";

/** Only toSQL() is called: the statements never reach a database. */
const db = drizzle({} as D1Database, { schema });
const tables = Object.entries(schema).flatMap(([name, value]): [string, SQLiteTable][] =>
  is(value, SQLiteTable) ? [[name, value]] : [],
);

/** A row with a value in every column (the most parameters a row can bind). */
function fullRow(table: SQLiteTable, n: number): Record<string, unknown> {
  const columns = Object.entries(getTableColumns(table));
  return Object.fromEntries(
    columns.map(([key, column]) => {
      switch (column.columnType) {
        case "SQLiteTimestamp":
          return [key, new Date(n)];
        case "SQLiteBoolean":
          return [key, n % 2 === 0];
        case "SQLiteInteger":
          return [key, n];
        case "SQLiteTextJson":
          return [key, [n]];
        default:
          return [key, `v${n}`];
      }
    }),
  );
}

describe("insertInChunks (D1 allows 100 bound parameters a statement)", () => {
  it("covers every table of the schema", () => {
    expect(tables.length).toBeGreaterThan(20);
  });

  for (const [name, table] of tables) {
    it(`${name}: 1, 51 and 300 full rows, each statement within the limit and as full as it can be`, () => {
      for (const count of [1, 51, 300]) {
        const rows = Array.from({ length: count }, (_, i) => fullRow(table, i));
        const perRow = paramsPerRow(db, table, rows);
        const statements = insertInChunks(db, table, rows).map((statement) => statement.toSQL());
        expect(statements.reduce((sum, s) => sum + s.params.length, 0)).toBe(perRow * count);
        for (const { params } of statements) expect(params.length).toBeLessThanOrEqual(D1_LIMITS.paramsPerStatement);
        for (const { params } of statements.slice(0, -1))
          expect(params.length + perRow).toBeGreaterThan(D1_LIMITS.paramsPerStatement);
      }
    });
  }

  it("counts the parameters drizzle really binds, defaults included (order_delivery_states binds 3 a row)", () => {
    const rows = [{ state: "TX", orderId: "o" }];
    expect(paramsPerRow(db, schema.orderDeliveryStates, rows)).toBe(3);
    const states = Array.from({ length: 51 }, (_, i) => ({ state: `S${i}`, orderId: "o" }));
    expect(insertInChunks(db, schema.orderDeliveryStates, states).map((s) => s.toSQL().params.length)).toEqual([
      99, 54,
    ]);
  });

  it("writes nothing for no rows", () => {
    expect(insertInChunks(db, schema.orderDeliveryStates, [])).toEqual([]);
  });
});
