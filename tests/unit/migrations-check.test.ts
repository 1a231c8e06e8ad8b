/**
 * `npm run db:check` refuses a migration that drops a table other tables reference with ON DELETE CASCADE
 * or SET NULL (drizzle-kit's table rebuild): on D1 foreign keys stay on inside a migration, so the drop
 * deletes or clears the children's rows (decision 0036).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  dropsThatTouchChildren,
  migrationsDir,
  migrationTags,
  readSnapshot,
  snapshotFiles,
} from "../../scripts/lib/migrations.ts";

const latest = snapshotFiles().at(-1);
if (!latest) throw new Error("migrations/meta has a snapshot");
const snapshot = readSnapshot(latest.file);

const rebuild = (table: string) =>
  `PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE \`__new_${table}\` (\`id\` text PRIMARY KEY NOT NULL);--> statement-breakpoint
INSERT INTO \`__new_${table}\`("id") SELECT "id" FROM \`${table}\`;--> statement-breakpoint
DROP TABLE \`${table}\`;--> statement-breakpoint
ALTER TABLE \`__new_${table}\` RENAME TO \`${table}\`;`;

describe("db:check and table rebuilds", () => {
  it("refuses drizzle-kit's rebuild of a table whose rows others cascade from", () => {
    const problems = dropsThatTouchChildren([{ tag: "0099_transfer_status", sql: rebuild("transfers") }], snapshot);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^0099_transfer_status drops transfers, which would delete or clear rows of /);
    expect(problems[0]).toContain("transfer_events (on delete cascade)");
    expect(problems[0]).toContain("returns (on delete cascade)");
  });

  it("lets a rebuild through when nothing references the table, or when the migration keeps the rows", () => {
    expect(dropsThatTouchChildren([{ tag: "0099", sql: rebuild("single_use_tokens") }], snapshot)).toEqual([]);
    const kept = `-- keeps-children: transfers\n${rebuild("transfers")}`;
    expect(dropsThatTouchChildren([{ tag: "0099", sql: kept }], snapshot)).toEqual([]);
  });

  it("finds nothing in the released migrations", () => {
    const migrations = migrationTags().map((tag) => ({
      tag,
      sql: readFileSync(join(migrationsDir, `${tag}.sql`), "utf8"),
    }));
    expect(migrations.length).toBeGreaterThanOrEqual(14);
    expect(dropsThatTouchChildren(migrations, snapshot)).toEqual([]);
  });
});
