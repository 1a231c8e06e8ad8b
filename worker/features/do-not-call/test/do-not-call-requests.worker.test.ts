/**
 * docs/decisions/0055: a /do-not-call request keeps its time, a salted hash of the client address and the
 * user agent (never the address); admins list and search the requests and take a number off the shop's own
 * list with a logged reason, which frees its leads by product rule 40; a burst of more than 100 numbers in
 * an hour e-mails the admins, at most once an hour; and only admins reach the admin routes.
 */

import { env } from "cloudflare:workers";
import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  BURST_NUMBERS,
  BURST_WINDOW_MS,
  CLIENT_HASH_SHOWN,
  DO_NOT_CALL_REMOVAL_MESSAGES,
  DO_NOT_CALL_REQUESTS_PAGE_SIZE,
  type DoNotCallRequestPage,
  formatPhoneKey,
  USER_AGENT_MAX_LENGTH,
} from "../../../../src/features/do-not-call/do-not-call-requests";
import { testDb } from "../../../../tests/worker/factories";
import { storedRow } from "../../../../tests/worker/factories/rows";
import { callApi, expectAdminOnly, signedIn } from "../../../../tests/worker/helpers";
import { signedInPartner } from "../../../../tests/worker/partner-helpers";
import {
  freshPhone,
  insertLeads,
  marketplace,
  uniqueState,
  uploadList,
} from "../../../../tests/worker/suppression-fixtures";
import { doNotCallRemovals, doNotCallRequests, outbox, suppressionLists, suppressionNumbers } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { emails } from "../../../services/email-templates";
import { clientHash, requestDoNotCall as requestThroughService } from "../do-not-call";

const REQUESTS = "/api/admin/do-not-call-requests";
const REMOVALS = "/api/admin/do-not-call-removals";

const ask = (phone: string, headers: Record<string, string> = {}) =>
  callApi("/api/do-not-call", { json: { phone }, headers });

async function requestsFor(cookie: string, query = "") {
  const response = await callApi(`${REQUESTS}${query}`, { cookie });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json<DoNotCallRequestPage>();
}

const onInternalList = async (phone: string) =>
  (
    await testDb()
      .select({ n: count() })
      .from(suppressionNumbers)
      .innerJoin(suppressionLists, eq(suppressionLists.id, suppressionNumbers.listId))
      .where(and(eq(suppressionLists.kind, "internal_dnc"), eq(suppressionNumbers.number, Number(phone))))
  )[0]?.n ?? 0;

describe("a /do-not-call request keeps when, a hash of where from, and which browser", () => {
  it("stores the time, a salted SHA-256 of the address and the user agent cut short, never the address", async () => {
    const phone = freshPhone();
    const address = "203.0.113.77";
    const userAgent = `Mozilla/5.0 ${"x".repeat(400)}`;
    const before = Date.now();
    const response = await ask(phone, { "CF-Connecting-IP": address, "User-Agent": userAgent });
    expect(response.status).toBe(200);

    const row = await storedRow(testDb(), doNotCallRequests, eq(doNotCallRequests.number, Number(phone)));
    expect(row?.created_at).toBeGreaterThanOrEqual(before);
    expect(row?.created_at).toBeLessThanOrEqual(Date.now());
    expect(row?.user_agent).toBe(userAgent.slice(0, USER_AGENT_MAX_LENGTH));
    expect(row?.client_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.client_hash).toBe(await clientHash(createDeps(env), address));
    // Salted: not the plain SHA-256 of the address; and the address is in no column.
    const plain = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(address)));
    expect(row?.client_hash).not.toBe(Array.from(plain, (b) => b.toString(16).padStart(2, "0")).join(""));
    expect(JSON.stringify(row)).not.toContain(address);
  });

  it("hashes one address alike and two addresses apart, and a different salt differently", async () => {
    const deps = createDeps(env);
    expect(await clientHash(deps, "198.51.100.1")).toBe(await clientHash(deps, "198.51.100.1"));
    expect(await clientHash(deps, "198.51.100.1")).not.toBe(await clientHash(deps, "198.51.100.2"));
    const salted = createDeps({ ...env, CLIENT_HASH_SALT: "another salt" });
    expect(await clientHash(salted, "198.51.100.1")).not.toBe(await clientHash(deps, "198.51.100.1"));
  });
});

describe("the admins' list of requests", () => {
  it("lists the requests newest first, paged, with the hash shortened and the user agent", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const [older, newer] = [freshPhone(), freshPhone()];
    await ask(older, { "User-Agent": "Older browser" });
    await ask(newer, { "User-Agent": "Newer browser" });

    const first = await requestsFor(cookie);
    expect(first.page).toBe(1);
    expect(first.pageSize).toBe(DO_NOT_CALL_REQUESTS_PAGE_SIZE);
    expect(first.requests.length).toBeLessThanOrEqual(DO_NOT_CALL_REQUESTS_PAGE_SIZE);
    const times = first.requests.map((request) => request.createdAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const phones = first.requests.map((request) => request.phone);
    expect(phones.indexOf(newer)).toBeGreaterThanOrEqual(0);
    expect(phones.indexOf(newer)).toBeLessThan(phones.indexOf(older));
    const shown = first.requests.find((request) => request.phone === newer);
    expect(shown).toMatchObject({ userAgent: "Newer browser", listed: true, removal: null });
    expect(shown?.client).toMatch(new RegExp(`^[0-9a-f]{${CLIENT_HASH_SHOWN}}$`));

    if (first.count > DO_NOT_CALL_REQUESTS_PAGE_SIZE) {
      const second = await requestsFor(cookie, "?page=2");
      expect(second.page).toBe(2);
      expect(second.requests[0]?.createdAt).toBeLessThanOrEqual(times.at(-1) ?? 0);
    }
  });

  it("pages: 26 requests for one number fill one page of 25 and one of 1", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const phone = freshPhone();
    for (let i = 0; i < DO_NOT_CALL_REQUESTS_PAGE_SIZE + 1; i++) expect((await ask(phone)).status).toBe(200);
    const first = await requestsFor(cookie, `?phone=${phone}`);
    const second = await requestsFor(cookie, `?phone=${phone}&page=2`);
    expect(first.count).toBe(DO_NOT_CALL_REQUESTS_PAGE_SIZE + 1);
    expect(first.requests).toHaveLength(DO_NOT_CALL_REQUESTS_PAGE_SIZE);
    expect(second.requests).toHaveLength(1);
    const ids = new Set([...first.requests, ...second.requests].map((request) => request.id));
    expect(ids.size).toBe(DO_NOT_CALL_REQUESTS_PAGE_SIZE + 1);
  });

  it("searches a number in any formatting, and refuses one that is no US number", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const [phone, other] = [freshPhone(), freshPhone()];
    await ask(phone);
    await ask(other);
    const found = await requestsFor(cookie, `?phone=${encodeURIComponent(`+1 ${formatPhoneKey(phone)}`)}`);
    expect(found.count).toBe(1);
    expect(found.requests.map((request) => request.phone)).toEqual([phone]);

    const bad = await callApi(`${REQUESTS}?phone=12345`, { cookie });
    expect(bad.status).toBe(400);
    expect((await bad.json<{ errors: Record<string, string> }>()).errors.phone).toBe(
      DO_NOT_CALL_REMOVAL_MESSAGES.phone,
    );
  });
});

describe("an admin removes a number with a reason", () => {
  it("takes it off the shop's list, logs who, when and why, and its unsold lead is for sale again", async () => {
    const { user: admin, cookie } = await signedIn({ isAdmin: true });
    const { cookie: buyer } = await signedIn();
    const state = uniqueState();
    const phone = freshPhone();
    const [lead] = await insertLeads(state, [phone]);
    await ask(phone);
    expect((await marketplace(buyer, state)).ids).toEqual([]);
    const count = async () =>
      (
        await testDb()
          .select({ numbers: suppressionLists.numbers })
          .from(suppressionLists)
          .where(eq(suppressionLists.kind, "internal_dnc"))
      )[0];
    const before = (await count())?.numbers ?? 0;

    const started = Date.now();
    const response = await callApi(REMOVALS, {
      cookie,
      json: { phone, reason: "Asked by a competitor, not the owner" },
    });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toEqual({
      phone: formatPhoneKey(phone),
      message: DO_NOT_CALL_REMOVAL_MESSAGES.removed(formatPhoneKey(phone)),
      leadsReleased: 1,
    });

    expect(await onInternalList(phone)).toBe(0);
    expect((await count())?.numbers).toBe(before - 1);
    expect((await marketplace(buyer, state)).ids).toEqual([lead]);
    const [log] = await testDb()
      .select({
        removedBy: doNotCallRemovals.removedBy,
        reason: doNotCallRemovals.reason,
        createdAt: doNotCallRemovals.createdAt,
      })
      .from(doNotCallRemovals)
      .where(eq(doNotCallRemovals.number, Number(phone)));
    expect(log).toMatchObject({ removedBy: admin.id, reason: "Asked by a competitor, not the owner" });
    expect(log?.createdAt.getTime()).toBeGreaterThanOrEqual(started);

    // The admin list shows who removed it, when and why; the request itself stays on record.
    const [shown] = (await requestsFor(cookie, `?phone=${phone}`)).requests;
    expect(shown).toMatchObject({
      listed: false,
      removal: { by: admin.email, reason: "Asked by a competitor, not the owner", at: log?.createdAt.getTime() },
    });
  });

  it("leaves the lead suppressed while another shared list still holds the number", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const { cookie: buyer } = await signedIn();
    const state = uniqueState();
    const phone = freshPhone();
    await insertLeads(state, [phone]);
    await uploadList({ cookie, kind: "litigator", add: [Number(phone)] });
    await ask(phone);
    const response = await callApi(REMOVALS, { cookie, json: { phone, reason: "Checked with the owner" } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ leadsReleased: 0 });
    expect((await marketplace(buyer, state)).total).toBe(0);
  });

  const fieldError = (field: string, message: string) => () => ({ errors: { [field]: message } });
  it.each([
    [
      "a number that is not listed",
      { reason: "Typo" },
      404,
      (phone: string) => ({ message: DO_NOT_CALL_REMOVAL_MESSAGES.notListed(formatPhoneKey(phone)) }),
    ],
    ["no reason", { reason: "" }, 400, fieldError("reason", DO_NOT_CALL_REMOVAL_MESSAGES.reason)],
    ["a blank reason", { reason: "   " }, 400, fieldError("reason", DO_NOT_CALL_REMOVAL_MESSAGES.reason)],
    [
      "a reason too long",
      { reason: "x".repeat(501) },
      400,
      fieldError("reason", DO_NOT_CALL_REMOVAL_MESSAGES.reasonLength),
    ],
    ["no phone", { phone: "", reason: "Typo" }, 400, fieldError("phone", DO_NOT_CALL_REMOVAL_MESSAGES.phone)],
  ])("refuses %s with a message and changes nothing", async (name, body, status, answer) => {
    const { cookie } = await signedIn({ isAdmin: true });
    const phone = freshPhone();
    const listed = name !== "a number that is not listed";
    if (listed) await ask(phone);
    const removals = () => testDb().$count(doNotCallRemovals);
    const logged = await removals();

    const response = await callApi(REMOVALS, { cookie, json: { phone, ...body } });
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject(answer(phone));
    expect(await removals()).toBe(logged);
    expect(await onInternalList(phone)).toBe(listed ? 1 : 0);
  });

  it("a second removal of the same number is refused: it is no longer listed", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const phone = freshPhone();
    await ask(phone);
    expect((await callApi(REMOVALS, { cookie, json: { phone, reason: "Owner called us" } })).status).toBe(200);
    const again = await callApi(REMOVALS, { cookie, json: { phone, reason: "Owner called us" } });
    expect(again.status).toBe(404);
  });
});

describe("a burst of requests from many addresses alerts the admins", () => {
  /** `n` requests for fresh numbers, each from its own address, at `at` (a clock of its own, far from now). */
  async function burst(n: number, at: number, phones = Array.from({ length: n }, freshPhone)) {
    for (const [i, phone] of phones.entries()) {
      await requestThroughService(
        createDeps(env, at + i),
        { phone },
        { address: `192.0.2.${i % 250}-${at}-${i}`, userAgent: "burst" },
      );
    }
    return phones;
  }
  const alertsTo = async (email: string) =>
    await testDb()
      .select({ text: outbox.text })
      .from(outbox)
      .where(and(eq(outbox.to, email), eq(outbox.subject, "Unusual number of Do Not Call requests")));

  it(`says nothing at ${BURST_NUMBERS} numbers in an hour, e-mails once past it, and again only an hour later`, async () => {
    const { user: admin } = await signedIn({ isAdmin: true });
    const { user: buyer } = await signedIn();
    // An hour of its own, a year ahead: no other test's requests fall in it.
    const start = Date.now() + 365 * 86_400_000;
    const phones = await burst(BURST_NUMBERS, start);
    // The same numbers asked for again do not count twice.
    await burst(10, start + 500, phones.slice(0, 10));
    expect(await alertsTo(admin.email)).toHaveLength(0);

    await burst(1, start + 1000);
    const alerts = await alertsTo(admin.email);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.text).toContain(`put ${BURST_NUMBERS + 1} numbers on our Do Not Call list`);
    // The ten asked again came from addresses of their own.
    expect(alerts[0]?.text).toContain(`from ${BURST_NUMBERS + 11} addresses`);
    expect(alerts[0]?.text).toContain("/admin?tab=dnc-requests");
    expect(await alertsTo(buyer.email)).toHaveLength(0);

    await burst(20, start + 2000);
    expect(await alertsTo(admin.email)).toHaveLength(1);

    // An hour after the alert, a new burst alerts again.
    await burst(BURST_NUMBERS + 1, start + 1000 + BURST_WINDOW_MS + 1);
    expect(await alertsTo(admin.email)).toHaveLength(2);
  }, 60_000);
});

describe("the burst e-mail", () => {
  it("links to the requests tab under the site's origin, in the text and the HTML", () => {
    const site = "https://shop.example";
    const email = emails.doNotCallBurst(site, {
      numbers: 150,
      addresses: 1,
      windowMinutes: 60,
      path: "/admin?tab=dnc-requests",
    });
    expect(email.links).toEqual([`${site}/admin?tab=dnc-requests`]);
    expect(email.text).toContain(`${site}/admin?tab=dnc-requests`);
    expect(email.html).toContain(`<a href="${site}/admin?tab=dnc-requests">`);
    expect(email.text).toContain("put 150 numbers on our Do Not Call list, asked from 1 address.");
  });
});

describe("who may call the routes", () => {
  it("anyone may ask not to be called; only admins list requests or remove a number", async () => {
    expect((await ask(freshPhone())).status).toBe(200);
    await expectAdminOnly(REQUESTS);
    await expectAdminOnly(REMOVALS, { json: { phone: freshPhone(), reason: "Not theirs" } });
    const partner = await signedInPartner();
    for (const [path, json] of [
      [REQUESTS, undefined],
      [REMOVALS, { phone: freshPhone(), reason: "Not theirs" }],
    ] as const) {
      const response = await callApi(path, { cookie: partner.cookie, ...(json ? { json } : {}) });
      expect(response.status).toBe(403);
    }
    const { cookie } = await signedIn({ isAdmin: true });
    expect((await callApi(REQUESTS, { cookie })).status).toBe(200);
  });
});
