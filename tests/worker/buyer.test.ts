import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { agedLeads, orders } from "../../worker/db/schema";
import { createLead, createLeads, testDb } from "./factories";
import { endLeadHold } from "./factories/state";
import { callApi, expectSignedInOnly, signedIn } from "./helpers";
import { payWithCard } from "./payment-fixtures";

const DAY = 86_400_000;
/** Filled in `days` ago less a minute, so "age in days, rounded up" reads exactly `days`. */
const filledDaysAgo = (days: number) => new Date(Date.now() - days * DAY + 60_000);

describe("GET /api/aged-leads", () => {
  it("needs a session", () => expectSignedInOnly("/api/aged-leads"));

  it("pages 50 at a time, newest first, with masked previews priced by age", async () => {
    const { cookie } = await signedIn();
    const now = Date.now();
    const ids = await createLeads(testDb(), 55, (i) => ({
      state: "QA",
      formFillTime: filledDaysAgo(70),
      phone: `31255500${String(i).padStart(2, "0")}`,
      createdAt: new Date(now + i),
    }));
    const first = await (await callApi("/api/aged-leads?location=QA", { cookie })).json<
      Record<string, unknown> & { items: Record<string, unknown>[] }
    >();
    expect(first).toMatchObject({ total: 55, page: 1, pageSize: 50, pageCount: 2 });
    expect(first.items).toHaveLength(50);
    expect(first.items[0]).toEqual({
      id: ids[54],
      name: "Mary J.",
      phone: "(312) ***-****",
      state: "QA",
      currentAgeRange: "60-90",
      actualAge: 70,
      formFillTime: expect.any(String),
      currentPrice: 4,
      price: 4,
      priceCents: 400,
      certified: false,
      // Its calling line at the wall clock (tests/worker/callable.test.ts checks it at fixed clocks).
      callable: expect.objectContaining({ timeZone: "America/Chicago", label: expect.stringMatching(/^Callable /) }),
    });
    expect(JSON.stringify(first)).not.toContain("mary@example.com");
    const second = await (await callApi("/api/aged-leads?location=QA&page=2", { cookie })).json<{ items: unknown[] }>();
    expect(second.items).toHaveLength(5);
  });

  it("filters by state, area code and 5-digit terms, case-insensitively", async () => {
    const { cookie } = await signedIn();
    const db = testDb();
    await createLead(db, { state: "Wyoming", phone: "3075550001" });
    await createLead(db, { state: "WX", phone: "7195550002" });
    const count = async (location: string) =>
      (
        await (
          await callApi(`/api/aged-leads?location=${encodeURIComponent(location)}`, { cookie })
        ).json<{ total: number }>()
      ).total;
    expect(await count("wyo")).toBe(1);
    expect(await count("719")).toBe(1);
    expect(await count("wyo, 719")).toBe(2);
    const all = await count("");
    expect(await count("12345")).toBe(all);
  });

  it("refuses a page that is not a number", async () => {
    const { cookie } = await signedIn();
    const response = await callApi("/api/aged-leads?page=abc", { cookie });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ message: "Page must be a whole number" });
  });
});

describe("POST /api/bulk-purchase-leads", () => {
  beforeAll(async () => {
    await createLead(testDb());
  });

  it("needs a session", () => expectSignedInOnly("/api/bulk-purchase-leads", { json: { leadIds: ["x"] } }));

  it("reserves the leads, prices them on the server, and sells them on payment", async () => {
    const { user, cookie } = await signedIn();
    const db = testDb();
    const young = await createLead(db, { formFillTime: filledDaysAgo(10) });
    const old = await createLead(db, { formFillTime: filledDaysAgo(120) });
    const custom = await createLead(db, { formFillTime: filledDaysAgo(10), priceCents: 725 });
    const response = await callApi("/api/bulk-purchase-leads", {
      json: { leadIds: [young.id, old.id, custom.id] },
      cookie,
    });
    expect(response.status).toBe(200);
    const start = await response.json<{ clientSecret: string; orderId: string; amountCents: number; count: number }>();
    expect(start).toMatchObject({ amountCents: 500 + 300 + 725, count: 3, currency: "usd" });

    const listed = await (await callApi("/api/aged-leads", { cookie })).json<{ items: { id: string }[] }>();
    expect(listed.items.map((lead) => lead.id)).not.toContain(young.id);

    expect(await callApi("/api/my-leads", { cookie }).then((r) => r.json())).toMatchObject({ items: [], total: 0 });
    expect((await payWithCard(start.clientSecret)).status).toBe(200);
    const mine = (
      await (
        await callApi("/api/my-leads", { cookie })
      ).json<{ items: { id: string; email: string; phone: string }[] }>()
    ).items;
    expect(mine.map((lead) => lead.id).sort()).toEqual([young.id, old.id, custom.id].sort());
    expect(mine[0]).toMatchObject({ email: "mary@example.com", phone: expect.stringMatching(/^\d{10}$/) });
    const [sold] = await testDb()
      .select({ soldToUserId: agedLeads.soldToUserId })
      .from(agedLeads)
      .where(eq(agedLeads.id, young.id));
    expect(sold).toEqual({ soldToUserId: user.id });
  });

  it("is all or nothing: one taken lead refuses the whole purchase with 409 naming it", async () => {
    const first = await signedIn();
    const second = await signedIn();
    const db = testDb();
    const { id: a } = await createLead(db, { name: "Rosalind Quartermaine" });
    const { id: b } = await createLead(db);
    expect((await callApi("/api/bulk-purchase-leads", { json: { leadIds: [a] }, cookie: first.cookie })).status).toBe(
      200,
    );
    const conflict = await callApi("/api/bulk-purchase-leads", { json: { leadIds: [a, b] }, cookie: second.cookie });
    expect(conflict.status).toBe(409);
    const body = await conflict.json<{ message: string; unavailable: string[] }>();
    expect(body.unavailable).toEqual([a]);
    // Named as the list showed it (masked), never by its id.
    expect(body.message).toBe(
      "Another buyer just bought or reserved these leads, so we took them out of your selection: Rosalind Q.",
    );
    // b was not left reserved by the refused attempt.
    expect((await callApi("/api/bulk-purchase-leads", { json: { leadIds: [b] }, cookie: second.cookie })).status).toBe(
      200,
    );
  });

  it("lets expired reservations go back to the list", async () => {
    const first = await signedIn();
    const second = await signedIn();
    const { id: lead } = await createLead(testDb());
    await callApi("/api/bulk-purchase-leads", { json: { leadIds: [lead] }, cookie: first.cookie });
    await endLeadHold(testDb(), lead);
    expect(
      (await callApi("/api/bulk-purchase-leads", { json: { leadIds: [lead] }, cookie: second.cookie })).status,
    ).toBe(200);
  });

  it("never sells a lead twice", async () => {
    const first = await signedIn();
    const second = await signedIn();
    const { id: lead } = await createLead(testDb());
    const start = await (
      await callApi("/api/bulk-purchase-leads", { json: { leadIds: [lead] }, cookie: first.cookie })
    ).json<{ clientSecret: string }>();
    await payWithCard(start.clientSecret);
    const again = await callApi("/api/bulk-purchase-leads", { json: { leadIds: [lead] }, cookie: second.cookie });
    expect(again.status).toBe(409);
  });

  it.each([
    [{ leadIds: [] }, "Please select at least one lead to purchase."],
    [{}, "Please select at least one lead to purchase."],
    [{ leadIds: ["no-such-lead"] }, "Unknown leads: no-such-lead"],
  ])("refuses %j", async (json, message) => {
    const { cookie } = await signedIn();
    const response = await callApi("/api/bulk-purchase-leads", { json, cookie });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ message });
  });
});

describe("My Leads and My Orders", () => {
  it("need a session", async () => {
    await expectSignedInOnly("/api/my-leads");
    await expectSignedInOnly("/api/my-leads.csv");
    await expectSignedInOnly("/api/my-orders");
  });

  it("show only the buyer's own leads and orders, with a CSV export", async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const { id: lead } = await createLead(testDb(), { name: "=cmd Smith" });
    const start = await (
      await callApi("/api/bulk-purchase-leads", { json: { leadIds: [lead] }, cookie: owner.cookie })
    ).json<{ clientSecret: string; orderId: string }>();
    await payWithCard(start.clientSecret);

    expect(await (await callApi("/api/my-leads", { cookie: other.cookie })).json()).toEqual({
      items: [],
      total: 0,
      page: 1,
      pageSize: 50,
      pageCount: 1,
    });
    expect(await (await callApi("/api/my-orders", { cookie: other.cookie })).json()).toEqual([]);

    const csv = await callApi("/api/my-leads.csv", { cookie: owner.cookie });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.headers.get("content-disposition")).toContain("attachment");
    const text = await csv.text();
    expect(text.split("\r\n")[0]).toBe(
      "Name,Phone,Email,State,Form fill time,Purchased at,Order,Time zone,Callable,Opt-in time (UTC),Opt-in page URL,Consent text or version,IP address,TrustedForm certificate URL,Jornaya LeadiD,Certificate",
    );
    expect(text).toContain(`"'=cmd Smith"`);

    const orders = await (await callApi("/api/my-orders", { cookie: owner.cookie })).json<
      { id: string; status: string; kind: string }[]
    >();
    expect(orders).toEqual([expect.objectContaining({ id: start.orderId, status: "paid", kind: "aged-leads" })]);
  });
});

describe("POST /api/call-transfer-order", () => {
  const form = {
    totalTransfers: 10,
    callsPerDay: 2,
    transferHours: "9-5",
    transferPhone: "5551112222",
    workingStates: "tx, fl",
    leadType: "Live Transfers",
  };

  it("needs a session", () => expectSignedInOnly("/api/call-transfer-order", { json: { ...form, price: 350 } }));

  it("prices $35 a transfer on the server and keeps the order's details", async () => {
    const { user, cookie } = await signedIn();
    const response = await callApi("/api/call-transfer-order", { json: { ...form, price: 350 }, cookie });
    expect(response.status).toBe(200);
    const start = await response.json<{ orderId: string; amountCents: number; clientSecret: string }>();
    expect(start.amountCents).toBe(35_000);
    const [order] = await testDb()
      .select({ kind: orders.kind, userId: orders.userId, details: orders.details, totalCents: orders.totalCents })
      .from(orders)
      .where(eq(orders.id, start.orderId));
    expect(order).toMatchObject({ kind: "transfer", userId: user.id, totalCents: 35_000 });
    expect(order?.details ?? {}).toMatchObject({
      selectedStates: ["TX", "FL"],
      transferPhone: "5551112222",
      leadType: "Live Transfers",
    });
  });

  it("refuses a tampered price", async () => {
    const { cookie } = await signedIn();
    const response = await callApi("/api/call-transfer-order", { json: { ...form, price: 1 }, cookie });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: "The price does not match this order ($350.00)." });
  });

  it.each([
    ["totalTransfers", 0, "Must be at least 1 transfer"],
    ["callsPerDay", 0, "Must be at least 1 call per day"],
    ["transferHours", "", "Please specify transfer hours"],
    ["transferPhone", "555", "Phone number must be at least 10 digits"],
    ["workingStates", " ", "Please specify working states"],
  ])("refuses %s = %j with '%s'", async (field, value, message) => {
    const { cookie } = await signedIn();
    const response = await callApi("/api/call-transfer-order", {
      json: { ...form, price: 350, [field]: value },
      cookie,
    });
    expect(response.status).toBe(400);
    expect((await response.json<{ errors: Record<string, string> }>()).errors[field]).toBe(message);
  });
});
