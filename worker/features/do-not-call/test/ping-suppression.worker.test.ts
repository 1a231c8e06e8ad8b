/**
 * Do Not Call at the ping (product rule 40, docs/decisions/0050): a buyer's private list leaves out only
 * that buyer's orders and tells the partner nothing; a shared list answers `suppressed` only when an
 * order would otherwise take the call; `suppressed` answers count against the partner's rate limit and
 * daily call cap; the admin's Fulfilment tab shows each partner's suppressed share of today's pings.
 */

import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { localTime } from "../../../../src/domain/time-zones";
import { SUPPRESSED_MESSAGE } from "../../../../src/features/do-not-call/suppression";
import type { FulfilmentOverview } from "../../../../src/features/returns/returns";
import { NO_ROUTE_REASONS } from "../../../../src/features/transfers/transfers";
import { testDb } from "../../../../tests/worker/factories";
import { callApi, expectAdminOnly, signedIn } from "../../../../tests/worker/helpers";
import { freshPhone, requestDoNotCall, uploadList } from "../../../../tests/worker/suppression-fixtures";
import {
  clearTransfers,
  createOpenOrder,
  createPartner,
  pingBody,
  routeAtCallingHours,
} from "../../../../tests/worker/transfer-fixtures";
import { partnerDayRefusals, rateLimitWindows, transfers } from "../../../db/schema";
import { PARTNER_KEY_RULE } from "../../../services/rate-limiter";
import { hashApiKey } from "../../partners/api-keys";

// Pings route only inside the prospect's legal calling hours (docs/decisions/0064).
routeAtCallingHours();

type Auth = Record<string, string>;

async function ping(auth: Auth, phone: string, state = "TX") {
  const response = await callApi("/api/v1/transfers", { headers: auth, json: pingBody({ phone, state }) });
  return { status: response.status, body: await response.json<Record<string, unknown>>() };
}

const noOpenOrder = { message: NO_ROUTE_REASONS.no_open_order, reason: "no_open_order" };
const suppressed = { message: SUPPRESSED_MESSAGE, reason: "suppressed" };

async function transfersOf(phone: string) {
  const rows = await testDb()
    .select({ orderId: transfers.orderId, buyerUserId: transfers.buyerUserId })
    .from(transfers)
    .where(eq(transfers.phone, phone));
  return rows.map((row) => ({ order_id: row.orderId, buyer_user_id: row.buyerUserId }));
}

/** The partner's refused and suppressed pings on its local day (the test partners are in Chicago). */
async function refusals(partnerId: string) {
  const [row] = await testDb()
    .select({ refused: partnerDayRefusals.refused, suppressed: partnerDayRefusals.suppressed })
    .from(partnerDayRefusals)
    .where(
      and(
        eq(partnerDayRefusals.partnerId, partnerId),
        eq(partnerDayRefusals.day, localTime(Date.now(), "America/Chicago").day),
      ),
    );
  return row ?? { refused: 0, suppressed: 0 };
}

/** Transfer hours that exclude the present minute in Chicago (a two-hour window starting in two hours). */
function hoursNotNow() {
  const minute = localTime(Date.now(), "America/Chicago").minute;
  return { hoursStartMinute: (minute + 120) % 1440, hoursEndMinute: (minute + 240) % 1440 };
}

beforeEach(clearTransfers);

describe("a buyer's private Do Not Call list at the ping", () => {
  it("routes the caller to another buyer's order, never to the list owner's, even when the owner's is older", async () => {
    const partner = await createPartner();
    const owner = await signedIn();
    const phone = freshPhone();
    await uploadList({ cookie: owner.cookie, as: "buyer", name: "My customers", add: [Number(phone)] });
    await createOpenOrder({ buyerId: owner.user.id, paidAt: Date.now() - 3_600_000 });
    const other = await createOpenOrder({ paidAt: Date.now() - 60_000 });

    const routed = await ping(partner.auth, phone);
    expect(routed.status).toBe(201);
    expect(await transfersOf(phone)).toEqual([{ order_id: other.id, buyer_user_id: other.buyerId }]);
    // A clean number still goes to the owner's older order.
    const clean = freshPhone();
    expect((await ping(partner.auth, clean)).status).toBe(201);
    expect((await transfersOf(clean))[0]?.buyer_user_id).toBe(owner.user.id);
  });

  it("with only the owner's order open, answers exactly as a ping no order can take: no `suppressed`", async () => {
    const partner = await createPartner();
    const owner = await signedIn();
    const phone = freshPhone();
    await uploadList({ cookie: owner.cookie, as: "buyer", name: "Internal DNC", add: [Number(phone)] });
    await createOpenOrder({ buyerId: owner.user.id, states: ["TX"] });

    const onList = await ping(partner.auth, phone, "TX");
    const noOrder = await ping(partner.auth, freshPhone(), "VT");
    expect(noOrder).toEqual({ status: 409, body: noOpenOrder });
    expect(onList).toEqual(noOrder);
    expect(await transfersOf(phone)).toEqual([]);
    // Counted as a refusal like any other, never as suppressed.
    expect(await refusals(partner.id)).toEqual({ refused: 2, suppressed: 0 });
  });
});

describe("a shared Do Not Call list answers `suppressed` only when an order would take the call", () => {
  it("no order for the prospect's state: the no-order answer; an order for it: `suppressed`", async () => {
    const partner = await createPartner();
    await createOpenOrder({ states: ["TX"] });
    const phone = freshPhone();
    expect((await requestDoNotCall(phone)).status).toBe(200);

    const elsewhere = await ping(partner.auth, phone, "FL");
    expect(elsewhere).toEqual(await ping(partner.auth, freshPhone(), "FL"));
    expect(elsewhere).toEqual({ status: 409, body: noOpenOrder });
    expect(await ping(partner.auth, phone, "TX")).toEqual({ status: 409, body: suppressed });
    expect(await transfersOf(phone)).toEqual([]);
  });

  it("outside every order's hours, or past the partner's daily call cap: the same answer as for a clean number", async () => {
    const partner = await createPartner({ dailyCallCap: 1 });
    const phone = freshPhone();
    await requestDoNotCall(phone);
    await createOpenOrder(hoursNotNow());
    const outside = { status: 409, body: { message: NO_ROUTE_REASONS.outside_hours, reason: "outside_hours" } };
    expect(await ping(partner.auth, phone)).toEqual(outside);
    expect(await ping(partner.auth, freshPhone())).toEqual(outside);

    await createOpenOrder();
    expect((await ping(partner.auth, freshPhone())).status).toBe(201);
    const capped = {
      status: 409,
      body: { message: NO_ROUTE_REASONS.partner_cap_reached, reason: "partner_cap_reached" },
    };
    expect(await ping(partner.auth, phone)).toEqual(capped);
    expect(await ping(partner.auth, freshPhone())).toEqual(capped);
  });

  it("every order full: the caps answer, not `suppressed`", async () => {
    const partner = await createPartner();
    const phone = freshPhone();
    await requestDoNotCall(phone);
    await createOpenOrder({ quantity: 1 });
    expect((await ping(partner.auth, freshPhone())).status).toBe(201);
    const full = await ping(partner.auth, phone);
    expect(full).toEqual({ status: 409, body: { message: NO_ROUTE_REASONS.caps_reached, reason: "caps_reached" } });
  });
});

describe("a `suppressed` answer is no free lookup", () => {
  it("uses one of the partner's daily calls: a partner looks up no more numbers a day than its cap", async () => {
    const partner = await createPartner({ dailyCallCap: 3 });
    await createOpenOrder();
    const listed = [freshPhone(), freshPhone(), freshPhone()];
    for (const phone of listed) await requestDoNotCall(phone);

    expect((await ping(partner.auth, freshPhone())).status).toBe(201);
    expect(await ping(partner.auth, listed[0] ?? "")).toEqual({ status: 409, body: suppressed });
    expect(await ping(partner.auth, listed[1] ?? "")).toEqual({ status: 409, body: suppressed });
    // Three lookups used the cap of 3: neither a listed nor a clean number is answered any more today.
    for (const phone of [listed[2] ?? "", freshPhone()]) {
      expect((await ping(partner.auth, phone)).body).toMatchObject({ reason: "partner_cap_reached" });
    }
    expect(await refusals(partner.id)).toEqual({ refused: 4, suppressed: 2 });
  });

  it("counts against the per-key rate limit like every ping: past the limit, 429 and no answer about the number", async () => {
    const partner = await createPartner();
    await createOpenOrder();
    const listed = Array.from({ length: PARTNER_KEY_RULE.limit + 3 }, () => freshPhone());
    for (const phone of listed) await requestDoNotCall(phone);
    // One window for the whole test (it opens a minute from now, so the clock cannot split the burst).
    const window = { key: `partner-api:${await hashApiKey(partner.key)}`, windowStart: Date.now() + 60_000, hits: 0 };
    await testDb()
      .insert(rateLimitWindows)
      .values(window)
      .onConflictDoUpdate({ target: rateLimitWindows.key, set: { windowStart: window.windowStart, hits: 0 } });

    const answers = [];
    for (const phone of listed) answers.push(await ping(partner.auth, phone));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 409)).toHaveLength(PARTNER_KEY_RULE.limit);
    expect(statuses.slice(PARTNER_KEY_RULE.limit)).toEqual([429, 429, 429]);
    expect(answers.slice(0, PARTNER_KEY_RULE.limit).every((answer) => answer.body.reason === "suppressed")).toBe(true);
    expect(answers.slice(PARTNER_KEY_RULE.limit).some((answer) => "reason" in answer.body)).toBe(false);
    expect((await refusals(partner.id)).suppressed).toBe(PARTNER_KEY_RULE.limit);
  });
});

describe("the admin's Fulfilment tab: each partner's suppressed share of today's pings", () => {
  it("counts routed, refused and suppressed pings of the partner's day; admins only", async () => {
    const partner = await createPartner();
    const quiet = await createPartner();
    await createOpenOrder({ states: ["TX"] });
    const phone = freshPhone();
    await requestDoNotCall(phone);
    expect((await ping(partner.auth, freshPhone())).status).toBe(201);
    expect((await ping(partner.auth, phone)).body).toEqual(suppressed);
    expect((await ping(partner.auth, freshPhone(), "VT")).body).toEqual(noOpenOrder);
    expect((await ping(partner.auth, freshPhone())).status).toBe(201);

    const admin = await signedIn({ isAdmin: true });
    const response = await callApi("/api/admin/fulfilment", { cookie: admin.cookie });
    expect(response.status).toBe(200);
    const { partners } = await response.json<FulfilmentOverview>();
    expect(partners.find((row) => row.id === partner.id)).toMatchObject({
      todayCalls: 2,
      todayPings: 4,
      todaySuppressed: 1,
      suppressedShare: 0.25,
    });
    expect(partners.find((row) => row.id === quiet.id)).toMatchObject({
      todayPings: 0,
      todaySuppressed: 0,
      suppressedShare: null,
    });
    await expectAdminOnly("/api/admin/fulfilment");
  });
});

describe("the OpenAPI document", () => {
  it("says when the ping's 409 `suppressed` is answered and that it counts against the rate limit", async () => {
    const document = await (await callApi("/api/v1/openapi.json")).json<{
      paths: { "/transfers": { post: { description: string; responses: { 409: { description: string } } } } };
    }>();
    const ping = document.paths["/transfers"].post;
    const conflict = ping.responses[409].description;
    expect(conflict).toContain("`suppressed` is answered only when an order would otherwise have taken the call");
    expect(conflict).toContain("the answer is the same with or without a Do Not Call list");
    expect(conflict).toContain("counts against your rate limit");
    expect(conflict).toContain("uses one of your daily calls");
    expect(ping.description).toContain("A buyer's private list leaves out only that buyer's orders");
  });
});

describe("a ping that breaks a rule", () => {
  it("answers 400 with a message and changes nothing: no transfer, no refusal counted", async () => {
    const partner = await createPartner();
    await createOpenOrder();
    const good = pingBody();
    const bad = [
      { prospect: { ...good.prospect, phone: "12" }, consent: good.consent },
      { prospect: { ...good.prospect, state: "ZZ" }, consent: good.consent },
      {
        prospect: good.prospect,
        consent: { ...good.consent, optInAt: new Date(Date.now() + 86_400_000).toISOString() },
      },
      { prospect: good.prospect },
    ];
    for (const json of bad) {
      const response = await callApi("/api/v1/transfers", { headers: partner.auth, json });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ message: expect.any(String) });
    }
    const malformed = await callApi("/api/v1/transfers", {
      headers: { ...partner.auth, "Content-Type": "application/json" },
      body: "{not json",
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ message: expect.any(String) });

    expect(await testDb().$count(transfers, eq(transfers.partnerId, partner.id))).toBe(0);
    expect(await refusals(partner.id)).toEqual({ refused: 0, suppressed: 0 });
  });
});
