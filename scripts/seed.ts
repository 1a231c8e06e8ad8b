/** Seeds demo data into a local database that has no users yet. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO_ADMIN, DEMO_BUYER, demoCallbacksSql, demoLeadsSql, insertUserSql } from "./demo-data.ts";
import { type D1Target, d1ExecuteFile, d1Query } from "./lib.ts";

export async function seedIfEmpty(target: D1Target): Promise<boolean> {
  const [row] = d1Query<{ users: number }>("SELECT count(*) AS users FROM users", target);
  if ((row?.users ?? 0) > 0) return false;
  const statements = [
    await insertUserSql(DEMO_ADMIN),
    await insertUserSql(DEMO_BUYER),
    ...demoLeadsSql(),
    ...demoCallbacksSql(),
  ];
  const file = join(mkdtempSync(join(tmpdir(), "leads-seed-")), "seed.sql");
  writeFileSync(file, statements.join("\n"));
  d1ExecuteFile(file, target);
  return true;
}

export function printDemoLogins(): void {
  console.log("\n  Demo logins (local only):");
  console.log(`    admin  username ${DEMO_ADMIN.username}  password ${DEMO_ADMIN.password}`);
  console.log(`    buyer  username ${DEMO_BUYER.username}  password ${DEMO_BUYER.password}\n`);
}
