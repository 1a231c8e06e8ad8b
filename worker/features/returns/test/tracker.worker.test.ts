/** The Lead Tracker's transfers, CSV export, order progress and pause / resume. */

import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import Papa from "papaparse";
import { beforeEach, describe, expect, it } from "vitest";
import { localTime } from "../../../../src/domain/time-zones";
import { CERTIFICATE_STATUS_LABELS } from "../../../../src/features/consent/consent";
import { type FulfilmentOverview, TRACKER_PAGE_SIZE, type TrackerPage } from "../../../../src/features/returns/returns";
import type { TrackerOrder } from "../../../../src/features/transfers/order-progress";
import { createAgent, testDb } from "../../../../tests/worker/factories";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import {
  buyerWithOrder,
  DAY,
  deliver,
  deliverMany,
  HOUR,
  mailsTo,
  requestReturn,
} from "../../../../tests/worker/returns-fixtures";
import {
  clearTransfers,
  createPartner,
  pingBody,
  routeAtCallingHours,
} from "../../../../tests/worker/transfer-fixtures";
import worker from "../../../app";
import { orderAgents, partnerDayCalls, transfers } from "../../../db/schema";

// Pings route only inside the prospect's legal calling hours (docs/decisions/0064).
routeAtCallingHours();

beforeEach(clearTransfers);
/** Each test routes and completes several calls: slow on a shared machine. */
const SLOW = 30_000;

async function trackerPage(cookie: string, query = ""): Promise<TrackerPage> {
  const response = await callApi(`/api/tracker/transfers${query}`, { cookie });
  expect(response.status).toBe(200);
  return response.json();
}

describe("the buyer's transfers", { timeout: SLOW }, () => {
  it("lists every delivered transfer newest first with what the tracker shows", async () => {
    const partner = await createPartner();
    const buyer = await buyerWithOrder({ quantity: 20, timeZone: "America/Denver" });
    // Four days back: past the 72 hours, at the same hour of the day, inside the caller's calling hours.
    const old = await deliver(partner, { at: Date.now() - 96 * HOUR, firstName: "Old" });
    const short = await deliver(partner, { at: Date.now() - 2 * HOUR, durationSeconds: 95, firstName: "Short" });
    const billable = await deliver(partner, { at: Date.now() - HOUR, durationSeconds: 300, firstName: "Long" });

    const page = await trackerPage(buyer.cookie);
    expect(page).toMatchObject({ page: 1, pageSize: TRACKER_PAGE_SIZE, total: 3 });
    expect(page.items.map((item) => item.id)).toEqual([billable, short, old]);
    expect(page.items[0]).toMatchObject({
      orderId: buyer.order.id,
      firstName: "Long",
      lastName: "Lee",
      state: "TX",
      durationSeconds: 300,
      billable: true,
      status: "completed",
      recordingUrl: null,
      timeZone: "America/Denver",
      returnable: true,
      returnStatus: null,
      returnNote: null,
    });
    // Connected 5 s after routing (the fixture), then 300 s.
    expect(page.items[0]?.endedAt).toBe((page.items[0]?.routedAt ?? 0) + 5000 + 300_000);
    // Not charged, and past the 72 hours: neither can be returned.
    expect(page.items[1]).toMatchObject({ billable: false, durationSeconds: 95, returnable: false });
    expect(page.items[2]).toMatchObject({ billable: true, returnable: false });

    const onlyBillable = await trackerPage(buyer.cookie, "?billable=true");
    expect(onlyBillable.items.map((item) => item.id)).toEqual([billable, old]);
    const notCharged = await trackerPage(buyer.cookie, "?billable=false");
    expect(notCharged.items.map((item) => item.id)).toEqual([short]);
  });

  it("filters by the buyer's local days and by order, and pages on the server", async () => {
    const partner = await createPartner();
    const buyer = await buyerWithOrder({ quantity: 40, timeZone: "America/Chicago", paidAt: 1 });
    const second = await buyerWithOrder({ quantity: 40, paidAt: 2 });
    const threeDaysAgo = Date.now() - 3 * DAY;
    const old = await deliver(partner, { at: threeDaysAgo });
    await deliverMany(partner, TRACKER_PAGE_SIZE);
    const day = localTime(threeDaysAgo, "America/Chicago").day;

    const onDay = await trackerPage(buyer.cookie, `?from=${day}&to=${day}`);
    expect(onDay.items.map((item) => item.id)).toEqual([old]);
    const firstPage = await trackerPage(buyer.cookie, `?orderId=${buyer.order.id}`);
    expect(firstPage).toMatchObject({ total: TRACKER_PAGE_SIZE + 1, page: 1 });
    expect(firstPage.items).toHaveLength(TRACKER_PAGE_SIZE);
    const secondPage = await trackerPage(buyer.cookie, `?orderId=${buyer.order.id}&page=2`);
    expect(secondPage.items.map((item) => item.id)).toEqual([old]);
    // The second buyer's order got nothing (the oldest paid order takes every call).
    expect((await trackerPage(second.cookie)).total).toBe(0);

    expect((await callApi("/api/tracker/transfers?from=yesterday", { cookie: buyer.cookie })).status).toBe(400);
    expect((await callApi("/api/tracker/transfers?billable=maybe", { cookie: buyer.cookie })).status).toBe(400);
  });

  it("shows a return's status and the admin's note", async () => {
    const partner = await createPartner();
    const buyer = await buyerWithOrder({ quantity: 20 });
    const [first] = await deliverMany(partner, 5);
    expect((await requestReturn(buyer.cookie, { kind: "transfer", itemId: first ?? "" })).status).toBe(201);
    const page = await trackerPage(buyer.cookie);
    expect(page.items.find((item) => item.id === first)).toMatchObject({ returnStatus: "pending", returnable: false });
  });

  it("exports the filtered transfers as a CSV attachment, formulas escaped", async () => {
    const partner = await createPartner();
    const buyer = await buyerWithOrder({ quantity: 20, timeZone: "America/Chicago" });
    const at = Date.UTC(2026, 2, 4, 16, 5); // 10:05 in Chicago
    await deliver(partner, { at: Date.now() - HOUR, firstName: "=HYPERLINK(1)" });
    await deliver(partner, { at, durationSeconds: 61, firstName: "Rita" });

    const response = await callApi("/api/tracker/transfers.csv", { cookie: buyer.cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/csv");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="lead-tracker.csv"');
    const rows = Papa.parse<string[]>(await response.text()).data;
    expect(rows[0]).toEqual([
      "Time",
      "Time zone",
      "First name",
      "Last name",
      "Phone",
      "State",
      "Duration (seconds)",
      "Billable",
      "Status",
      "Recording",
      "Order",
      "Agent",
      "Return",
      "Opt-in time (UTC)",
      "Opt-in page URL",
      "Consent text or version",
      "IP address",
      "TrustedForm certificate URL",
      "Jornaya LeadiD",
      "Certificate",
    ]);
    expect(rows).toHaveLength(3);
    expect(rows[1]?.[2]).toBe("'=HYPERLINK(1)");
    expect(rows[2]).toEqual([
      "2026-03-04 10:05",
      "America/Chicago",
      "Rita",
      "Lee",
      expect.stringMatching(/^\d{10}$/),
      "TX",
      "61",
      "under 2 minutes — not charged",
      "completed",
      "",
      buyer.order.id,
      "",
      "",
      expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      "https://example.com/quote",
      "",
      "",
      "",
      "",
      CERTIFICATE_STATUS_LABELS.none,
    ]);

    const filtered = await callApi("/api/tracker/transfers.csv?billable=true&page=1", { cookie: buyer.cookie });
    expect(Papa.parse<string[]>(await filtered.text()).data).toHaveLength(2);
  });
});

describe("the agent who took each call", { timeout: SLOW }, () => {
  it("names the order's agent on each transfer, a removed agent still, and none for a call to the order's number", async () => {
    const partner = await createPartner();
    const buyer = await buyerWithOrder({ quantity: 20, timeZone: "America/Chicago" });
    const agent = await createAgent(testDb(), buyer.order.id, { name: "Dana Cruz" });
    const byAgent = await deliver(partner, { at: Date.now() - 2 * HOUR });
    await testDb().update(orderAgents).set({ removedAt: new Date() }).where(eq(orderAgents.id, agent.id));
    const byOrder = await deliver(partner, { at: Date.now() - HOUR });

    const page = await trackerPage(buyer.cookie);
    expect(page.items.map((item) => [item.id, item.agentName])).toEqual([
      [byOrder, null],
      [byAgent, "Dana Cruz"],
    ]);
    const csv = Papa.parse<string[]>(
      await (await callApi("/api/tracker/transfers.csv", { cookie: buyer.cookie })).text(),
    ).data;
    const agentColumn = csv[0]?.indexOf("Agent") ?? -1;
    expect(csv.slice(1).map((row) => row[agentColumn])).toEqual(["", "Dana Cruz"]);
  });
});

describe("orders: progress and pause", { timeout: SLOW }, () => {
  it("shows each order's delivered, not charged, remaining and today's count against its cap, and its limits", async () => {
    const partner = await createPartner();
    const buyer = await buyerWithOrder({ quantity: 10, perDayCap: 8, perHourCap: 8, maxConcurrent: 5 });
    await deliverMany(partner, 3);
    await deliver(partner, { durationSeconds: 30 });
    await deliver(partner, { at: Date.now() - 3 * DAY });

    const response = await callApi("/api/tracker/orders", { cookie: buyer.cookie });
    expect(response.status).toBe(200);
    const orders = await response.json<TrackerOrder[]>();
    expect(orders).toEqual([
      {
        orderId: buyer.order.id,
        packageName: "10 live transfers · Standard",
        createdAt: expect.any(Number),
        transfersTotal: 10,
        delivered: 4,
        notCharged: 1,
        remaining: 6,
        todayCount: expect.any(Number),
        perDayCap: 8,
        limits: "8 an hour · 5 at once",
        paused: false,
        pause: null,
        transferPhone: "2145559000",
        setupStatus: "ready",
      },
    ]);
    // Today's count is on the buyer's own day (Chicago): the four recent calls, unless midnight fell in between.
    const today = localTime(Date.now(), "America/Chicago").day;
    const todays = await testDb().$count(
      transfers,
      and(eq(transfers.orderId, buyer.order.id), eq(transfers.buyerLocalDay, today)),
    );
    expect(orders[0]?.todayCount).toBe(todays);
  });

  it("a paused order gets no transfers from the partner API until it is resumed", async () => {
    const partner = await createPartner();
    const buyer = await buyerWithOrder({ quantity: 5 });
    const ping = () => callApi("/api/v1/transfers", { json: pingBody(), headers: partner.auth });

    const paused = await callApi(`/api/tracker/orders/${buyer.order.id}/pause`, {
      method: "POST",
      cookie: buyer.cookie,
    });
    expect(paused.status).toBe(200);
    expect(await paused.json()).toMatchObject({ orderId: buyer.order.id, paused: true });
    const refused = await ping();
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ reason: "no_open_order" });

    const resumed = await callApi(`/api/tracker/orders/${buyer.order.id}/resume`, {
      method: "POST",
      cookie: buyer.cookie,
    });
    expect(resumed.status).toBe(200);
    expect(await resumed.json()).toMatchObject({ paused: false });
    const routed = await ping();
    expect(routed.status).toBe(201);
    const { transferId } = await routed.json<{ transferId: string }>();
    const [row] = await testDb()
      .select({ orderId: transfers.orderId })
      .from(transfers)
      .where(eq(transfers.id, transferId));
    expect(row).toEqual({ orderId: buyer.order.id });
  });
});

describe("the daily delivery summary", { timeout: SLOW }, () => {
  it("e-mails each buyer once for a day with deliveries, however often the cron runs", async () => {
    const partner = await createPartner();
    const buyer = await buyerWithOrder({ quantity: 20, timeZone: "America/Chicago" });
    const at = Date.now() - 2 * DAY;
    await deliver(partner, { at });
    await deliver(partner, { at: at + 1000 });
    await deliver(partner, { at: at + 2000, durationSeconds: 45 });
    const day = localTime(at, "America/Chicago").day;

    for (let run = 0; run < 2; run++) {
      const ctx = createExecutionContext();
      await worker.scheduled?.(createScheduledController(), env, ctx);
      await waitOnExecutionContext(ctx);
    }
    const summaries = (await mailsTo(buyer.user.email)).filter((mail) => mail.subject.includes("live transfers on"));
    expect(summaries).toEqual([
      {
        subject: `Your live transfers on ${day}`,
        text: expect.stringContaining("we delivered 2 billable live transfers and 1 under 2 minutes — not charged."),
      },
    ]);
  });
});

/** The partner's calls on its own current day (Chicago), however the test's minutes fell around midnight. */
async function callsToday(partnerId: string): Promise<number> {
  const [row] = await testDb()
    .select({ calls: partnerDayCalls.calls })
    .from(partnerDayCalls)
    .where(
      and(
        eq(partnerDayCalls.partnerId, partnerId),
        eq(partnerDayCalls.day, localTime(Date.now(), "America/Chicago").day),
      ),
    );
  return row?.calls ?? 0;
}

describe("the admin's Fulfilment tab", { timeout: SLOW }, () => {
  it("shows open orders with their progress and partners with today's calls, billable rate and average duration", async () => {
    const partner = await createPartner({ dailyCallCap: 40 });
    const buyer = await buyerWithOrder({ quantity: 10, perDayCap: 6 });
    // Routed a moment ago, not the default ten minutes: the partner's day must be today's (a run just after
    // midnight in Chicago would count them for yesterday).
    await deliver(partner, { at: Date.now() - 2000, durationSeconds: 300 });
    await deliver(partner, { at: Date.now() - 1000, durationSeconds: 100 });
    await callApi(`/api/tracker/orders/${buyer.order.id}/pause`, { method: "POST", cookie: buyer.cookie });

    const admin = await signedIn({ isAdmin: true });
    const response = await callApi("/api/admin/fulfilment", { cookie: admin.cookie });
    expect(response.status).toBe(200);
    const overview = await response.json<FulfilmentOverview>();
    expect(overview.orders.find((order) => order.orderId === buyer.order.id)).toEqual({
      orderId: buyer.order.id,
      buyer: buyer.user.username,
      packageName: "10 live transfers · Standard",
      transfersTotal: 10,
      delivered: 1,
      notCharged: 1,
      remaining: 9,
      todayCount: expect.any(Number),
      perDayCap: 6,
      limits: null,
      paused: true,
      pause: { kind: "buyer", reason: "Paused by the buyer", needsNumber: false, needsAdmin: false },
      transferPhone: "2145559000",
    });
    expect(overview.partners.find((row) => row.id === partner.id)).toEqual({
      id: partner.id,
      businessName: "Test Call Center",
      todayCalls: await callsToday(partner.id),
      dailyCallCap: 40,
      // Both pings were routed: none refused, none suppressed (docs/decisions/0050).
      todayPings: await callsToday(partner.id),
      todaySuppressed: 0,
      suppressedShare: 0,
      billableRate: 0.5,
      averageDurationSeconds: 200,
    });
  });
});
