/**
 * The admin's callbacks tab (docs/decisions/0059): a call-back or an appointment typed in by an admin is
 * checked by `callbackOpportunitySchema`, scrubbed and placed by the call-back service exactly like a
 * partner's (docs/decisions/0058), at the admin's price.
 */

import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { localTime } from "../../../../src/domain/time-zones";
import { closePaidCallbackOrders, testDb } from "../../../../tests/worker/factories";
import { storedRow } from "../../../../tests/worker/factories/rows";
import { callApi, createUser, expectAdminOnly, signedIn } from "../../../../tests/worker/helpers";
import { deps, newPhone } from "../../../../tests/worker/transfer-fixtures";
import { callbackOpportunities, orders } from "../../../db/schema";

const DAY = 86_400_000;
const HOUR = 3_600_000;
const PATH = "/api/admin/callback-opportunities";

/** A local date `days` from now in `zone`, as the form's `date`. */
const dayIn = (days: number, zone = "America/Chicago") => localTime(Date.now() + days * DAY, zone).day;

/** A paid survey "Call-Backs" order (every state, any time) of a fresh buyer. */
async function paidCallbackOrder(quantity = 3) {
  const user = await createUser();
  const id = crypto.randomUUID();
  await deps()
    .db.insert(orders)
    .values({
      id,
      kind: "survey",
      quantity,
      unitPriceCents: 1500,
      totalCents: quantity * 1500,
      userId: user.id,
      details: { leadType: "Call-Backs", totalCallbacks: quantity },
      paymentIntentId: `pi_test_${id}`,
      status: "paid",
      paidAt: new Date(),
    });
  return { id, userId: user.id };
}

function body(overrides: Record<string, unknown> = {}) {
  return {
    name: "Ruth Miller",
    email: "ruth@example.com",
    phone: newPhone(),
    state: "TX",
    price: 12.5,
    kind: "callback",
    date: dayIn(1),
    from: "09:00",
    to: "11:00",
    optInAt: Date.now() - 60_000,
    optInUrl: "https://example.com/quote",
    ...overrides,
  };
}

interface Stored {
  kind: string;
  name: string;
  phone: string;
  time_zone: string;
  window_start: number;
  window_end: number;
  price_cents: number;
  source: string;
  order_id: string | null;
  buyer_user_id: string | null;
  opt_in_url: string | null;
  created_by: string | null;
}

const stored = async (id: string) =>
  ((await storedRow(testDb(), callbackOpportunities, eq(callbackOpportunities.id, id))) ?? null) as Stored | null;
const count = () => testDb().$count(callbackOpportunities);

describe("POST /api/admin/callback-opportunities: call-backs and appointments", () => {
  beforeEach(async () => {
    // No open call-back order and no waiting call-back from another test.
    const db = testDb();
    await db.delete(callbackOpportunities);
    await closePaidCallbackOrders(db);
  });

  it("is for admins only (401 signed out, 403 for a buyer)", () =>
    expectAdminOnly(PATH, { json: body() }).then(async () => expect(await count()).toBe(0)));

  it("stores a call-back with its window in the prospect's zone and places it in a paid call-back order", async () => {
    const { cookie, user } = await signedIn({ isAdmin: true });
    const order = await paidCallbackOrder();
    const response = await callApi(PATH, { json: body({ state: "tx", phone: "(312) 555-0142" }), cookie });
    expect(response.status).toBe(201);
    const added = await response.json<{ message: string; id: string; orderId: string | null; windowStart: string }>();
    expect(added).toMatchObject({ message: "Callback opportunity uploaded successfully", orderId: order.id });
    const row = await stored(added.id);
    expect(row).toMatchObject({
      kind: "callback",
      name: "Ruth Miller",
      phone: "3125550142",
      time_zone: "America/Chicago",
      price_cents: 1250,
      source: "admin",
      order_id: order.id,
      buyer_user_id: order.userId,
      opt_in_url: "https://example.com/quote",
      created_by: user.id,
    });
    expect(localTime(row?.window_start ?? 0, "America/Chicago")).toMatchObject({ day: dayIn(1), minute: 9 * 60 });
    expect((row?.window_end ?? 0) - (row?.window_start ?? 0)).toBe(2 * HOUR);

    const list = await (await callApi(PATH, { cookie })).json<Record<string, unknown>[]>();
    expect(list[0]).toMatchObject({
      id: added.id,
      kind: "callback",
      timeZone: "America/Chicago",
      windowStart: added.windowStart,
      orderId: order.id,
    });
  });

  it("takes an appointment in the zone chosen; with no paid order it waits", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const response = await callApi(PATH, {
      json: body({
        kind: "appointment",
        to: "",
        from: "14:30",
        date: dayIn(2, "America/Denver"),
        timeZone: "America/Denver",
        optInAt: "",
        optInUrl: "",
      }),
      cookie,
    });
    expect(response.status).toBe(201);
    const added = await response.json<{ id: string; orderId: string | null }>();
    expect(added.orderId).toBeNull();
    const row = await stored(added.id);
    expect(row).toMatchObject({ kind: "appointment", time_zone: "America/Denver", order_id: null, opt_in_url: null });
    expect(localTime(row?.window_start ?? 0, "America/Denver").minute).toBe(14 * 60 + 30);
    expect((row?.window_end ?? 0) - (row?.window_start ?? 0)).toBe(30 * 60_000);
    const list = await (await callApi(PATH, { cookie })).json<Record<string, unknown>[]>();
    expect(list[0]).toMatchObject({ id: added.id, kind: "appointment", orderId: null, deliveredAt: null });
  });

  it.each([
    ["a window that has passed", { date: dayIn(-2) }, "date", "Date, From and To: The window has already passed"],
    ["an inverted window", { from: "15:00", to: "10:00" }, "to", "To must be a time after From"],
    ["a call-back without To", { to: "" }, "to", "To is required for a call-back (an appointment takes From only)"],
    ["an unknown zone", { timeZone: "Europe/Paris" }, "timeZone", "Time zone must be one of America/New_York"],
    ["a bad kind", { kind: "visit" }, "kind", "Kind must be one of callback, appointment"],
    ["a bad state", { state: "XX" }, "state", "State must be a two-letter US state code"],
    ["a bad opt-in page", { optInUrl: "ftp://x" }, "optInUrl", "Opt-in page must be a web address"],
    [
      "a placeholder TrustedForm URL",
      { trustedFormUrl: `https://cert.trustedform.com/${"0".repeat(40)}` },
      "trustedFormUrl",
      "TrustedForm certificate URL is the template's sample",
    ],
    ["an opt-in time in the future", { optInAt: Date.now() + DAY }, "optInAt", "Opt-in time cannot be in the future"],
  ])("refuses %s with 400 naming the field, and stores nothing", async (_what, overrides, field, message) => {
    const { cookie } = await signedIn({ isAdmin: true });
    await paidCallbackOrder();
    const response = await callApi(PATH, { json: body(overrides), cookie });
    expect(response.status).toBe(400);
    const answer = await response.json<{ message: string; errors: Record<string, string> }>();
    expect(answer.errors[field]).toContain(message);
    expect(await count()).toBe(0);
  });

  it("refuses a number on a shared Do Not Call list like a partner's (409), and stores nothing", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const phone = newPhone();
    expect((await callApi("/api/do-not-call", { json: { phone } })).status).toBeLessThan(300);
    const response = await callApi(PATH, { json: body({ phone }), cookie });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ reason: "suppressed" });
    expect(await count()).toBe(0);
  });

  it("shows an admin the call-back's whole consent record (404 for an unknown one; admins only)", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const order = await paidCallbackOrder();
    const optInAt = Date.now() - 60_000;
    const added = await (
      await callApi(PATH, {
        json: body({
          optInAt,
          consentText: "I agree to be called back.",
          ipAddress: "203.0.113.7",
          jornayaLeadId: "1A2B3C4D-5E6F-4A1B-8C2D-3E4F5A6B7C8D",
        }),
        cookie,
      })
    ).json<{ id: string }>();
    await expectAdminOnly(`${PATH}/${added.id}/consent`);
    const response = await callApi(`${PATH}/${added.id}/consent`, { cookie });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      id: added.id,
      kind: "callback",
      name: "Ruth Miller",
      source: "admin",
      timeZone: "America/Chicago",
      orderId: order.id,
      consent: {
        optInAt: new Date(optInAt).toISOString(),
        optInUrl: "https://example.com/quote",
        consentText: "I agree to be called back.",
        ipAddress: "203.0.113.7",
        jornayaLeadId: "1A2B3C4D-5E6F-4A1B-8C2D-3E4F5A6B7C8D",
        trustedFormUrl: null,
      },
    });
    expect((await callApi(`${PATH}/${crypto.randomUUID()}/consent`, { cookie })).status).toBe(404);
  });
});
