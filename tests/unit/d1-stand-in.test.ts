/**
 * The browser tests arrange rows with the Worker tests' drizzle factories over node:sqlite
 * (tests/e2e/d1-stand-in.ts, decision 0067): the same factories, on a database migrated as D1 is.
 */
import { readdirSync, readFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import * as schema from "../../worker/db/schema";
import { d1StandIn } from "../e2e/d1-stand-in";
import { type Database, startSequenceAt } from "../worker/factories/db";
import { createLead } from "../worker/factories/leads";
import { createCallbackOrder, createOpenOrder } from "../worker/factories/orders";
import { createPartner } from "../worker/factories/partners";
import { createBuyer } from "../worker/factories/users";

function migrated(): { file: DatabaseSync; db: Database } {
  const file = new DatabaseSync(":memory:");
  for (const name of readdirSync("migrations")
    .filter((entry) => entry.endsWith(".sql"))
    .sort()) {
    file.exec(readFileSync(`migrations/${name}`, "utf8"));
  }
  return { file, db: drizzle(d1StandIn(file) as unknown as Parameters<typeof drizzle>[0], { schema }) };
}

describe("the Worker factories over node:sqlite", () => {
  it("write users, leads, orders with delivery settings and partners with a key, read back through drizzle", async () => {
    const { file, db } = migrated();
    startSequenceAt(41_000_000);
    const buyer = await createBuyer(db);
    expect(buyer.username).toBe("buyer41000001");
    const lead = await createLead(db, { state: "FL" });
    expect(lead.phone).toBe("2641000002");
    // D1's triggers ran here too: the area code comes from the phone.
    expect(file.prepare("SELECT area_code, state FROM aged_leads WHERE id = ?").get(lead.id)).toEqual({
      area_code: "264",
      state: "FL",
    });
    const order = await createOpenOrder(db, { userId: buyer.id, quantity: 3 }, { states: ["fl", "TX"] });
    const delivery = await db.query.orderDelivery.findFirst({ where: eq(schema.orderDelivery.orderId, order.id) });
    expect(delivery?.setupStatus).toBe("ready");
    expect(delivery?.transfersTotal).toBe(3);
    expect(
      file.prepare("SELECT state FROM order_delivery_states WHERE order_id = ? ORDER BY state").all(order.id),
    ).toEqual([{ state: "FL" }, { state: "TX" }]);
    expect((await createCallbackOrder(db)).kind).toBe("survey");
    const partner = await createPartner(db);
    expect(partner.key).toMatch(/^\S{20,}$/);
    expect(file.prepare("SELECT count(*) AS keys FROM api_keys WHERE partner_id = ?").get(partner.id)).toEqual({
      keys: 1,
    });
  });

  it("runs a batch as one transaction: a failing statement leaves none of its batch", async () => {
    const { file, db } = migrated();
    const buyer = await createBuyer(db);
    const insert = (id: string) =>
      db.insert(schema.users).values({ id, username: id, email: `${id}@example.com`, passwordHash: "x" });
    await expect(db.batch([insert("first-of-batch"), insert(buyer.id)])).rejects.toThrow();
    expect(file.prepare("SELECT count(*) AS n FROM users WHERE id = 'first-of-batch'").get()).toEqual({ n: 0 });
  });
});
