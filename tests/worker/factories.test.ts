/** The test data factories (decision 0067): unique defaults, typed overrides, rows the app reads as its own. */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { agedLeads, callbackOpportunities, orderDelivery, users } from "../../worker/db/schema";
import {
  createAdmin,
  createAgedLeadOrder,
  createBuyer,
  createCallback,
  createCallbackOrder,
  createLead,
  createLeads,
  createOpenOrder,
  createOrder,
  createPartner,
  createTransfer,
  testDb,
} from "./factories";
import { callApi, login } from "./helpers";

describe("test data factories", () => {
  it("make buyers and admins with unique names who can sign in", async () => {
    const db = testDb();
    const [first, second] = [await createBuyer(db), await createBuyer(db)];
    expect(first.username).not.toBe(second.username);
    expect(first.email).not.toBe(second.email);
    const admin = await createAdmin(db, { firstName: "Ada", password: "admin-password-1" });
    expect(admin).toMatchObject({ isAdmin: true, firstName: "Ada", accountType: "buyer" });
    const cookie = await login(admin);
    expect((await callApi("/api/admin/returns", { cookie })).status).toBe(200);
    expect((await callApi("/api/admin/returns", { cookie: await login(first) })).status).toBe(403);
  });

  it("make a partner whose API key the partner API takes", async () => {
    const db = testDb();
    const partner = await createPartner(db, { dailyCallCap: 7, user: { firstName: "Pat" } });
    expect(partner.row.dailyCallCap).toBe(7);
    expect(partner.owner.dailyCallCap).toBe(7);
    const [user] = await db.select().from(users).where(eq(users.id, partner.user.id));
    expect(user).toMatchObject({ accountType: "partner", firstName: "Pat" });
    // Authorized (404: no such transfer), where no key is 401.
    expect((await callApi("/api/v1/transfers/none", { headers: partner.auth })).status).toBe(404);
    expect((await callApi("/api/v1/transfers/none")).status).toBe(401);
  });

  it("make orders of each kind, a fresh buyer's unless told, the total following quantity and price", async () => {
    const db = testDb();
    const buyer = await createBuyer(db);
    const transfer = await createOrder(db, { quantity: 3, userId: buyer.id });
    expect(transfer).toMatchObject({ kind: "transfer", status: "paid", quantity: 3, totalCents: 15_000 });
    expect(transfer.userId).toBe(buyer.id);
    expect((await createOrder(db)).userId).not.toBe(buyer.id);
    expect(await createAgedLeadOrder(db, { quantity: 4 })).toMatchObject({ kind: "aged-leads", totalCents: 2000 });
    expect(await createCallbackOrder(db, { quantity: 2 })).toMatchObject({
      kind: "survey",
      totalCents: 3000,
      details: { leadType: "Call-Backs", totalCallbacks: 2 },
    });
    const open = await createOpenOrder(db, { quantity: 2 }, { states: ["TX"], perDayCap: 1 });
    const [delivery] = await db.select().from(orderDelivery).where(eq(orderDelivery.orderId, open.id));
    expect(delivery).toMatchObject({ setupStatus: "ready", states: ["TX"], perDayCap: 1, transfersTotal: 2 });
  });

  it("make listed leads on distinct US phones, one or many, with the app's derived columns", async () => {
    const db = testDb();
    const lead = await createLead(db, { state: "QF" });
    const ids = await createLeads(db, 30, (i) => ({ state: "QF", withheld: i === 0 }));
    const rows = await db.select().from(agedLeads).where(eq(agedLeads.state, "QF"));
    expect(rows).toHaveLength(31);
    expect(new Set(rows.map((row) => row.phone)).size).toBe(31);
    expect(rows.find((row) => row.id === lead.id)).toMatchObject({ areaCode: "260", suppressedAt: null });
    expect(rows.find((row) => row.id === ids[0])?.withheld).toBe(true);
    const buyer = await createBuyer(db);
    const page = await callApi("/api/aged-leads?location=QF", { cookie: await login(buyer) });
    expect((await page.json<{ total: number }>()).total).toBe(30);
  });

  it("make a delivered transfer with its partner and order, and a call-back", async () => {
    const db = testDb();
    const transfer = await createTransfer(db, { durationSeconds: 90, billable: false });
    expect(transfer).toMatchObject({ status: "completed", durationSeconds: 90, billable: false });
    expect(transfer.buyerUserId).toEqual(expect.any(String));
    const partner = await createPartner(db);
    const again = await createTransfer(db, { partnerId: partner.id, orderId: transfer.orderId });
    expect(again.orderId).toBe(transfer.orderId);
    expect(again.phone).not.toBe(transfer.phone);
    const read = await callApi(`/api/v1/transfers/${again.id}`, { headers: partner.auth });
    expect(read.status).toBe(200);

    const callback = await createCallback(db, { kind: "appointment", state: "FL" });
    const [row] = await db.select().from(callbackOpportunities).where(eq(callbackOpportunities.id, callback.id));
    expect(row).toMatchObject({ kind: "appointment", state: "FL", orderId: null, phoneKey: Number(callback.phone) });
  });
});
