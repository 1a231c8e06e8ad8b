/**
 * The local server fires the Worker's cron triggers on their schedule: a server of its own,
 * its cron set to every second, cancels an aged-lead reservation that ran out unpaid, through the built
 * Worker's real `scheduled` handler. (No browser: plain D1 reads of the server's state, through node:sqlite as
 * tests/e2e/database.ts reads the main server's.) Its server and state are its own, so it runs with the audits.
 */
import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { withLocalD1 } from "../../scripts/lib/local-d1.ts";
import { type LocalServer, startLocalServer } from "../../scripts/local-server.ts";
import { orders } from "../../worker/db/schema";
import { BALANCE_INTENT_PREFIX } from "../../worker/features/orders/orders";
import { d1StandIn } from "./d1-stand-in";
import { openD1 } from "./database";
import { expect, test } from "./fixtures";

const EVERY_SECOND = "* * * * * *";
const orderId = `cron-${crypto.randomUUID()}`;
let server: LocalServer | undefined;

test.afterAll(() => server?.stop());

test("the crons run on their schedule: a reservation that ran out unpaid is cancelled", async () => {
  // Migrating and seeding its own state takes most of it (over a minute on a loaded 2-core machine).
  test.setTimeout(180_000);
  server = await startLocalServer(
    "crons-state",
    {},
    {
      crons: [EVERY_SECOND],
      // A reservation paid from the balance only (no card intent to cancel), started 20 minutes ago.
      beforeStart: (persistTo) =>
        withLocalD1(persistTo, async (d1) => {
          await drizzle(d1)
            .insert(orders)
            .values({
              id: orderId,
              kind: "aged-leads",
              quantity: 1,
              unitPriceCents: 500,
              totalCents: 500,
              paymentIntentId: `${BALANCE_INTENT_PREFIX}${orderId}`,
              status: "pending",
              createdAt: new Date(Date.now() - 20 * 60_000),
            });
        }),
    },
  );
  const { persistTo, logFile } = server;
  const d1 = openD1(persistTo);
  const db = drizzle(d1StandIn(d1) as unknown as Parameters<typeof drizzle>[0]);
  const status = async () => (await db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)))[0];
  try {
    await expect.poll(status, { timeout: 60_000, intervals: [250] }).toEqual({ status: "cancelled" });
  } finally {
    d1.close();
  }
  const log = () => readFileSync(logFile, "utf8");
  await expect.poll(log).toContain("Cancelled the payments of 1 expired reservations");
  // The start-up sweep may have cancelled it already: the every-second cron still fires, and says so.
  await expect.poll(log).toMatch(/\[cron \* \* \* \* \* \*\] \d{4}-\d\d-\d\dT[\d:.]+Z ok/);
});
