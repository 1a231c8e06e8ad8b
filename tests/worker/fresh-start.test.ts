/**
 * Test files share a workerd runtime (`isolate: false`), so tests/worker/setup.ts starts each file from a
 * freshly migrated, empty database and bucket: what the file before this one wrote is gone, and the schema
 * is whole (docs/decisions/0056). This file also leaves a user and an object behind for the file after it.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser } from "./helpers";

describe("a test file's start", () => {
  it("finds no rows and no objects that a file before it wrote", async () => {
    for (const table of ["users", "sessions", "orders", "aged_leads"]) {
      const row = await env.DB.prepare(`SELECT count(*) AS n FROM "${table}"`).first<{ n: number }>();
      expect({ table, rows: row?.n }).toEqual({ table, rows: 0 });
    }
    expect((await env.DOCUMENTS.list()).objects).toEqual([]);
  });

  it("finds every migration applied, once each", async () => {
    const { results } = await env.DB.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>();
    expect(results.map((r) => r.name)).toEqual(env.TEST_MIGRATIONS.map((m) => m.name));
  });

  it("leaves a user and a stored object behind", async () => {
    await createUser();
    await env.DOCUMENTS.put("left-behind.txt", "for the next file to not find");
    const row = await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>();
    expect(row?.n).toBe(1);
  });
});
