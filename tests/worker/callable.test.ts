/**
 * When a bought lead, a call-back and a marketplace lead may be called (docs/decisions/0070): My Leads,
 * My Call-Backs, both CSVs and the aged-lead list say "Callable now" or from when at the request's clock,
 * and the marketplace filters on it.
 */
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { WINDOW_FIT_LABELS } from "../../src/domain/callable";
import type { AgedLeadPage, OwnedLeadPage } from "../../src/domain/schemas/dashboard";
import type { DeliveredCallback } from "../../src/features/callbacks/schemas/callbacks";
import { listAvailableLeads } from "../../worker/features/aged-leads/lead-listing";
import { watchD1 } from "./d1-usage";
import { createCallback, createLead, testDb } from "./factories";
import { callApi, signedIn } from "./helpers";

/** Sunday 2027-03-07, 10:00 am in Chicago (CST): Texas allows calls from noon on Sundays. */
const TEXAS_SUNDAY_MORNING = Date.UTC(2027, 2, 7, 16);
/** Wednesday 2027-03-03, 8:30 pm in New York (EST): Florida's calls end at 8 pm. */
const FLORIDA_EVENING = Date.UTC(2027, 2, 4, 1, 30);

let serial = 0;
/** A fresh number of that area code (512 Austin TX, 305 Miami FL, 415 San Francisco CA). */
const phoneIn = (areaCode: string) => `${areaCode}47${String(++serial).padStart(5, "0")}`;

beforeAll(() => {
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
});
afterAll(() => {
  vi.useRealTimers();
});

async function buyerAt(moment: number) {
  vi.setSystemTime(moment);
  return signedIn();
}

async function boughtLead(userId: string, state: string, phone: string) {
  return createLead(testDb(), {
    state,
    phone,
    soldToUserId: userId,
    soldOrderId: "seeded",
    soldAt: new Date(Date.now() - 86_400_000),
  });
}

describe("My Leads", () => {
  it("says a Texas lead on Sunday morning is callable from noon in every Texas zone (1 PM CST)", async () => {
    const { user, cookie } = await buyerAt(TEXAS_SUNDAY_MORNING);
    const lead = await boughtLead(user.id, "TX", phoneIn("512"));
    const page = await (await callApi("/api/my-leads", { cookie })).json<OwnedLeadPage>();
    const mine = page.items.find((item) => item.id === lead.id);
    expect(mine?.callable).toEqual({
      timeZone: "America/Chicago",
      now: false,
      // Noon in Denver (Texas' western zone) is 1 pm in Chicago: the stricter answer (decision 0064).
      from: "2027-03-07T19:00:00.000Z",
      label: "Callable from Sun 1:00 PM CST",
    });

    const csv = await (await callApi("/api/my-leads.csv", { cookie })).text();
    expect(csv.split("\r\n")[0]).toContain("Time zone,Callable");
    expect(csv).toContain('"America/Chicago","Callable from Sun 1:00 PM CST"');
  });

  it("says a Florida lead at 8:30 pm is callable from 8 am in both Florida zones, and a California one now", async () => {
    const { user, cookie } = await buyerAt(FLORIDA_EVENING);
    const florida = await boughtLead(user.id, "FL", phoneIn("305"));
    const california = await boughtLead(user.id, "CA", phoneIn("415"));
    const page = await (await callApi("/api/my-leads", { cookie })).json<OwnedLeadPage>();
    const byId = new Map(page.items.map((item) => [item.id, item.callable]));
    expect(byId.get(florida.id)).toMatchObject({
      timeZone: "America/New_York",
      now: false,
      from: "2027-03-04T14:00:00.000Z",
      label: "Callable from Thu 9:00 AM EST",
    });
    expect(byId.get(california.id)).toEqual({
      timeZone: "America/Los_Angeles",
      now: true,
      from: null,
      label: "Callable now",
    });
  });
});

describe("My Call-Backs", () => {
  async function delivered(userId: string, window: [string, string]) {
    return createCallback(testDb(), {
      state: "FL",
      phone: phoneIn("305"),
      timeZone: "America/New_York",
      windowStart: new Date(window[0]),
      windowEnd: new Date(window[1]),
      buyerUserId: userId,
      orderId: "seeded",
      deliveredAt: new Date(),
    });
  }

  it("says when each may be called and whether its own window lies within the legal hours", async () => {
    const { user, cookie } = await buyerAt(FLORIDA_EVENING);
    const outside = await delivered(user.id, ["2027-03-04T01:00:00Z", "2027-03-04T02:00:00Z"]); // 8-9 pm EST
    const partly = await delivered(user.id, ["2027-03-04T00:30:00Z", "2027-03-04T01:30:00Z"]); // 7:30-8:30 pm
    const inside = await delivered(user.id, ["2027-03-04T15:00:00Z", "2027-03-04T17:00:00Z"]); // 10 am-noon
    const { callbacks } = await (await callApi("/api/my-callbacks", { cookie })).json<{
      callbacks: DeliveredCallback[];
    }>();
    const byId = new Map(callbacks.map((item) => [item.id, item]));
    expect(byId.get(outside.id)?.windowFit).toBe("outside");
    expect(byId.get(partly.id)?.windowFit).toBe("partly");
    expect(byId.get(inside.id)?.windowFit).toBe("inside");
    // Its zone was given (America/New_York only): 8 am there.
    expect(byId.get(inside.id)?.callable).toEqual({
      timeZone: "America/New_York",
      now: false,
      from: "2027-03-04T13:00:00.000Z",
      label: "Callable from Thu 8:00 AM EST",
    });

    const csv = await (await callApi("/api/my-callbacks.csv", { cookie })).text();
    expect(csv.split("\r\n")[0]).toContain("Callable,Window and calling hours");
    expect(csv).toContain(`"Callable from Thu 8:00 AM EST","${WINDOW_FIT_LABELS.outside}"`);
    expect(csv).toContain(`"${WINDOW_FIT_LABELS.inside}"`);
  });
});

describe("the aged-lead marketplace", () => {
  async function list(cookie: string, query: string) {
    const response = await callApi(`/api/aged-leads?${query}`, { cookie });
    expect(response.status).toBe(200);
    return response.json<AgedLeadPage>();
  }

  it("shows each lead's line and lists only the callable ones when asked", async () => {
    const { cookie } = await buyerAt(FLORIDA_EVENING);
    const db = testDb();
    const florida = await createLead(db, { state: "FL", phone: phoneIn("305") });
    const california = await createLead(db, { state: "CA", phone: phoneIn("415") });
    const texas = await createLead(db, { state: "TX", phone: phoneIn("512") });

    const all = await list(cookie, "page=1");
    const line = new Map(all.items.map((item) => [item.id, item.callable]));
    expect(line.get(florida.id)?.label).toBe("Callable from Thu 9:00 AM EST");
    expect(line.get(california.id)?.label).toBe("Callable now");
    // 7:30 pm in Chicago, 6:30 pm in Denver: within Texas' 9 am-9 pm.
    expect(line.get(texas.id)?.label).toBe("Callable now");

    const callable = await list(cookie, "page=1&callable=true");
    const ids = callable.items.map((item) => item.id);
    expect(ids).toEqual(expect.arrayContaining([california.id, texas.id]));
    expect(ids).not.toContain(florida.id);
    expect(callable.items.every((item) => item.callable.now)).toBe(true);
    expect(callable.total).toBe(all.items.filter((item) => item.callable.now).length);
    expect(all.total).toBe(callable.total + all.items.filter((item) => !item.callable.now).length);

    expect((await list(cookie, "page=1&location=FL&callable=true")).total).toBe(0);
    const inCalifornia = await list(cookie, "page=1&location=CA&callable=true");
    expect(inCalifornia.items.map((item) => item.id)).toEqual([california.id]);
    expect((await list(cookie, "page=1&location=415&callable=true")).total).toBe(1);
  });

  it("counts running reservations against the callable leads only when the Floridian is held too", async () => {
    const { cookie } = await buyerAt(FLORIDA_EVENING);
    const db = testDb();
    const californian = await createLead(db, { state: "CA", phone: phoneIn("415") });
    const floridian = await createLead(db, { state: "FL", phone: phoneIn("305") });
    const before = await list(cookie, "page=1&callable=true");
    const inCaliforniaBefore = (await list(cookie, "page=1&location=CA&callable=true")).total;
    const other = await signedIn();
    const reserved = await callApi("/api/bulk-purchase-leads", {
      json: { leadIds: [californian.id, floridian.id] },
      cookie: other.cookie,
    });
    expect(reserved.status).toBe(200);
    const after = await list(cookie, "page=1&callable=true");
    // The Floridian was not callable, so holding it changes nothing here.
    expect(after.total).toBe(before.total - 1);
    expect(after.items.map((item) => item.id)).not.toContain(californian.id);
    expect((await list(cookie, "page=1&location=CA&callable=true")).total).toBe(inCaliforniaBefore - 1);
  });

  it("lists nothing callable on a Sunday morning in Texas for Texas leads, and all of them at noon", async () => {
    const { cookie } = await buyerAt(TEXAS_SUNDAY_MORNING);
    const first = await list(cookie, "page=1&location=TX");
    expect(first.total).toBeGreaterThan(0);
    expect((await list(cookie, "page=1&location=TX&callable=true")).total).toBe(0);
    vi.setSystemTime(Date.UTC(2027, 2, 7, 19));
    expect((await list(cookie, "page=1&location=TX&callable=true")).total).toBe(first.total);
  });

  it("refuses a callable flag that is not true or false", async () => {
    const { cookie } = await buyerAt(FLORIDA_EVENING);
    expect((await callApi("/api/aged-leads?callable=yes", { cookie })).status).toBe(400);
  });

  /** The list through a watched D1 at `now`, "callable now" on. */
  async function watchedList(now: number, location?: string) {
    const watched = watchD1(env.DB);
    const deps = { db: testDb(), env: { ...env, DB: watched.db } as Cloudflare.Env, now };
    const page = await listAvailableLeads(deps, 1, location, false, true);
    return { page, statements: watched.usage.statements };
  }

  it("reads no page at all when nothing may be called anywhere (3 am in New York, 10 pm in Honolulu)", async () => {
    await createLead(testDb(), { state: "HI", phone: phoneIn("808") });
    const night = Date.UTC(2027, 2, 4, 8);
    const first = await watchedList(night);
    expect(first.page.total).toBe(0);
    // The counts and the reservations (the isolate's hint may plan a page only on the first call).
    const { page, statements } = await watchedList(night);
    expect(page).toMatchObject({ items: [], total: 0 });
    expect(statements).toHaveLength(2);
    expect(statements.some((statement) => /FROM aged_leads\s+WHERE rowid IN/.test(statement.sql))).toBe(false);
  });

  /** The query plan of the page statement `listAvailableLeads` ran (the second call: the counts hint is warm). */
  async function pagePlan(callableOnly: boolean): Promise<string[]> {
    const watched = watchD1(env.DB);
    const deps = { db: testDb(), env: { ...env, DB: watched.db } as Cloudflare.Env, now: FLORIDA_EVENING };
    await listAvailableLeads(deps, 1, undefined, false, callableOnly);
    const pageQuery = watched.usage.statements.find((statement) =>
      /FROM aged_leads\s+WHERE rowid IN/.test(statement.sql),
    );
    if (!pageQuery) throw new Error("no page query");
    // raw SQL: the query plan itself is under test
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${pageQuery.sql}`)
      .bind(...Array.from({ length: pageQuery.params }, () => null))
      .all<{ detail: string }>();
    return results.map((row) => row.detail);
  }

  it("walks the same listing index with the callable keys as without, testing them as a list", async () => {
    await watchedList(FLORIDA_EVENING);
    const walks = (plan: string[]) => plan.filter((detail) => /^(SCAN|SEARCH) aged_leads\b/.test(detail));
    const plain = await pagePlan(false);
    const callable = await pagePlan(true);
    expect(walks(plain)).toContain("SCAN aged_leads USING INDEX aged_leads_listing_idx");
    expect(walks(callable)).toEqual(walks(plain));
    expect(callable).toContain("SCAN json_each VIRTUAL TABLE INDEX 1:");
    expect(plain).not.toContain("SCAN json_each VIRTUAL TABLE INDEX 1:");
  });
});
