/**
 * Call-backs and appointments (src/features/callbacks/callbacks.ts, docs/decisions/0058): a partner hands one over
 * through `POST /api/v1/callbacks`, it is scrubbed and placed in the paid call-back order that fits, and
 * its buyer sees it with the full contact in My Call-Backs.
 */

import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { localTime } from "../../../../src/domain/time-zones";
import { closePaidCallbackOrders, testDb } from "../../../../tests/worker/factories";
import { callApi, createUser, login } from "../../../../tests/worker/helpers";
import { createPartner, deps, newPhone } from "../../../../tests/worker/transfer-fixtures";
import { callbackOpportunities, orders } from "../../../db/schema";
import { fillCallbackOrders } from "../callbacks";

const db = () => deps().db;
const DAY = 86_400_000;

/** A local date `days` from now in Chicago, as the window's `date`. */
const chicagoDay = (days: number) => localTime(Date.now() + days * DAY, "America/Chicago").day;

/** A paid call-back order of a fresh buyer (survey "Call-Backs", or ringcloud "call_backs" with its terms). */
async function paidCallbackOrder(
  options: {
    quantity?: number;
    paidAt?: number;
    ringcloud?: { states: string; preference: string };
    userId?: string;
  } = {},
) {
  const user = options.userId ? null : await createUser();
  const userId = options.userId ?? user?.id ?? "";
  const id = crypto.randomUUID();
  const quantity = options.quantity ?? 5;
  await db()
    .insert(orders)
    .values({
      id,
      kind: options.ringcloud ? "ringcloud" : "survey",
      tier: options.ringcloud ? "ringcloud" : null,
      quantity,
      unitPriceCents: 1500,
      totalCents: quantity * 1500,
      userId,
      details: options.ringcloud
        ? {
            leadType: "call_backs",
            callbackPreference: options.ringcloud.preference,
            workingStates: options.ringcloud.states,
          }
        : { leadType: "Call-Backs", totalCallbacks: quantity },
      paymentIntentId: `pi_test_${id}`,
      status: "paid",
      paidAt: new Date(options.paidAt ?? Date.now()),
    });
  return { id, userId, user };
}

function callbackBody(
  overrides: {
    phone?: string;
    state?: string;
    date?: string;
    from?: string;
    to?: string | null;
    kind?: string;
    timeZone?: string;
  } = {},
) {
  return {
    kind: overrides.kind ?? "callback",
    prospect: {
      firstName: "Ruth",
      lastName: "Miller",
      phone: overrides.phone ?? newPhone(),
      state: overrides.state ?? "TX",
      email: "ruth@example.com",
      ...(overrides.timeZone ? { timeZone: overrides.timeZone } : {}),
    },
    window: {
      date: overrides.date ?? chicagoDay(1),
      from: overrides.from ?? "09:00",
      ...(overrides.to === null ? {} : { to: overrides.to ?? "11:00" }),
    },
    consent: { optInAt: new Date(Date.now() - 60_000).toISOString(), optInUrl: "https://example.com/quote" },
  };
}

async function post(auth: Record<string, string>, body: unknown) {
  return callApi("/api/v1/callbacks", { headers: auth, json: body });
}

async function orderOf(callbackId: string) {
  const [row] = await testDb()
    .select({ orderId: callbackOpportunities.orderId })
    .from(callbackOpportunities)
    .where(eq(callbackOpportunities.id, callbackId));
  return row?.orderId ?? null;
}

describe("call-backs from partners", () => {
  beforeEach(async () => {
    // Every test starts with no open call-back orders and no waiting call-backs.
    const db = testDb();
    await db.delete(callbackOpportunities);
    await closePaidCallbackOrders(db);
  });

  it("places a call-back in a paid call-back order at once, and its buyer sees it in full in My Call-Backs", async () => {
    const partner = await createPartner();
    const buyer = await createUser();
    const order = await paidCallbackOrder({ userId: buyer.id });
    const phone = newPhone();
    const response = await post(partner.auth, callbackBody({ phone }));
    expect(response.status).toBe(201);
    const accepted = (await response.json()) as { callbackId: string; windowStart: string; windowEnd: string };
    expect(Date.parse(accepted.windowEnd) - Date.parse(accepted.windowStart)).toBe(2 * 3_600_000);
    expect(localTime(Date.parse(accepted.windowStart), "America/Chicago").minute).toBe(9 * 60);
    expect(await orderOf(accepted.callbackId)).toBe(order.id);

    const cookie = await login(buyer);
    const mine = (await (await callApi("/api/my-callbacks", { cookie })).json()) as {
      callbacks: { id: string; phone: string; name: string; timeZone: string; orderId: string }[];
    };
    expect(mine.callbacks).toEqual([
      expect.objectContaining({
        id: accepted.callbackId,
        phone,
        name: "Ruth Miller",
        timeZone: "America/Chicago",
        orderId: order.id,
      }),
    ]);
    const stranger = await login(await createUser());
    const theirs = (await (await callApi("/api/my-callbacks", { cookie: stranger })).json()) as {
      callbacks: unknown[];
    };
    expect(theirs.callbacks).toEqual([]);
  });

  it("exports My Call-Backs as CSV with the window in both forms and the consent, for its buyer only", async () => {
    const partner = await createPartner();
    const buyer = await createUser();
    await paidCallbackOrder({ userId: buyer.id });
    const phone = newPhone();
    const body = callbackBody({ phone });
    const accepted = (await (await post(partner.auth, body)).json()) as { callbackId: string; windowStart: string };
    const cookie = await login(buyer);
    const listed = (await (await callApi("/api/my-callbacks", { cookie })).json()) as {
      callbacks: { consent: { optInAt: string; optInUrl: string; certificate: string } }[];
    };
    expect(listed.callbacks[0]?.consent).toMatchObject({
      optInAt: body.consent.optInAt,
      optInUrl: "https://example.com/quote",
      certificate: "none",
    });
    const response = await callApi("/api/my-callbacks.csv", { cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/csv");
    const [header, row, extra] = (await response.text()).split("\r\n");
    expect(header).toContain("Window start (UTC)");
    expect(header).toContain("Opt-in page");
    expect(row).toContain(`"${phone}"`);
    expect(row).toContain(`"${accepted.windowStart}"`);
    expect(row).toContain('"https://example.com/quote"');
    expect(row).toContain("(America/Chicago)");
    expect(extra).toBeUndefined();
    const stranger = await login(await createUser());
    const theirs = await (await callApi("/api/my-callbacks.csv", { cookie: stranger })).text();
    expect(theirs.split("\r\n")).toHaveLength(1);
    expect((await callApi("/api/my-callbacks.csv")).status).toBe(401);
  });

  it("goes to the oldest paid order that fits its state and time of day, never beyond the count bought", async () => {
    const partner = await createPartner();
    const floridaMornings = await paidCallbackOrder({
      quantity: 1,
      paidAt: Date.now() - 3 * DAY,
      ringcloud: { states: "FL", preference: "morning" },
    });
    const anyOlder = await paidCallbackOrder({ quantity: 1, paidAt: Date.now() - 2 * DAY });
    const anyNewer = await paidCallbackOrder({ quantity: 1, paidAt: Date.now() - DAY });

    // Texas: the Florida order does not take it; the older of the two others does.
    const texas = (await (await post(partner.auth, callbackBody({ state: "TX" }))).json()) as { callbackId: string };
    expect(await orderOf(texas.callbackId)).toBe(anyOlder.id);
    // Florida in the afternoon: not the mornings order; the older order is full, so the newer one.
    const afternoon = (await (
      await post(partner.auth, callbackBody({ state: "FL", from: "14:00", to: "16:00" }))
    ).json()) as {
      callbackId: string;
    };
    expect(await orderOf(afternoon.callbackId)).toBe(anyNewer.id);
    // Florida in the morning: the mornings order.
    const morning = (await (
      await post(partner.auth, callbackBody({ state: "FL", from: "09:00", to: "10:00" }))
    ).json()) as {
      callbackId: string;
    };
    expect(await orderOf(morning.callbackId)).toBe(floridaMornings.id);
    // Every order is full now: the next one waits unassigned.
    const waiting = (await (await post(partner.auth, callbackBody({ state: "FL" }))).json()) as { callbackId: string };
    expect(await orderOf(waiting.callbackId)).toBeNull();
  });

  it("never gives the same prospect to the same buyer twice within 30 days", async () => {
    const partner = await createPartner();
    const buyer = await createUser();
    const first = await paidCallbackOrder({ userId: buyer.id, paidAt: Date.now() - DAY });
    const phone = newPhone();
    const one = (await (await post(partner.auth, callbackBody({ phone }))).json()) as { callbackId: string };
    expect(await orderOf(one.callbackId)).toBe(first.id);
    const again = (await (await post(partner.auth, callbackBody({ phone, date: chicagoDay(2) }))).json()) as {
      callbackId: string;
    };
    expect(await orderOf(again.callbackId)).toBeNull();
    const other = await paidCallbackOrder();
    expect(await fillCallbackOrders(deps())).toBe(1);
    expect(await orderOf(again.callbackId)).toBe(other.id);
  });

  it("fills an order paid after its call-backs arrived, and leaves passed windows out", async () => {
    const partner = await createPartner();
    const waiting = (await (await post(partner.auth, callbackBody())).json()) as { callbackId: string };
    expect(await orderOf(waiting.callbackId)).toBeNull();
    const order = await paidCallbackOrder({ quantity: 3 });
    // An hour after the window closed nothing is placed any more.
    const later = deps(Date.now() + 3 * DAY);
    expect(await fillCallbackOrders(later)).toBe(0);
    expect(await fillCallbackOrders(deps())).toBe(1);
    expect(await orderOf(waiting.callbackId)).toBe(order.id);
  });

  it("20 call-backs racing for an order's last place: exactly one gets it", async () => {
    const partner = await createPartner();
    const order = await paidCallbackOrder({ quantity: 1 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        post(partner.auth, callbackBody()).then((r) => r.json() as Promise<{ callbackId: string }>),
      ),
    );
    const placed = await Promise.all(answers.map((a) => orderOf(a.callbackId)));
    expect(placed.filter((id) => id === order.id)).toHaveLength(1);
    const count = await db().$count(callbackOpportunities);
    expect(count).toBe(20);
  });

  it("takes an appointment at a set time and holds it 30 minutes", async () => {
    const partner = await createPartner();
    const response = await post(
      partner.auth,
      callbackBody({ kind: "appointment", from: "15:30", to: null, timeZone: "America/New_York" }),
    );
    expect(response.status).toBe(201);
    const accepted = (await response.json()) as { windowStart: string; windowEnd: string };
    expect(Date.parse(accepted.windowEnd) - Date.parse(accepted.windowStart)).toBe(30 * 60_000);
    expect(localTime(Date.parse(accepted.windowStart), "America/New_York").minute).toBe(15 * 60 + 30);
  });

  it("reads the window in the ZIP's zone, else the area code's state's, when no zone is sent (decision 0064)", async () => {
    const partner = await createPartner();
    const zoneOf = async (prospect: Record<string, string>) => {
      const body = callbackBody({ date: chicagoDay(2) });
      const response = await post(partner.auth, { ...body, prospect: { ...body.prospect, ...prospect } });
      expect(response.status).toBe(201);
      const { callbackId } = (await response.json()) as { callbackId: string };
      const [row] = await testDb()
        .select({ timeZone: callbackOpportunities.timeZone })
        .from(callbackOpportunities)
        .where(eq(callbackOpportunities.id, callbackId));
      return row?.timeZone;
    };
    // El Paso's ZIP is on Mountain time, though Texas's main zone is Central.
    expect(await zoneOf({ state: "TX", zip: "79901" })).toBe("America/Denver");
    // No ZIP: a Los Angeles number (area code 213) in a Texas ping is read in California's zone.
    expect(await zoneOf({ state: "TX", phone: newPhone("213") })).toBe("America/Los_Angeles");
    // An explicit zone still wins.
    expect(await zoneOf({ state: "TX", zip: "79901", timeZone: "America/Chicago" })).toBe("America/Chicago");
  });

  it("refuses a number on a Do Not Call list with 409 suppressed, and stores nothing", async () => {
    const partner = await createPartner();
    const phone = newPhone();
    expect((await callApi("/api/do-not-call", { json: { phone } })).status).toBeLessThan(300);
    const response = await post(partner.auth, callbackBody({ phone }));
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ reason: "suppressed" });
    expect(await db().$count(callbackOpportunities)).toBe(0);
  });

  it.each([
    ["a window in the past", { date: chicagoDay(-2) }, "already passed"],
    ["an inverted window", { from: "11:00", to: "09:00" }, "window.to"],
    ["a call-back without its end", { to: null }, "window.to is required"],
    ["an unknown time zone", { timeZone: "Mars/Olympus" }, "prospect.timeZone"],
    ["a window too far ahead", { date: chicagoDay(45) }, "30 days ahead"],
    ["a malformed date", { date: "12/01/2026" }, "window.date"],
  ])("answers 400 with a message to %s and stores nothing", async (_name, overrides, message) => {
    const partner = await createPartner();
    const response = await post(partner.auth, callbackBody(overrides as Parameters<typeof callbackBody>[0]));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain(message);
    expect(await db().$count(callbackOpportunities)).toBe(0);
  });

  it("takes only a valid partner key, and My Call-Backs only a signed-in user", async () => {
    expect((await post({}, callbackBody())).status).toBe(401);
    expect((await post({ Authorization: "Bearer fel_not_a_key" }, callbackBody())).status).toBe(401);
    expect((await callApi("/api/my-callbacks")).status).toBe(401);
  });

  it("is in the OpenAPI document", async () => {
    const document = (await (await callApi("/api/v1/openapi.json")).json()) as {
      paths: Record<string, { post?: unknown }>;
    };
    expect(document.paths["/callbacks"]?.post).toBeDefined();
  });
});
