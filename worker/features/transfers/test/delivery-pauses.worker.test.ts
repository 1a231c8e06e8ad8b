/**
 * A pause the system set (three unanswered transfers within an hour) is lifted only
 * when the buyer confirms or changes the transfer number; the third within 24 hours only by an admin.
 * Time is moved with a fake `Date` that the Worker reads too.
 */
import { asc, desc, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RESUME_REFUSALS } from "../../../../src/features/transfers/delivery-pauses";
import { testDb } from "../../../../tests/worker/factories";
import { callApi, latestMailTo, signedIn } from "../../../../tests/worker/helpers";
import { buyerWithOrder } from "../../../../tests/worker/returns-fixtures";
import { clearTransfers, createPartner, orderCounts, pingBody } from "../../../../tests/worker/transfer-fixtures";
import { systemPauses } from "../../../db/schema";

type Partner = Awaited<ReturnType<typeof createPartner>>;
type Buyer = Awaited<ReturnType<typeof buyerWithOrder>>;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Wednesday 2027-01-06, 10:00 in Chicago. */
const START = Date.UTC(2027, 0, 6, 16);
const at = (offsetMs: number) => vi.setSystemTime(START + offsetMs);

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  at(0);
  await clearTransfers();
});
afterEach(() => {
  vi.useRealTimers();
});

// An Illinois caller: open from 8 am Chicago time, so the morning pings below are in their calling hours
// (a Texan may be in Mountain time too, and waits for 9 am there: docs/decisions/0064).
const ping = (partner: Partner) =>
  callApi("/api/v1/transfers", { json: pingBody({ state: "IL" }), headers: partner.auth });

/** Three pings left unanswered, a minute apart from `from`: the system pauses the order. */
async function unanswered(partner: Partner, from: number, times = 3) {
  for (let i = 0; i < times; i++) {
    at(from + i * MINUTE);
    const routed = await ping(partner);
    expect(routed.status).toBe(201);
    const { transferId } = await routed.json<{ transferId: string }>();
    await callApi(`/api/v1/transfers/${transferId}/events`, { json: { type: "no-answer" }, headers: partner.auth });
  }
}

const resume = (buyer: Buyer, body?: unknown) =>
  callApi(`/api/tracker/orders/${buyer.order.id}/resume`, {
    method: "POST",
    cookie: buyer.cookie,
    ...(body === undefined ? {} : { json: body }),
  });

/** How an order's system pauses were lifted, and by whom. */
const liftsOf = (orderId: string) =>
  testDb()
    .select({ liftedHow: systemPauses.liftedHow, liftedBy: systemPauses.liftedBy })
    .from(systemPauses)
    .where(eq(systemPauses.orderId, orderId))
    .$dynamic();

describe("a pause the system set", () => {
  it("refuses a bare resume right after it, with a message that says what to do", async () => {
    const partner = await createPartner();
    const buyer = await buyerWithOrder();
    await unanswered(partner, 0);
    expect(await orderCounts(buyer.order.id)).toMatchObject({ paused: 1 });

    const bare = await resume(buyer);
    expect(bare.status).toBe(409);
    expect(await bare.json()).toEqual({
      reason: "confirm_transfer_number",
      message: RESUME_REFUSALS.confirm_transfer_number,
      transferPhone: "2145559000",
    });
    expect(RESUME_REFUSALS.confirm_transfer_number).toContain("Confirm or change your transfer number to resume");
    expect(await orderCounts(buyer.order.id)).toMatchObject({ paused: 1 });
    expect((await ping(partner)).status).toBe(409);
    // The buyer's own pause does not replace it (and so cannot be used to skip the confirmation).
    await callApi(`/api/tracker/orders/${buyer.order.id}/pause`, { method: "POST", cookie: buyer.cookie });
    expect((await resume(buyer)).status).toBe(409);
    expect(await latestMailTo(buyer.user.email)).toMatchObject({ subject: "Live transfers paused on your order" });
  });

  it("resumes once the buyer confirms the number, or changes it, and counts no-answers afresh", async () => {
    const partner = await createPartner();
    const buyer = await buyerWithOrder();
    await unanswered(partner, 0);
    expect((await resume(buyer, { transferPhone: "12" })).status).toBe(400);

    at(10 * MINUTE);
    const confirmed = await resume(buyer, { transferPhone: "(214) 555-9000" });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toMatchObject({ paused: false, pause: null, transferPhone: "2145559000" });
    // One more unanswered call does not pause it again: the three before the resume no longer count.
    await unanswered(partner, 11 * MINUTE, 1);
    expect(await orderCounts(buyer.order.id)).toMatchObject({ paused: 0 });

    await unanswered(partner, 12 * MINUTE, 2);
    expect(await orderCounts(buyer.order.id)).toMatchObject({ paused: 1 });
    at(20 * MINUTE);
    const changed = await resume(buyer, { transferPhone: "312-555-0199" });
    expect(changed.status).toBe(200);
    const routed = await ping(partner);
    expect(await routed.json()).toMatchObject({ phoneNumber: "3125550199" });
    const lifts = await liftsOf(buyer.order.id).orderBy(asc(systemPauses.pausedAt));
    expect(lifts.map(({ liftedHow, liftedBy }) => ({ lifted_how: liftedHow, lifted_by: liftedBy }))).toEqual([
      { lifted_how: "number_confirmed", lifted_by: buyer.user.id },
      { lifted_how: "number_changed", lifted_by: buyer.user.id },
    ]);
  });

  it("needs an admin the third time within 24 hours, and only an admin can lift it", async () => {
    const partner = await createPartner();
    const buyer = await buyerWithOrder();
    for (const hour of [0, 2]) {
      await unanswered(partner, hour * HOUR);
      at(hour * HOUR + 10 * MINUTE);
      expect((await resume(buyer, { transferPhone: "2145559000" })).status).toBe(200);
    }
    await unanswered(partner, 23 * HOUR);
    const refused = await resume(buyer, { transferPhone: "2145559000" });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ reason: "needs_admin", message: RESUME_REFUSALS.needs_admin });
    expect((await latestMailTo(buyer.user.email))?.text).toContain(RESUME_REFUSALS.needs_admin);
    const orders = await (await callApi("/api/tracker/orders", { cookie: buyer.cookie })).json<unknown[]>();
    expect(orders[0]).toMatchObject({
      paused: true,
      pause: { kind: "no_answer", needsNumber: true, needsAdmin: true },
    });

    const lift = `/api/admin/orders/${buyer.order.id}/lift-pause`;
    expect((await callApi(lift, { method: "POST", cookie: buyer.cookie })).status).toBe(403);
    const admin = await signedIn({ isAdmin: true });
    const lifted = await callApi(lift, { method: "POST", cookie: admin.cookie });
    expect(lifted.status).toBe(200);
    expect(await lifted.json()).toMatchObject({ paused: false, pause: null });
    expect((await ping(partner)).status).toBe(201);
    // Nothing left to lift.
    expect((await callApi(lift, { method: "POST", cookie: admin.cookie })).status).toBe(409);
    const [row] = await liftsOf(buyer.order.id).orderBy(desc(systemPauses.pausedAt)).limit(1);
    expect(row).toEqual({ liftedHow: "admin", liftedBy: admin.user.id });
  });

  it("does not need an admin when the first of three system pauses is more than 24 hours old", async () => {
    const partner = await createPartner();
    const buyer = await buyerWithOrder();
    // 10:00, 20:00 and the next day's 11:00 in Chicago: inside the prospect's calling hours (decision 0064).
    for (const hour of [0, 10]) {
      await unanswered(partner, hour * HOUR);
      at(hour * HOUR + 10 * MINUTE);
      expect((await resume(buyer, { transferPhone: "2145559000" })).status).toBe(200);
    }
    await unanswered(partner, 25 * HOUR);
    const bare = await resume(buyer);
    expect(await bare.json()).toMatchObject({ reason: "confirm_transfer_number" });
    expect((await resume(buyer, { transferPhone: "2145559000" })).status).toBe(200);
  });
});
