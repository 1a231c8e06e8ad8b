/**
 * A stale registry copy stops what it covers (docs/decisions/0085), with a fake clock: the ping answers
 * `registry_stale` and routes nothing; an aged-lead reservation and sale, a call-back purchase and sale are
 * refused; a call-back's delivery is held; the admins' banner data from day 25; the daily e-mail goes once.
 */
import { env } from "cloudflare:workers";
import { and, eq, inArray } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  NO_NATIONAL_COPY_NOTICE,
  REGISTRY_STALE_CALLBACK_MESSAGE,
  REGISTRY_STALE_HELD,
  REGISTRY_STALE_LEAD_MESSAGE,
  REGISTRY_STALE_MESSAGE,
} from "../../../../src/features/do-not-call/list-freshness";
import {
  createAdmin,
  createCallbackOrder,
  createLead,
  createSuppressionList,
  testDb,
} from "../../../../tests/worker/factories";
import { callApi, latestMailTo, signedIn } from "../../../../tests/worker/helpers";
import { buy, row, stock } from "../../../../tests/worker/market-fixtures";
import { buyLeads, orderRow, payWithCard } from "../../../../tests/worker/payment-fixtures";
import { freshPhone, insertLeads } from "../../../../tests/worker/suppression-fixtures";
import {
  clearTransfers,
  createOpenOrder,
  createPartner,
  deps,
  pingBody,
  routeAtCallingHours,
} from "../../../../tests/worker/transfer-fixtures";
import {
  callbackOpportunities,
  outbox,
  registryFreshnessAlerts,
  suppressionLists,
  transfers,
} from "../../../db/schema";
import { scheduled } from "../../../scheduled";
import { bundleStock } from "../../aged-leads/aged-lead-bundle-sale";
import { placeCallback } from "../../callbacks/callbacks";
import {
  adminRegistryBanner,
  marketplaceRegistryNotice,
  registryPageNotices,
  sendRegistryFreshnessAlerts,
} from "../list-freshness";

// Pings route only inside the prospect's legal calling hours (docs/decisions/0064); the clock is fake.
routeAtCallingHours();

const DAY = 86_400_000;
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The only registry copies: a national one `nationalAge` days old (null: none), and state copies by age. */
async function copies(nationalAge: number | null, states: Record<string, number> = {}) {
  await testDb()
    .delete(suppressionLists)
    .where(inArray(suppressionLists.kind, ["national_dnc", "state_dnc"]));
  const now = Date.now();
  if (nationalAge !== null) {
    await createSuppressionList(testDb(), [], {
      kind: "national_dnc",
      name: "National registry",
      refreshedOn: dayOf(now - nationalAge * DAY),
    });
  }
  for (const [state, age] of Object.entries(states)) {
    await createSuppressionList(testDb(), [], {
      kind: "state_dnc",
      name: `${state} list`,
      state,
      refreshedOn: dayOf(now - age * DAY),
    });
  }
}

/** Runs `step` `days` later on the fake clock, then puts the clock back. */
async function later<T>(days: number, step: () => Promise<T>): Promise<T> {
  const now = Date.now();
  vi.setSystemTime(now + days * DAY);
  try {
    return await step();
  } finally {
    vi.setSystemTime(now);
  }
}

async function ping(auth: Record<string, string>, phone: string, state: string) {
  const response = await callApi("/api/v1/transfers", { headers: auth, json: pingBody({ phone, state }) });
  return { status: response.status, body: await response.json<Record<string, unknown>>() };
}

const transfersOf = (phone: string) => testDb().$count(transfers, eq(transfers.phone, phone));
const registryStale = { status: 409, body: { message: REGISTRY_STALE_MESSAGE, reason: "registry_stale" } };

beforeEach(clearTransfers);
afterEach(() => copies(null));

describe("the ping", () => {
  it("a stale national copy (day 32) refuses every caller with `registry_stale`, routes nothing and uses no daily call; at day 31 it routes", async () => {
    const partner = await createPartner({ dailyCallCap: 1 });
    await createOpenOrder();
    await copies(32);
    const phone = freshPhone();
    expect(await ping(partner.auth, phone, "TX")).toEqual(registryStale);
    // The partner's one daily call is still there: the next answer is the same, not `partner_cap_reached`.
    expect(await ping(partner.auth, phone, "FL")).toEqual(registryStale);
    expect(await transfersOf(phone)).toBe(0);

    await copies(31);
    expect((await ping(partner.auth, phone, "TX")).status).toBe(201);
    expect(await transfersOf(phone)).toBe(1);
  });

  it("a stale state copy refuses only callers in its state; no transfer is routed for them", async () => {
    const partner = await createPartner();
    await createOpenOrder();
    await copies(1, { TX: 40, FL: 3 });
    const texan = freshPhone();
    expect(await ping(partner.auth, texan, "TX")).toEqual(registryStale);
    expect(await transfersOf(texan)).toBe(0);
    const floridian = freshPhone();
    expect((await ping(partner.auth, floridian, "FL")).status).toBe(201);
  });
});

describe("aged leads", () => {
  it("a reservation of a lead a stale copy covers is refused with the reason; leads elsewhere sell; the marketplace says why", async () => {
    const { cookie } = await signedIn();
    await copies(2, { TX: 32 });
    const [texan] = await insertLeads("TX", [freshPhone()]);
    const [ohioan] = await insertLeads("OH", [freshPhone()]);
    const refused = await buyLeads(cookie, [texan ?? "", ohioan ?? ""]);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ message: REGISTRY_STALE_LEAD_MESSAGE, unavailable: [texan] });
    expect((await buyLeads(cookie, [ohioan ?? ""])).status).toBe(200);
    expect(await marketplaceRegistryNotice(deps())).toMatch(/^Leads in TX can't be bought right now/);

    await copies(32);
    expect(await marketplaceRegistryNotice(deps())).toMatch(
      /^Leads can't be bought right now: our copy of the National/,
    );
    await copies(31);
    expect(await marketplaceRegistryNotice(deps())).toBeNull();
  });

  it("a lead reserved on day 31 and paid on day 32 is not sold: the order is refunded with the reason", async () => {
    const { cookie } = await signedIn();
    await copies(31);
    const [id] = await insertLeads("TX", [freshPhone()]);
    const started = await (await buyLeads(cookie, [id ?? ""])).json<{ clientSecret: string; orderId: string }>();
    await later(1, async () => {
      expect((await payWithCard(started.clientSecret)).status).toBe(200);
    });
    expect(await orderRow(started.orderId)).toMatchObject({
      status: "refunded",
      payment_error: `${REGISTRY_STALE_LEAD_MESSAGE} Refunded.`,
    });
  });
});

describe("aged-lead bundles", () => {
  it("a bundle neither counts nor takes a lead a stale copy covers", async () => {
    await createLead(testDb(), { state: "WY", formFillTime: new Date(Date.now() - 45 * DAY) });
    const spec = { band: "30-60" as const, states: ["WY"] };
    await copies(1, { WY: 32 });
    expect(await bundleStock(deps(), spec)).toBe(0);
    await copies(1, { WY: 31 });
    expect(await bundleStock(deps(), spec)).toBe(1);
  });
});

describe("call-backs", () => {
  beforeEach(async () => {
    await testDb().delete(callbackOpportunities);
  });

  it("a purchase of a call-back a stale copy covers is refused before any charge", async () => {
    const { cookie } = await signedIn();
    const item = await stock();
    await copies(1, { TX: 33 });
    const response = await buy(cookie, item.id);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ message: REGISTRY_STALE_CALLBACK_MESSAGE });
    expect(await row(item.id)).toMatchObject({ reserved_order_id: null, buyer_user_id: null });
  });

  it("a call-back reserved on day 31 and paid on day 32 is not sold: refunded with the reason", async () => {
    const { cookie } = await signedIn();
    const item = await stock({ startsIn: 3 * DAY });
    await copies(31);
    const start = await (await buy(cookie, item.id)).json<{ clientSecret: string; orderId: string }>();
    await later(1, async () => {
      expect((await payWithCard(start.clientSecret)).status).toBe(200);
    });
    expect(await orderRow(start.orderId)).toMatchObject({
      status: "refunded",
      payment_error: REGISTRY_STALE_CALLBACK_MESSAGE,
    });
    expect(await row(item.id)).toMatchObject({ buyer_user_id: null, order_id: null });
  });

  it("delivery to a paid call-back order is held while a stale copy covers it, and made once a fresh copy is loaded", async () => {
    const buyer = await signedIn();
    const order = await createCallbackOrder(testDb(), { userId: buyer.user.id, quantity: 1, paidAt: new Date() });
    const item = await stock({ kind: "callback", startsIn: 2 * DAY });
    await copies(32);
    expect(await placeCallback(deps(), item.id)).toEqual({ unplaced: REGISTRY_STALE_HELD });
    expect(await row(item.id)).toMatchObject({ order_id: null });
    // Another state's stale copy does not cover it.
    await copies(0, { FL: 40 });
    expect(await placeCallback(deps(), item.id)).toEqual({ placed: order.id });
  });
});

describe("the admins", () => {
  const refreshed = Date.UTC(2031, 0, 1, 12);
  const on = (day: number) => deps(refreshed + day * DAY);

  it("the banner: nothing on day 24; from day 25 the day it goes stale; from day 32 sales stopped; a missing copy said", async () => {
    await testDb()
      .delete(suppressionLists)
      .where(inArray(suppressionLists.kind, ["national_dnc", "state_dnc"]));
    expect(await adminRegistryBanner(on(0))).toEqual({ stale: false, lines: [NO_NATIONAL_COPY_NOTICE] });
    await createSuppressionList(testDb(), [], { kind: "national_dnc", name: "Registry", refreshedOn: "2031-01-01" });
    expect(await adminRegistryBanner(on(24))).toBeNull();
    expect(await adminRegistryBanner(on(25))).toEqual({
      stale: false,
      lines: [
        "The National Do Not Call Registry copy was refreshed on 2031-01-01; it goes stale on 2031-02-02: upload a fresh copy.",
      ],
    });
    expect((await adminRegistryBanner(on(31)))?.stale).toBe(false);
    expect(await adminRegistryBanner(on(32))).toMatchObject({
      stale: true,
      lines: [expect.stringMatching(/went stale on 2031-02-02: sales stopped/)],
    });
    // Only admin pages carry it, and only for admins; the marketplace carries the stop.
    expect(await registryPageNotices(on(32), { isAdmin: true }, "/admin/users")).toMatchObject({
      banner: { stale: true },
    });
    expect(await registryPageNotices(on(32), { isAdmin: false }, "/admin/users")).toBeNull();
    expect(await registryPageNotices(on(32), { isAdmin: false }, "/dashboard")).toMatchObject({
      banner: null,
      market: expect.stringMatching(/^Leads can't be bought right now/),
    });
  });

  it("the e-mail goes to every admin once a day from day 25, never twice the same day, never before day 25", async () => {
    const admin = await createAdmin(testDb());
    await testDb()
      .delete(suppressionLists)
      .where(inArray(suppressionLists.kind, ["national_dnc", "state_dnc"]));
    await createSuppressionList(testDb(), [], { kind: "national_dnc", name: "Registry", refreshedOn: "2031-01-01" });
    expect(await sendRegistryFreshnessAlerts(on(24))).toBe(0);
    expect(await latestMailTo(admin.email)).toBeNull();

    const first = await sendRegistryFreshnessAlerts(on(25));
    expect(first).toBeGreaterThanOrEqual(1);
    expect(await latestMailTo(admin.email)).toMatchObject({
      subject: "Do Not Call registry copy goes stale soon: upload a fresh copy",
      text: expect.stringContaining("it goes stale on 2031-02-02"),
    });
    expect(await sendRegistryFreshnessAlerts(deps(refreshed + 25 * DAY + 3_600_000))).toBe(0);
    expect(await testDb().$count(registryFreshnessAlerts, eq(registryFreshnessAlerts.day, "2031-01-26"))).toBe(1);

    expect(await sendRegistryFreshnessAlerts(on(32))).toBe(first);
    expect(await latestMailTo(admin.email)).toMatchObject({
      subject: "Do Not Call registry copy stale: sales stopped",
    });
    expect(
      await testDb().$count(
        registryFreshnessAlerts,
        and(eq(registryFreshnessAlerts.day, "2031-02-02"), eq(registryFreshnessAlerts.stale, 1)),
      ),
    ).toBe(1);
  });

  it("the five-minute cron sends the day's e-mail once, however often it runs", async () => {
    const admin = await createAdmin(testDb());
    await copies(26);
    const runCron = () =>
      scheduled({ cron: "*/5 * * * *", scheduledTime: Date.now(), noRetry() {} } as ScheduledController, env, {
        waitUntil() {},
        passThroughOnException() {},
      } as unknown as ExecutionContext);
    await runCron();
    await runCron();
    expect(await testDb().$count(outbox, eq(outbox.to, admin.email))).toBe(1);
    expect(await latestMailTo(admin.email)).toMatchObject({
      subject: "Do Not Call registry copy goes stale soon: upload a fresh copy",
    });
  });
});
