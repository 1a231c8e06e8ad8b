/**
 * `npm run db:snapshot`: rebuilds migrations/meta from the migrations and the schema, so that drizzle-kit
 * knows every migration and diffs the next change against today's schema (decision 0036).
 *
 * - `_journal.json` gets one entry per SQL file, in file-name order (kept entries keep their time; new
 *   ones take the time git first saw the file).
 * - The latest migration's snapshot is drizzle-kit's own snapshot of worker/db/schema/, chained to the
 *   last earlier snapshot; snapshots that do not chain (two branches that each generated one) are removed.
 *
 * Run it after merging branches that added migrations, after hand-written SQL, or whenever
 * `npm run db:check` says the journal is behind. It writes no SQL: that the schema and the migrations
 * describe the same database is what tests/worker/schema.test.ts checks. Idempotent.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type JournalEntry,
  journalFile,
  metaDir,
  migrationsDir,
  migrationTags,
  readJournal,
  readSnapshot,
  type Snapshot,
  schemaFile,
  scratchOutDir,
  snapshotFileOf,
  snapshotFiles,
  ZERO_ID,
} from "./lib/migrations.ts";
import { bin, root } from "./lib/paths.ts";
import { run } from "./lib/run.ts";

/** When git first saw the file (ms), if it did. */
function firstCommitted(tag: string): number | undefined {
  const result = spawnSync("git", ["log", "--diff-filter=A", "--format=%ct", "--", join(migrationsDir, `${tag}.sql`)], {
    cwd: root,
    encoding: "utf8",
  });
  const seconds = Number(result.stdout.trim().split("\n").at(-1));
  return result.status === 0 && seconds > 0 ? seconds * 1000 : undefined;
}

function journalEntries(tags: string[]): JournalEntry[] {
  const known = new Map(readJournal()?.entries.map((entry) => [entry.tag, entry]));
  let previous = 0;
  return tags.map((tag, idx) => {
    const when = Math.max(known.get(tag)?.when ?? firstCommitted(tag) ?? Date.now(), previous + 1);
    previous = when;
    return { idx, version: "6", when, tag, breakpoints: true };
  });
}

/** drizzle-kit's snapshot of the schema, made in an empty folder (its SQL is thrown away). */
function schemaSnapshot(): Snapshot {
  const { path: out, relativePath } = scratchOutDir("db-snapshot");
  try {
    run(
      bin("drizzle-kit"),
      ["generate", "--dialect", "sqlite", "--schema", schemaFile, "--out", relativePath],
      {},
      true,
    );
    const meta = join(out, "meta");
    const [file] = readdirSync(meta).filter((name) => name.endsWith("_snapshot.json"));
    if (!file) throw new Error("drizzle-kit wrote no snapshot");
    return readSnapshot(join(meta, file));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The value with every object's keys sorted: drizzle-kit lists tables in the order it loads the schema files. */
const sortedKeys = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sortedKeys)
    : value !== null && typeof value === "object"
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
        )
      : value;

const sameSchema = (a: Snapshot, b: Snapshot) =>
  JSON.stringify(sortedKeys({ ...a, id: "", prevId: "" })) === JSON.stringify(sortedKeys({ ...b, id: "", prevId: "" }));

const tags = migrationTags();
const latest = tags.length - 1;
if (latest < 0) throw new Error(`No migrations in ${migrationsDir}`);
mkdirSync(metaDir, { recursive: true });

// Earlier snapshots stay while they chain from the first; any other is stale (or a second branch's twin).
let chainId = ZERO_ID;
let existingLatest: Snapshot | undefined;
for (const { index, file } of snapshotFiles()) {
  const snapshot = readSnapshot(file);
  if (index === latest && snapshot.prevId === chainId) {
    existingLatest = snapshot;
    continue;
  }
  if (index < latest && snapshot.prevId === chainId) {
    chainId = snapshot.id;
    continue;
  }
  console.log(`  removing ${file.slice(root.length + 1)} (not in the chain of snapshots)`);
  rmSync(file);
}

const current = schemaSnapshot();
const snapshot =
  existingLatest && existingLatest.prevId === chainId && sameSchema(existingLatest, current)
    ? existingLatest
    : { ...current, id: crypto.randomUUID(), prevId: chainId };
writeFileSync(snapshotFileOf(latest), `${JSON.stringify(snapshot, null, 2)}\n`);
writeFileSync(
  journalFile,
  `${JSON.stringify({ version: "7", dialect: "sqlite", entries: journalEntries(tags) }, null, 2)}\n`,
);
console.log(
  `migrations/meta: ${tags.length} migrations in the journal, snapshot of ${schemaFile} as ${tags[latest]}` +
    (snapshot === existingLatest ? " (unchanged)." : "."),
);
