/**
 * Seeds demo data into a local database that has no users yet, through the app's data layer: drizzle over
 * the D1 binding (bound parameters, the schema's own tables and defaults), opened with Miniflare's
 * documented API on the same local state the server uses (decision 0035).
 */
import { count } from "drizzle-orm";
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import type { SQLiteInsertValue, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "../worker/db/schema/index.ts";
import { DEMO_ADMIN, DEMO_BUYER, demoCallbacks, demoLeads, userRow } from "./demo-data.ts";
import { DEMO_PARTNER, DEMO_PARTNER_KEY, demoTransferRows } from "./demo-transfers.ts";
import { withLocalD1 } from "./lib/local-d1.ts";

type Database = DrizzleD1Database<typeof schema>;

/** Inserts the demo accounts, leads, callbacks and live-transfer orders in one D1 batch (all or nothing). */
export async function seedDemo(db: Database): Promise<void> {
  const [admin, buyer, partner] = await Promise.all([DEMO_ADMIN, DEMO_BUYER, DEMO_PARTNER].map(userRow));
  if (!admin?.id || !buyer?.id || !partner?.id) throw new Error("demo users have ids");
  const transfers = await demoTransferRows(partner.id, buyer.id);
  const callbacks = demoCallbacks(buyer.id);
  // One row per statement: every statement stays far below D1's 100 bound parameters.
  const rows = <T extends SQLiteTable>(table: T, values: SQLiteInsertValue<T>[]) =>
    values.map((value) => db.insert(table).values(value));
  await db.batch([
    db.insert(schema.users).values(admin),
    db.insert(schema.users).values(buyer),
    db.insert(schema.users).values({ ...partner, accountType: "partner" }),
    ...rows(schema.agedLeads, demoLeads()),
    ...rows(schema.orders, callbacks.orders),
    ...rows(schema.callbackOpportunities, callbacks.callbacks),
    ...rows(schema.partners, transfers.partners),
    ...rows(schema.apiKeys, transfers.apiKeys),
    ...rows(schema.orders, transfers.orders),
    ...rows(schema.orderDelivery, transfers.orderDelivery),
    ...rows(schema.orderDeliveryStates, transfers.orderDeliveryStates),
    ...rows(schema.orderAgents, transfers.orderAgents),
    ...rows(schema.transfers, transfers.transfers),
  ]);
}

/** Seeds a migrated database when it has no users; answers whether it did. */
export async function seedDatabaseIfEmpty(d1: D1Database): Promise<boolean> {
  const db = drizzle(d1, { schema });
  const [row] = await db.select({ users: count() }).from(schema.users);
  if ((row?.users ?? 0) > 0) return false;
  await seedDemo(db);
  return true;
}

/** Seeds the local database of `persistTo` (default .wrangler/state) when it has no users; answers whether it did. */
export async function seedIfEmpty(persistTo?: string): Promise<boolean> {
  return withLocalD1(persistTo, seedDatabaseIfEmpty);
}

export function printDemoLogins(): void {
  console.log("\n  Demo logins (local only):");
  console.log(`    admin  username ${DEMO_ADMIN.username}  password ${DEMO_ADMIN.password}`);
  console.log(`    buyer  username ${DEMO_BUYER.username}  password ${DEMO_BUYER.password}`);
  console.log(`    partner  username ${DEMO_PARTNER.username}  password ${DEMO_PARTNER.password}`);
  console.log(`    partner API key ${DEMO_PARTNER_KEY}`);
  console.log(`    try: npm run simulate:calls -- --partner ${DEMO_PARTNER_KEY} --rate 20/min --minutes 5\n`);
}
