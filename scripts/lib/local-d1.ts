/**
 * The local D1 database through Miniflare's documented API (`getD1Database`), for the scripts that write
 * to it before the server starts: the demo seed, `user:create` and the bench's generated data. It is the
 * same database `wrangler d1 … --local [--persist-to]` and the local server open (the binding's database
 * id, under `<state>/v3`), reached through a D1 binding with bound parameters, as the app reaches it.
 */
import { resolve } from "node:path";
import { root } from "./paths.ts";
import { loadWrangler } from "./wrangler-miniflare.ts";

/** Opens the local D1 of `persistTo` (default .wrangler/state) for `use`, and closes it afterwards. */
export async function withLocalD1<T>(persistTo: string | undefined, use: (d1: D1Database) => Promise<T>): Promise<T> {
  const { wrangler, miniflare } = loadWrangler();
  const { workerOptions } = wrangler.unstable_getMiniflareWorkerOptions(resolve(root, "wrangler.toml"));
  const options = miniflare.convertV4MiniflareOptions({
    host: "127.0.0.1",
    port: 0,
    workers: [
      {
        name: "local-d1",
        modules: true,
        script: "export default { fetch: () => new Response(null, { status: 204 }) };",
        compatibilityDate: workerOptions.compatibilityDate,
        d1Databases: workerOptions.d1Databases,
      },
    ],
  });
  const mf = new miniflare.Miniflare({
    ...options,
    enableDevRegistry: false,
    resourcePersistencePath: resolve(root, persistTo ?? ".wrangler/state", "v3"),
  });
  try {
    return await use(await mf.getD1Database("DB"));
  } finally {
    await mf.dispose();
  }
}

/**
 * Applies the migrations in migrations/ that the database has not recorded, each with its record in one batch,
 * as `wrangler d1 migrations apply` does (the same `d1_migrations` table, the same statement splitter, which
 * wrangler and the Worker tests' `applyD1Migrations` share). In the process that seeds: wrangler's command
 * took 28 s of CPU on this machine for what this does in well under one (docs/decisions/0056).
 */
export async function applyLocalMigrations(d1: D1Database): Promise<void> {
  // Loaded here only: the other users of this file (`npm start`'s seed, the benches) do not need it.
  const { readD1Migrations } = await import("@cloudflare/vitest-plugin");
  await d1
    .prepare(
      `CREATE TABLE IF NOT EXISTS d1_migrations (
         id INTEGER PRIMARY KEY AUTOINCREMENT,
         name TEXT UNIQUE,
         applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
       )`,
    )
    .run();
  const { results } = await d1.prepare("SELECT name FROM d1_migrations").all<{ name: string }>();
  const applied = new Set(results.map((row) => row.name));
  for (const migration of await readD1Migrations(resolve(root, "migrations"))) {
    if (applied.has(migration.name)) continue;
    await d1.batch([
      ...migration.queries.map((query) => d1.prepare(query)),
      d1.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(migration.name),
    ]);
  }
}
