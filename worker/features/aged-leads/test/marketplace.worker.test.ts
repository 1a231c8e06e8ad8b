/**
 * The marketplace at scale: exact location filter, counts, paging plans, concurrent
 * buyers, D1's per-statement and per-invocation limits, and My Leads paging and streaming.
 */

import { env } from "cloudflare:workers";
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { leadAreaCode } from "../../../../src/domain/phone";
import type { AgedLeadPage, OwnedLeadPage } from "../../../../src/domain/schemas/dashboard";
import { leadMatchesLocation, parseLocationFilter } from "../../../../src/features/aged-leads/location-filter";
import { MAX_RESERVED_LEADS } from "../../../../src/features/orders/orders";
import { createLeads, endLeadHold, testDb } from "../../../../tests/worker/factories";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import { agedLeads } from "../../../db/schema";

const DAY = 86_400_000;
let batchCount = 0;

interface NewLead {
  state: string;
  phone: string;
  createdAt?: number;
  soldTo?: string;
  soldAt?: number;
}

/** Inserts leads through the lead factory (as few statements as D1 allows); answers their ids in the given order. */
function insertLeads(leads: NewLead[]): Promise<string[]> {
  batchCount += 1;
  const now = Date.now();
  return createLeads(testDb(), leads.length, (i) => {
    const lead = leads[i] ?? { state: "", phone: "" };
    return {
      id: `t${batchCount}-${i}-${crypto.randomUUID().slice(0, 8)}`,
      phone: lead.phone,
      state: lead.state,
      formFillTime: new Date(now - 20 * DAY),
      dedupeKey: `${lead.phone}|${now}|${batchCount}|${i}`,
      createdAt: new Date(lead.createdAt ?? now + i),
      soldToUserId: lead.soldTo ?? null,
      soldOrderId: lead.soldTo ? "seeded" : null,
      soldAt: lead.soldAt === undefined ? null : new Date(lead.soldAt),
    };
  });
}

async function list(cookie: string, location: string, page = 1) {
  const response = await callApi(`/api/aged-leads?page=${page}&location=${encodeURIComponent(location)}`, { cookie });
  expect(response.status).toBe(200);
  return response.json<AgedLeadPage>();
}

/** The list as the rule defines it, computed from every row (newest first, then id). */
async function expectedIds(location: string): Promise<string[]> {
  const now = Date.now();
  const leads = await testDb()
    .select({
      id: agedLeads.id,
      phone: agedLeads.phone,
      state: agedLeads.state,
      createdAt: agedLeads.createdAt,
      soldAt: agedLeads.soldAt,
      reservedUntil: agedLeads.reservedUntil,
    })
    .from(agedLeads);
  const results = leads.map((lead) => ({
    id: lead.id,
    phone: lead.phone,
    state: lead.state,
    created_at: lead.createdAt.getTime(),
    sold_at: lead.soldAt?.getTime() ?? null,
    reserved_until: lead.reservedUntil?.getTime() ?? null,
  }));
  const terms = parseLocationFilter(location);
  return results
    .filter((row) => row.sold_at === null && (row.reserved_until === null || row.reserved_until < now))
    .filter((row) => leadMatchesLocation({ state: row.state, areaCode: leadAreaCode(row.phone) }, terms))
    .sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((row) => row.id);
}

describe("location filter (product rule 13)", () => {
  it("never selects a lead by a part of its phone: of all 3-digit terms only its area code finds it", async () => {
    const { cookie } = await signedIn();
    const [id] = await insertLeads([{ state: "QZ", phone: "9876543210" }]);
    const terms = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, "0")).filter((term) => term !== "987");
    // Up to 20 terms a request: a lead matching any one of them would be listed.
    for (let i = 0; i < terms.length; i += 20) {
      const filter = terms.slice(i, i + 20).join(",");
      const pages = await list(cookie, filter);
      expect(
        pages.items.map((lead) => lead.id),
        filter,
      ).not.toContain(id);
      expect(pages.total, filter).toBe((await expectedIds(filter)).length);
    }
    const found = await list(cookie, "987");
    expect(found.items.map((lead) => lead.id)).toContain(id);
    expect(found.items.find((lead) => lead.id === id)).toMatchObject({ phone: "(987) ***-****", state: "QZ" });
  }, 60_000);

  it("shows the form fill date, not its time, before purchase", async () => {
    const { cookie } = await signedIn();
    await insertLeads([{ state: "QD", phone: "4045550100" }]);
    const { items } = await list(cookie, "QD");
    expect(items[0]?.formFillTime).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("pages exactly as the rule lists, whichever index plan answers (one key, several keys, a walk)", async () => {
    const { cookie } = await signedIn();
    const base = Date.now() + 10 * DAY;
    // Equal created_at in places, so the id tie-breaker matters.
    await insertLeads(
      Array.from({ length: 180 }, (_, i) => ({
        state: ["PX", "PY", "Pennsylvania-ish"][i % 3] ?? "PX",
        phone: `${["601", "602", "603", "604"][i % 4]}555${String(i).padStart(4, "0")}`,
        createdAt: base + Math.floor(i / 4),
      })),
    );
    for (const location of ["PX", "py, 603", "p", "601", "px, py, 604", "zzz", "", "12345"]) {
      const expected = await expectedIds(location);
      const first = await list(cookie, location);
      expect(first.total, location).toBe(expected.length);
      const pages = [first];
      for (let page = 2; page <= Math.min(first.pageCount, 4); page++) pages.push(await list(cookie, location, page));
      expect(
        pages.flatMap((page) => page.items.map((lead) => lead.id)),
        location,
      ).toEqual(expected.slice(0, pages.length * 50));
    }
  }, 30_000);

  it("overlapping terms: an area code inside a selected state adds nothing; one reaching other states still finds them", async () => {
    const { cookie } = await signedIn();
    const base = Date.now() + 20 * DAY;
    await insertLeads(
      Array.from({ length: 120 }, (_, i) => ({
        // 611 only in OA; 612 in OB and OC.
        state: ["OA", "OB", "OC"][i % 3] ?? "OA",
        phone: `${i % 3 === 0 ? "611" : "612"}555${String(i).padStart(4, "0")}`,
        createdAt: base + Math.floor(i / 3),
      })),
    );
    for (const location of ["OA,611", "OA, OB, 611", "OA,612", "OA,OB,612", "OB,611,612"]) {
      const expected = await expectedIds(location);
      const first = await list(cookie, location);
      expect(first.total, location).toBe(expected.length);
      const second = await list(cookie, location, 2);
      expect(
        [...first.items, ...second.items].map((lead) => lead.id),
        location,
      ).toEqual(expected.slice(0, 100));
    }
  }, 30_000);

  it("counts only available leads: sold and running reservations out, expired reservations back in", async () => {
    const buyer = await signedIn();
    const ids = await insertLeads(Array.from({ length: 4 }, (_, i) => ({ state: "QC", phone: `505555000${i}` })));
    expect((await list(buyer.cookie, "QC")).total).toBe(4);
    const [a, b] = ids;
    const reserved = await callApi("/api/bulk-purchase-leads", { json: { leadIds: [a, b] }, cookie: buyer.cookie });
    expect(reserved.status).toBe(200);
    expect((await list(buyer.cookie, "QC")).total).toBe(2);
    await endLeadHold(testDb(), a ?? "");
    expect((await list(buyer.cookie, "qc, 505")).total).toBe(3);
    await testDb()
      .update(agedLeads)
      .set({ soldAt: new Date(), soldToUserId: buyer.user.id })
      .where(eq(agedLeads.id, ids[3] ?? ""));
    const after = await list(buyer.cookie, "QC");
    expect(after.total).toBe(2);
    expect(after.items.map((lead) => lead.id).sort()).toEqual([a, ids[2]].sort());
  });
});

interface D1Stats {
  statements: string[];
  maxParams: number;
}

/** Wraps the D1 binding: records every statement run (batches count each) and the most parameters bound. */
function spyOnD1(db: D1Database): { binding: D1Database; stats: D1Stats } {
  const stats: D1Stats = { statements: [], maxParams: 0 };
  const original = new WeakMap<object, D1PreparedStatement>();
  const sqlOf = new WeakMap<object, string>();
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        if (property === "bind") {
          return (...params: unknown[]) => {
            stats.maxParams = Math.max(stats.maxParams, params.length);
            return wrap(target.bind(...params), sql);
          };
        }
        if (property === "run" || property === "all" || property === "first" || property === "raw") {
          return (...args: unknown[]) => {
            stats.statements.push(sql);
            return (target[property] as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    original.set(proxy, statement);
    sqlOf.set(proxy, sql);
    return proxy;
  };
  const binding = new Proxy(db, {
    get(target, property) {
      // raw SQL: the statements and parameters the Worker sends D1 are measured here
      if (property === "prepare") return (sql: string) => wrap(target.prepare(sql), sql);
      if (property === "batch") {
        return (statements: D1PreparedStatement[]) => {
          for (const statement of statements) stats.statements.push(sqlOf.get(statement) ?? "?");
          return target.batch(statements.map((statement) => original.get(statement) ?? statement));
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { binding, stats };
}

async function pay(clientSecret: string, bindings?: typeof env) {
  return callApi("/api/simulated-payments/confirm", {
    json: { clientSecret, cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" },
    bindings,
  });
}

const D1_MAX_PARAMS = 100;
const D1_MAX_QUERIES = 1000;

describe("buying at scale (decision 0012)", () => {
  it("reserves and sells the largest purchase within D1's limits: ≤ 100 parameters a statement, ≤ 1,000 queries a request", async () => {
    const { user, cookie } = await signedIn();
    const ids = await insertLeads(
      Array.from({ length: MAX_RESERVED_LEADS }, (_, i) => ({
        state: "QL",
        phone: `7075${String(i).padStart(6, "0")}`,
      })),
    );
    const reserve = spyOnD1(env.DB);
    const response = await callApi("/api/bulk-purchase-leads", {
      json: { leadIds: ids },
      cookie,
      bindings: { ...env, DB: reserve.binding },
    });
    expect(response.status).toBe(200);
    const start = await response.json<{ clientSecret: string; count: number }>();
    expect(start.count).toBe(MAX_RESERVED_LEADS);
    expect(reserve.stats.statements.length).toBeGreaterThan(0);
    expect(reserve.stats.statements.length).toBeLessThanOrEqual(D1_MAX_QUERIES);
    expect(reserve.stats.maxParams).toBeLessThanOrEqual(D1_MAX_PARAMS);

    const confirm = spyOnD1(env.DB);
    expect((await pay(start.clientSecret, { ...env, DB: confirm.binding })).status).toBe(200);
    expect(confirm.stats.statements.some((sql) => sql.includes("sold_to_user_id"))).toBe(true);
    expect(confirm.stats.statements.length).toBeLessThanOrEqual(D1_MAX_QUERIES);
    expect(confirm.stats.maxParams).toBeLessThanOrEqual(D1_MAX_PARAMS);
    expect(await testDb().$count(agedLeads, and(eq(agedLeads.state, "QL"), eq(agedLeads.soldToUserId, user.id)))).toBe(
      MAX_RESERVED_LEADS,
    );
  });

  it("never sells a lead twice when 50 buyers reserve overlapping sets at once", async () => {
    const pool = await insertLeads(
      Array.from({ length: 100 }, (_, i) => ({ state: "QO", phone: `8085${String(i).padStart(6, "0")}` })),
    );
    const buyers = await Promise.all(Array.from({ length: 50 }, () => signedIn()));
    // Buyer k wants 10 leads starting at 2k: neighbours overlap by 8.
    const wanted = buyers.map((_, k) => Array.from({ length: 10 }, (_, j) => pool[(2 * k + j) % pool.length] ?? ""));
    const answers = await Promise.all(
      buyers.map((buyer, k) =>
        callApi("/api/bulk-purchase-leads", { json: { leadIds: wanted[k] }, cookie: buyer.cookie }),
      ),
    );
    const won: { k: number; clientSecret: string; orderId: string }[] = [];
    for (const [k, answer] of answers.entries()) {
      expect([200, 409]).toContain(answer.status);
      if (answer.status === 200) won.push({ k, ...(await answer.json<{ clientSecret: string; orderId: string }>()) });
      else expect((await answer.json<{ unavailable: string[] }>()).unavailable.length).toBeGreaterThan(0);
    }
    expect(won.length).toBeGreaterThan(0);
    const held = won.flatMap(({ k }) => wanted[k] ?? []);
    expect(new Set(held).size).toBe(held.length);

    for (const { clientSecret } of won) expect((await pay(clientSecret)).status).toBe(200);
    // Everyone else tries again for the same leads: all of them are gone.
    for (const [k, buyer] of buyers.entries()) {
      if (won.some((w) => w.k === k)) continue;
      const again = await callApi("/api/bulk-purchase-leads", {
        json: { leadIds: wanted[k]?.filter((id) => held.includes(id)).slice(0, 1) },
        cookie: buyer.cookie,
      });
      if (wanted[k]?.some((id) => held.includes(id))) expect(again.status).toBe(409);
    }
    const results = (
      await testDb()
        .select({ id: agedLeads.id, soldOrderId: agedLeads.soldOrderId })
        .from(agedLeads)
        .where(and(inArray(agedLeads.id, pool), isNotNull(agedLeads.soldAt)))
    ).map((row) => ({ id: row.id, sold_order_id: row.soldOrderId ?? "" }));
    expect(results.map((row) => row.id).sort()).toEqual([...held].sort());
    for (const row of results) {
      const winner = won.find((w) => w.orderId === row.sold_order_id);
      expect(winner && wanted[winner.k]).toContain(row.id);
    }
  }, 60_000);
});

describe("My Leads with 10,000 purchased leads", () => {
  it("pages on the server and streams the CSV in chunks", async () => {
    const { user, cookie } = await signedIn();
    const soldAt = Date.now() - DAY;
    const ids = await insertLeads(
      Array.from({ length: 10_000 }, (_, i) => ({
        state: "QM",
        phone: `9095${String(i).padStart(6, "0")}`,
        soldTo: user.id,
        soldAt: soldAt + Math.floor(i / 3),
      })),
    );

    const first = await (await callApi("/api/my-leads", { cookie })).json<OwnedLeadPage>();
    expect(first).toMatchObject({ total: 10_000, page: 1, pageSize: 50, pageCount: 200 });
    expect(first.items).toHaveLength(50);
    expect(first.items[0]).toMatchObject({ email: "mary@example.com", state: "QM" });
    const last = await (await callApi("/api/my-leads?page=200", { cookie })).json<OwnedLeadPage>();
    expect(last.items).toHaveLength(50);
    // Newest purchase first; equal times in id order.
    const bySoldThenId = (list: OwnedLeadPage) => list.items.map((lead) => [lead.purchasedAt, lead.id]);
    for (const page of [first, last]) {
      const pairs = bySoldThenId(page);
      const sorted = [...pairs].sort(([ta, ia], [tb, ib]) =>
        ta === tb ? String(ia).localeCompare(String(ib)) : String(tb).localeCompare(String(ta)),
      );
      expect(pairs).toEqual(sorted);
    }
    expect(new Set([...first.items, ...last.items].map((lead) => lead.id)).size).toBe(100);
    expect((await callApi("/api/my-leads?page=0", { cookie })).status).toBe(400);

    const spy = spyOnD1(env.DB);
    const csv = await callApi("/api/my-leads.csv", { cookie, bindings: { ...env, DB: spy.binding } });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const chunkReads = () => spy.stats.statements.filter((sql) => sql.includes("sold_to_user_id")).length;
    const reader = (csv.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    const firstRead = await reader.read();
    text += decoder.decode(firstRead.value, { stream: true });
    // Streaming: the first bytes leave before most of the leads have been read from D1.
    expect(chunkReads()).toBeLessThan(3);
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      text += decoder.decode(next.value, { stream: true });
    }
    const lines = text.split("\r\n");
    expect(lines[0]).toBe(
      "Name,Phone,Email,State,Form fill time,Purchased at,Order,Time zone,Callable,Opt-in time (UTC),Opt-in page URL,Consent text or version,IP address,TrustedForm certificate URL,Jornaya LeadiD,Certificate",
    );
    expect(lines).toHaveLength(10_001);
    expect(new Set(lines.slice(1)).size).toBe(10_000);
    expect(chunkReads()).toBe(11);
    expect(spy.stats.maxParams).toBeLessThanOrEqual(D1_MAX_PARAMS);
    expect(ids).toHaveLength(10_000);
  }, 30_000);
});
