/**
 * `npm run db:check` (a step of `npm test`): the schema (worker/db/schema/) and the migrations folder agree
 * as drizzle-kit sees them (decision 0036):
 * - the journal lists every SQL migration, in order (else: `npm run db:snapshot`);
 * - `drizzle-kit check` finds the snapshots consistent (no two branches' snapshots on one parent);
 * - `drizzle-kit generate` on a copy of migrations/meta writes nothing, so the schema has no change without
 *   its migration (else: `npm run db:generate`);
 * - no migration drops a table that others reference with ON DELETE CASCADE / SET NULL (drizzle-kit's way
 *   of changing a CHECK or a column type), unless it says it keeps their rows: on D1 that drop deletes them.
 * That the migrations build the database the schema describes is tests/worker/schema.test.ts's part.
 */
import { spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
  dropsThatTouchChildren,
  metaDir,
  migrationsDir,
  migrationTags,
  readJournal,
  readSnapshot,
  schemaFile,
  scratchOutDir,
  snapshotFiles,
} from "./lib/migrations.ts";
import { bin, root } from "./lib/paths.ts";
import { run } from "./lib/run.ts";

function fail(message: string): never {
  console.error(`✖ ${message}`);
  process.exit(1);
}

const tags = migrationTags();
const journaled = readJournal()?.entries.map((entry) => entry.tag) ?? [];
if (JSON.stringify(journaled) !== JSON.stringify(tags)) {
  const missing = tags.filter((tag) => !journaled.includes(tag));
  const extra = journaled.filter((tag) => !tags.includes(tag));
  fail(
    `migrations/meta/_journal.json does not list the migrations as they are (missing: ${missing.join(", ") || "none"}; ` +
      `without a file: ${extra.join(", ") || "none"}). Run \`npm run db:snapshot\` (docs/operations.md, Changing the schema).`,
  );
}

run(bin("drizzle-kit"), ["check"], {}, true);

const latestSnapshot = snapshotFiles().at(-1);
if (!latestSnapshot) fail("migrations/meta has no snapshot: run `npm run db:snapshot`.");
const unsafe = dropsThatTouchChildren(
  tags.map((tag) => ({ tag, sql: readFileSync(join(migrationsDir, `${tag}.sql`), "utf8") })),
  readSnapshot(latestSnapshot.file),
);
if (unsafe.length > 0) {
  fail(
    `${unsafe.join("\n")}\nOn D1 a migration cannot switch foreign keys off, so DROP TABLE runs those ON DELETE actions. ` +
      "Keep the rows in the same migration, then mark it `-- keeps-children: <table>` (docs/operations.md, Changing the schema).",
  );
}

/** What `drizzle-kit generate` says about the schema against the latest snapshot, on a throw-away copy. */
function generateProblem(): string | null {
  const { path: out, relativePath } = scratchOutDir("db-check");
  try {
    cpSync(metaDir, join(out, "meta"), { recursive: true });
    const result = spawnSync(
      bin("drizzle-kit"),
      ["generate", "--dialect", "sqlite", "--schema", schemaFile, "--out", relativePath],
      { cwd: root, encoding: "utf8" },
    );
    const said = `${result.stdout}${result.stderr}`;
    // drizzle-kit can print an error and still exit 0: only its own "nothing to migrate" counts as agreement.
    if (result.status !== 0 || /error/i.test(said)) return `drizzle-kit generate failed:\n${said}`;
    const written = readdirSync(out).filter((file) => file.endsWith(".sql"));
    if (written.length > 0) {
      const sql = written.map((file) => readFileSync(join(out, file), "utf8")).join("\n");
      return (
        `${schemaFile} differs from the latest snapshot: drizzle-kit would write this migration:\n\n${sql}\n` +
        "Run `npm run db:generate` (or `npm run db:snapshot` if a hand-written migration already does this)."
      );
    }
    return said.includes("No schema changes") ? null : `drizzle-kit generate did not confirm the schema:\n${said}`;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const problem = generateProblem();
if (problem) fail(problem);
console.log(`✓ ${tags.length} migrations journaled, snapshots consistent, ${schemaFile} matches the latest snapshot.`);
