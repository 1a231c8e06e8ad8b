/** Seeds demo data into a local database that has no users yet. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO_ADMIN, DEMO_BUYER, demoCallbacksSql, demoLeadsSql, insertUserSql } from "./demo-data.ts";
import { DEMO_PARTNER, DEMO_PARTNER_KEY, demoTransfersSql } from "./demo-transfers.ts";
import { type D1Target, d1ExecuteFile, d1Query } from "./lib/d1.ts";

export async function seedIfEmpty(target: D1Target): Promise<boolean> {
  const [row] = d1Query<{ users: number }>("SELECT count(*) AS users FROM users", target);
  if ((row?.users ?? 0) > 0) return false;
  const statements = [
    await insertUserSql(DEMO_ADMIN),
    await insertUserSql(DEMO_BUYER),
    ...demoLeadsSql(),
    ...demoCallbacksSql(),
    ...(await demoTransfersSql()),
  ];
  const file = join(mkdtempSync(join(tmpdir(), "leads-seed-")), "seed.sql");
  writeFileSync(file, statements.join("\n"));
  d1ExecuteFile(file, target);
  return true;
}

export function printDemoLogins(): void {
  console.log("\n  Demo logins (local only):");
  console.log(`    admin  username ${DEMO_ADMIN.username}  password ${DEMO_ADMIN.password}`);
  console.log(`    buyer  username ${DEMO_BUYER.username}  password ${DEMO_BUYER.password}`);
  console.log(`    partner  username ${DEMO_PARTNER.username}  password ${DEMO_PARTNER.password}`);
  console.log(`    partner API key ${DEMO_PARTNER_KEY}`);
  console.log(`    try: npm run simulate:calls -- --partner ${DEMO_PARTNER_KEY} --rate 20/min --minutes 5\n`);
}
