/**
 * Pings obey the calling rules (docs/decisions/0064): outside the prospect's legal hours a ping answers
 * 409 `calling_window`, over their state's calls in 24 hours 409 `call_limit` (only where an order would
 * take the call, and using one of the partner's daily calls), each with the moment it may next be routed;
 * both are counted for the partner's day and described in the OpenAPI document.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NO_ROUTE_REASONS } from "../../../../src/features/transfers/transfers";
import { testDb } from "../../../../tests/worker/factories";
import { callApi } from "../../../../tests/worker/helpers";
import {
  clearTransfers,
  createOpenOrder,
  createPartner,
  newPhone,
  pingBody,
} from "../../../../tests/worker/transfer-fixtures";
import { transfers } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { partnerStats } from "../../partners/partner-portal";

type Partner = Awaited<ReturnType<typeof createPartner>>;

const at = (iso: string) => vi.setSystemTime(Date.parse(iso));
beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  // Wednesday 2027-03-03, 10:00 in Chicago: open for every prospect below.
  at("2027-03-03T16:00:00Z");
  await clearTransfers();
});
afterEach(() => {
  vi.useRealTimers();
});

const ping = (partner: Partner, prospect: { state: string; phone: string; zip?: string }) => {
  const body = pingBody({ state: prospect.state, phone: prospect.phone });
  return callApi("/api/v1/transfers", {
    json: { ...body, prospect: { ...body.prospect, ...(prospect.zip ? { zip: prospect.zip } : {}) } },
    headers: partner.auth,
  });
};
const refusalsToday = async (partner: Partner) =>
  (await partnerStats(createDeps(env, Date.now()), partner.profile)).today.refusals;

describe("calling_window", () => {
  it("refuses a Texan at 9:30 pm Chicago time with the next 9 am, and routes an Illinois prospect at 7:30 pm", async () => {
    await createOpenOrder();
    const partner = await createPartner();
    // Tuesday 2027-03-02, 21:30 in Chicago (CST, UTC-6).
    at("2027-03-03T03:30:00Z");
    const refused = await ping(partner, { state: "TX", phone: newPhone("214"), zip: "75201" });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      reason: "calling_window",
      message: expect.stringContaining("legal calling hours"),
      nextAllowedAt: "2027-03-03T15:00:00.000Z",
    });
    // Without a ZIP, the area code's state spans Chicago and Denver: the stricter answer is 9 am in Denver.
    const byAreaCode = await ping(partner, { state: "TX", phone: newPhone("214") });
    expect(await byAreaCode.json()).toMatchObject({ nextAllowedAt: "2027-03-03T16:00:00.000Z" });
    expect(await testDb().$count(transfers)).toBe(0);
    // 19:30 in Chicago: inside the federal hours, so an Illinois prospect routes.
    at("2027-03-03T01:30:00Z");
    expect((await ping(partner, { state: "IL", phone: newPhone("312") })).status).toBe(201);
    expect(await refusalsToday(partner)).toMatchObject({ refused: 2, callingWindow: 2 });
  });

  it("keeps Florida's 8 pm in the prospect's ZIP zone, and counts the refusal on the partner's day", async () => {
    await createOpenOrder();
    const partner = await createPartner();
    // 20:30 in Miami (EST) is 19:30 in Pensacola (CST): the ZIP decides.
    at("2027-03-03T01:30:00Z");
    const miami = await ping(partner, { state: "FL", phone: newPhone("305"), zip: "33101" });
    expect(miami.status).toBe(409);
    expect(await miami.json()).toMatchObject({ reason: "calling_window", nextAllowedAt: "2027-03-03T13:00:00.000Z" });
    expect((await ping(partner, { state: "FL", phone: newPhone("850"), zip: "32501" })).status).toBe(201);
    expect(await refusalsToday(partner)).toEqual({ refused: 1, callingWindow: 1, callLimit: 0, suppressed: 0 });
  });

  it("refuses an Alabama prospect on a Sunday, with Monday 8 am", async () => {
    await createOpenOrder();
    const partner = await createPartner();
    // Sunday 2027-03-07, 12:00 in Birmingham (CST).
    at("2027-03-07T18:00:00Z");
    const response = await ping(partner, { state: "AL", phone: newPhone("205") });
    expect(await response.json()).toMatchObject({
      reason: "calling_window",
      nextAllowedAt: "2027-03-08T14:00:00.000Z",
    });
  });
});

describe("calling_window on a state holiday (date-holidays in the Worker)", () => {
  it("refuses an Alabama prospect on Robert E. Lee / Martin Luther King Day, a Monday, with Tuesday 8 am", async () => {
    await createOpenOrder();
    const partner = await createPartner();
    // Monday 2027-01-18, 12:00 in Birmingham (CST).
    at("2027-01-18T18:00:00Z");
    const response = await ping(partner, { state: "AL", phone: newPhone("205"), zip: "35203" });
    expect(await response.json()).toMatchObject({
      reason: "calling_window",
      nextAllowedAt: "2027-01-19T14:00:00.000Z",
    });
    // A Texan at the same moment is routed: the holiday is Alabama's rule only.
    expect((await ping(partner, { state: "TX", phone: newPhone("214"), zip: "75201" })).status).toBe(201);
  });
});

describe("call_limit", () => {
  it("routes a Florida number 3 times in 24 hours, then answers when the first of them is 24 hours old", async () => {
    for (let n = 0; n < 4; n++) await createOpenOrder({ paidAt: n + 1 });
    const partner = await createPartner();
    const phone = newPhone("305");
    const times = ["2027-03-03T15:00:00Z", "2027-03-03T16:00:00Z", "2027-03-03T17:00:00Z"];
    for (const time of times) {
      at(time);
      expect((await ping(partner, { state: "FL", phone, zip: "33101" })).status).toBe(201);
    }
    at("2027-03-03T18:00:00Z");
    const refused = await ping(partner, { state: "FL", phone, zip: "33101" });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      reason: "call_limit",
      message: expect.stringContaining("24 hours"),
      nextAllowedAt: "2027-03-04T15:00:00.000Z",
    });
    expect(await refusalsToday(partner)).toMatchObject({ refused: 1, callLimit: 1, callingWindow: 0 });
    at("2027-03-04T15:00:00Z");
    expect((await ping(partner, { state: "FL", phone, zip: "33101" })).status).toBe(201);
  });

  it("answers `call_limit` only when an order would take the call: with none, the answer a number under its limit gets", async () => {
    for (let n = 0; n < 3; n++) await createOpenOrder({ paidAt: n + 1 });
    const partner = await createPartner();
    const [limited, under] = [newPhone("305"), newPhone("305")];
    const times = ["2027-03-03T15:00:00Z", "2027-03-03T16:00:00Z", "2027-03-03T17:00:00Z"];
    for (const time of times) {
      at(time);
      expect((await ping(partner, { state: "FL", phone: limited, zip: "33101" })).status).toBe(201);
    }
    // Under its limit but already delivered to the same three buyers (two calls, and one a day ago).
    at("2027-03-02T17:00:00Z");
    expect((await ping(partner, { state: "FL", phone: under, zip: "33101" })).status).toBe(201);
    for (const time of times.slice(0, 2)) {
      at(time);
      expect((await ping(partner, { state: "FL", phone: under, zip: "33101" })).status).toBe(201);
    }
    // Every buyer had the caller within 30 days: no order would take either call, so the calls made
    // earlier (and when) stay unsaid, and neither answer uses a daily call.
    at("2027-03-03T18:00:00Z");
    const atLimit = await ping(partner, { state: "FL", phone: limited, zip: "33101" });
    const underLimit = await ping(partner, { state: "FL", phone: under, zip: "33101" });
    const duplicate = { message: NO_ROUTE_REASONS.duplicate, reason: "duplicate" };
    expect({ status: atLimit.status, body: await atLimit.json() }).toEqual({ status: 409, body: duplicate });
    expect({ status: underLimit.status, body: await underLimit.json() }).toEqual({ status: 409, body: duplicate });
    expect(await refusalsToday(partner)).toMatchObject({ refused: 2, callLimit: 0 });
  });

  it("answers `call_limit` when an order further down the open orders would take the call (the full read)", async () => {
    for (let n = 0; n < 3; n++) await createOpenOrder({ paidAt: n + 1 });
    const partner = await createPartner();
    const phone = newPhone("305");
    const times = ["2027-03-03T15:00:00Z", "2027-03-03T16:00:00Z", "2027-03-03T17:00:00Z"];
    for (const time of times) {
      at(time);
      expect((await ping(partner, { state: "FL", phone, zip: "33101" })).status).toBe(201);
    }
    // A first page of orders that take no call today, and one after them that would.
    for (let n = 0; n < 25; n++) await createOpenOrder({ paidAt: 10 + n, perDayCap: 0 });
    await createOpenOrder({ paidAt: 100 });
    at("2027-03-03T18:00:00Z");
    const refused = await ping(partner, { state: "FL", phone, zip: "33101" });
    expect(await refused.json()).toMatchObject({ reason: "call_limit", nextAllowedAt: "2027-03-04T15:00:00.000Z" });
  });

  it("uses one of the partner's daily calls, as a routed call and `suppressed` do", async () => {
    for (let n = 0; n < 4; n++) await createOpenOrder({ paidAt: n + 1 });
    const partner = await createPartner({ dailyCallCap: 4 });
    const phone = newPhone("305");
    for (const time of ["2027-03-03T15:00:00Z", "2027-03-03T16:00:00Z", "2027-03-03T17:00:00Z"]) {
      at(time);
      expect((await ping(partner, { state: "FL", phone, zip: "33101" })).status).toBe(201);
    }
    at("2027-03-03T18:00:00Z");
    expect(await (await ping(partner, { state: "FL", phone, zip: "33101" })).json()).toMatchObject({
      reason: "call_limit",
    });
    // Three calls and one `call_limit` used the cap of 4: a clean number is no longer routed today.
    const capped = await ping(partner, { state: "TX", phone: newPhone("214") });
    expect(await capped.json()).toMatchObject({ reason: "partner_cap_reached" });
    expect(await refusalsToday(partner)).toMatchObject({ refused: 2, callLimit: 1 });
  });

  it("takes no count in a state without a limit: a Texan's fourth call in an hour routes", async () => {
    for (let n = 0; n < 4; n++) await createOpenOrder({ paidAt: n + 1 });
    const partner = await createPartner();
    const phone = newPhone("214");
    for (let n = 0; n < 4; n++) expect((await ping(partner, { state: "TX", phone })).status).toBe(201);
  });
});

describe("the OpenAPI document", () => {
  it("names both reasons and the next allowed time of a ping's 409", async () => {
    const document = JSON.stringify(await (await callApi("/api/v1/openapi.json")).json());
    for (const word of ["calling_window", "call_limit", "nextAllowedAt"]) expect(document).toContain(word);
  });
});
