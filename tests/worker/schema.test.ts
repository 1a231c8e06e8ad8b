/**
 * The schema and the migrations agree: the D1 database the migrations build
 * (tests/worker/setup.ts applies every file of migrations/) holds exactly the tables, columns, primary and
 * foreign keys, indexes and CHECK constraints that worker/db/schema/ declares, and every trigger the
 * migrations create. A schema change without its migration, or a migration without its schema
 * change, fails here (docs/operations.md, Changing the schema).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as schema from "../../worker/db/schema";
import {
  checksOf,
  databaseShape,
  databaseTables,
  drizzleShape,
  normalizeSql,
  schemaTables,
  tableName,
  triggersOfMigrations,
} from "./schema-compare";

const tables = schemaTables(schema);

describe("worker/db/schema/ and the migrated database agree", () => {
  it("has the same tables", async () => {
    const declared = tables.map((table) => tableName(table)).sort();
    expect(await databaseTables(env.DB)).toEqual(declared);
  });

  for (const table of tables) {
    const name = tableName(table);
    it(`${name}: columns, keys, indexes and CHECK constraints`, async () => {
      const database = await databaseShape(env.DB, name);
      const declared = drizzleShape(table);
      expect.soft(database.columns, `${name} columns`).toEqual(declared.columns);
      expect.soft(database.primaryKey, `${name} primary key`).toEqual(declared.primaryKey);
      expect.soft(database.foreignKeys, `${name} foreign keys`).toEqual(declared.foreignKeys);
      expect.soft(database.indexes, `${name} indexes`).toEqual(declared.indexes);
      expect.soft(database.checks, `${name} CHECK constraints`).toEqual(declared.checks);
    });
  }

  it("keeps every trigger the migrations create (a table that drizzle-kit rebuilds loses its triggers)", async () => {
    const { results } = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name",
    ).all<{
      name: string;
    }>();
    const created = triggersOfMigrations(env.TEST_MIGRATIONS);
    const missing = [...created].filter(([name]) => !results.some((row) => row.name === name));
    expect(missing.map(([name, migration]) => `${name} (created in ${migration})`)).toEqual([]);
    expect(results.map((row) => row.name).sort()).toEqual([...created.keys()].sort());
  });
});

describe("the comparison itself", () => {
  it("reads column and table CHECK constraints, nested parentheses and quoted ones included", () => {
    const table = `CREATE TABLE t (a text CHECK (a IN ('x)', 'y')), b integer, CONSTRAINT c CHECK ((a = 'x') = (b IS NOT NULL)))`;
    expect(checksOf(table).map((check) => normalizeSql(check, "t"))).toEqual(["ain('x)','y')", "(a='x')=(bisnotnull)"]);
  });

  it("tells a missing CHECK, a changed default and an extra index apart from a match", async () => {
    await env.DB.exec(
      "CREATE TABLE schema_probe (id text PRIMARY KEY NOT NULL, n integer DEFAULT 1 NOT NULL CHECK (n > 0)); CREATE INDEX schema_probe_n ON schema_probe (n);",
    );
    const probe = await databaseShape(env.DB, "schema_probe");
    expect(probe.checks).toEqual(["n>0"]);
    expect(probe.columns.n).toEqual({ type: "integer", notNull: true, default: "1" });
    expect(probe.indexes).toEqual({ schema_probe_n: "createindexschema_probe_nonschema_probe(n)" });
    expect(probe.primaryKey).toEqual(["id"]);
    await env.DB.exec("DROP TABLE schema_probe;");
  });
});
