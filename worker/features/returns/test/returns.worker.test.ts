/** Returning transfers and aged leads, the 20 % cap, ownership, admin decisions. */

import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import {
  type AdminReturn,
  AGED_LEAD_RETURN_WINDOW_DAYS,
  type BuyerReturn,
  type EligibleReturns,
  RETURN_MESSAGES,
  type ReturnsOverview,
  TRANSFER_RETURN_WINDOW_HOURS,
} from "../../../../src/features/returns/returns";
import { testDb } from "../../../../tests/worker/factories";
import { callApi, expectAdminOnly, signedIn } from "../../../../tests/worker/helpers";
import {
  buyAgedLeads,
  buyerWithOrder,
  DAY,
  decideReturn,
  deliver,
  deliverMany,
  HOUR,
  mailsTo,
  requestReturn,
  soldAgo,
} from "../../../../tests/worker/returns-fixtures";
import {
  clearTransfers,
  createPartner,
  orderCounts,
  routeAtCallingHours,
} from "../../../../tests/worker/transfer-fixtures";
import { returns, transfers } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { partnerPayouts } from "../../partners/partner-portal";

// Pings route only inside the prospect's legal calling hours (docs/decisions/0064).
routeAtCallingHours();

beforeEach(clearTransfers);
/** Each test routes and completes several calls: slow on a shared machine. */
const SLOW = 30_000;

async function returnsOf(cookie: string): Promise<ReturnsOverview> {
  const response = await callApi("/api/returns", { cookie });
  expect(response.status).toBe(200);
  return response.json();
}

describe("the return window", { timeout: SLOW }, () => {
  it(`takes a transfer back at ${TRANSFER_RETURN_WINDOW_HOURS - 1} h and refuses it at ${TRANSFER_RETURN_WINDOW_HOURS + 1} h`, async () => {
    const partner = await createPartner();
    const buyer = await buyerWithOrder({ quantity: 50 });
    const late = await deliver(partner, { at: Date.now() - 73 * HOUR });
    const inTime = await deliver(partner, { at: Date.now() - 71 * HOUR });
    await deliverMany(partner, 8);

    const refused = await requestReturn(buyer.cookie, { kind: "transfer", itemId: late });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ message: RETURN_MESSAGES.transferWindow });
    expect(RETURN_MESSAGES.transferWindow).toContain("within 72 hours");

    const taken = await requestReturn(buyer.cookie, { kind: "transfer", itemId: inTime, reason: "wrong_state" });
    expect(taken.status).toBe(201);
    expect(await taken.json<BuyerReturn>()).toMatchObject({
      kind: "transfer",
      itemId: inTime,
      itemLabel: "Ann Lee (TX)",
      reason: "wrong_state",
      status: "pending",
      adminNote: null,
      decidedAt: null,
    });
  });

  it(`takes an aged lead back within ${AGED_LEAD_RETURN_WINDOW_DAYS} days of its purchase, not after`, async () => {
    const buyer = await signedIn();
    const { leadIds } = await buyAgedLeads(buyer.cookie, 10);
    const [recent, old] = leadIds as [string, string];
    await soldAgo(recent, 7 * DAY - HOUR);
    await soldAgo(old, 7 * DAY + HOUR);

    const refused = await requestReturn(buyer.cookie, { kind: "aged_lead", itemId: old });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ message: RETURN_MESSAGES.agedLeadWindow });
    const taken = await requestReturn(buyer.cookie, {
      kind: "aged_lead",
      itemId: recent,
      reason: "other",
      reasonText: "Never filled in a form",
    });
    expect(taken.status).toBe(201);
    expect(await taken.json<BuyerReturn>()).toMatchObject({ kind: "aged_lead", reasonText: "Never filled in a form" });
  });

  it("refuses a transfer that was not charged, a second return of one item, and 'other' without text", async () => {
    const partner = await createPartner();
    const buyer = await buyerWithOrder({ quantity: 50 });
    const short = await deliver(partner, { durationSeconds: 90 });
    const [first] = await deliverMany(partner, 10);

    const notCharged = await requestReturn(buyer.cookie, { kind: "transfer", itemId: short });
    expect(notCharged.status).toBe(409);
    expect(await notCharged.json()).toMatchObject({ message: RETURN_MESSAGES.notBillable });

    const noText = await requestReturn(buyer.cookie, { kind: "transfer", itemId: first ?? "", reason: "other" });
    expect(noText.status).toBe(400);
    expect(await noText.json()).toMatchObject({ message: RETURN_MESSAGES.otherTextRequired });

    expect((await requestReturn(buyer.cookie, { kind: "transfer", itemId: first ?? "" })).status).toBe(201);
    const again = await requestReturn(buyer.cookie, { kind: "transfer", itemId: first ?? "" });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ message: RETURN_MESSAGES.alreadyReturned });
  });
});

describe("the 20 % cap", { timeout: SLOW }, () => {
  it("allows one return for five deliveries in 14 days, and says how many remain", async () => {
    const partner = await createPartner();
    const buyer = await buyerWithOrder({ quantity: 50 });
    await deliver(partner, { at: Date.now() - 15 * DAY }); // outside the cap window
    await deliver(partner, { durationSeconds: 60 }); // not charged: not a delivery
    const [a, b] = await deliverMany(partner, 5);

    expect(await returnsOf(buyer.cookie)).toMatchObject({ remaining: 1, cap: 1, deliveriesInWindow: 5, returns: [] });
    const eligible = await (await callApi("/api/returns/eligible", { cookie: buyer.cookie })).json<EligibleReturns>();
    expect(eligible.remaining).toBe(1);
    expect(eligible.transfers).toHaveLength(5);
    expect(eligible.transfers[0]?.returnBy).toBe((eligible.transfers[0]?.deliveredAt ?? 0) + 72 * HOUR);

    expect((await requestReturn(buyer.cookie, { kind: "transfer", itemId: a ?? "" })).status).toBe(201);
    const capped = await requestReturn(buyer.cookie, { kind: "transfer", itemId: b ?? "" });
    expect(capped.status).toBe(409);
    expect(await capped.json()).toMatchObject({ message: RETURN_MESSAGES.capReached });
    expect(RETURN_MESSAGES.capReached).toContain("0 returns remain");
    expect(await returnsOf(buyer.cookie)).toMatchObject({ remaining: 0, cap: 1, deliveriesInWindow: 5 });
  });

  it("lets exactly one of two parallel returns through at the limit", async () => {
    const partner = await createPartner();
    const buyer = await buyerWithOrder({ quantity: 50 });
    const [a, b] = await deliverMany(partner, 9); // 9 × 20 % = 1.8 → 1
    const answers = await Promise.all([
      requestReturn(buyer.cookie, { kind: "transfer", itemId: a ?? "" }),
      requestReturn(buyer.cookie, { kind: "transfer", itemId: b ?? "" }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect(await testDb().$count(returns, eq(returns.buyerUserId, buyer.user.id))).toBe(1);
  });

  it("gives the allowance back when a return is denied", async () => {
    const partner = await createPartner();
    const buyer = await buyerWithOrder({ quantity: 50 });
    const [a, b] = await deliverMany(partner, 5);
    const first = await (await requestReturn(buyer.cookie, { kind: "transfer", itemId: a ?? "" })).json<BuyerReturn>();
    expect((await decideReturn(first.id, "denied", "The call lasted 5 minutes.")).status).toBe(200);
    expect((await requestReturn(buyer.cookie, { kind: "transfer", itemId: b ?? "" })).status).toBe(201);
  });
});

describe("ownership", { timeout: SLOW }, () => {
  it("answers 404 for another buyer's transfer, lead and order on every route", async () => {
    const partner = await createPartner();
    const owner = await buyerWithOrder({ quantity: 50 });
    const [transfer] = await deliverMany(partner, 6);
    const { leadIds } = await buyAgedLeads(owner.cookie, 1);
    const other = await buyerWithOrder();
    await deliverMany(partner, 5); // the other buyer has deliveries too, so the cap is not what refuses

    for (const body of [
      { kind: "transfer" as const, itemId: transfer ?? "" },
      { kind: "aged_lead" as const, itemId: leadIds[0] ?? "" },
    ]) {
      const response = await requestReturn(other.cookie, body);
      expect(response.status, body.kind).toBe(404);
      expect(await response.json()).toEqual({ message: expect.any(String) });
    }
    for (const path of [
      `/api/tracker/transfers?orderId=${owner.order.id}`,
      `/api/tracker/transfers.csv?orderId=${owner.order.id}`,
    ]) {
      expect((await callApi(path, { cookie: other.cookie })).status, path).toBe(404);
    }
    for (const action of ["pause", "resume"]) {
      const response = await callApi(`/api/tracker/orders/${owner.order.id}/${action}`, {
        method: "POST",
        cookie: other.cookie,
      });
      expect(response.status, action).toBe(404);
    }
    expect(await orderCounts(owner.order.id)).toMatchObject({ paused: 0 });
    // Nothing of the first buyer's shows in the other's tracker or return candidates.
    const page = await (await callApi("/api/tracker/transfers", { cookie: other.cookie })).json<{
      items: { id: string }[];
    }>();
    expect(page.items.map((item) => item.id)).not.toContain(transfer);
    const eligible = await (await callApi("/api/returns/eligible", { cookie: other.cookie })).json<EligibleReturns>();
    expect(eligible.transfers.map((item) => item.id)).not.toContain(transfer);
    expect(eligible.agedLeads).toEqual([]);
  });
});

describe("admin decisions", { timeout: SLOW }, () => {
  it("approving a transfer return gives the order one transfer back, reopens it and takes it out of the payout", async () => {
    const partner = await createPartner({ payPerTransferCents: 2000 });
    const buyer = await buyerWithOrder({ quantity: 5 });
    const [first] = await deliverMany(partner, 5);
    expect(await orderCounts(buyer.order.id)).toMatchObject({ billable: 5, status: "completed" });
    const payoutBefore = (await partnerPayouts(createDeps(env), partner.profile)).reduce(
      (sum, line) => sum + line.amountCents,
      0,
    );
    expect(payoutBefore).toBe(5 * 2000);

    const asked = await (
      await requestReturn(buyer.cookie, { kind: "transfer", itemId: first ?? "" })
    ).json<BuyerReturn>();
    const pending = await (
      await callApi("/api/admin/returns?status=pending", {
        cookie: (await signedIn({ isAdmin: true })).cookie,
      })
    ).json<AdminReturn[]>();
    expect(pending.find((item) => item.id === asked.id)).toMatchObject({
      buyerUsername: buyer.user.username,
      buyerEmail: buyer.user.email,
      partnerBusinessName: "Test Call Center",
    });

    const decided = await decideReturn(asked.id, "approved");
    expect(decided.status).toBe(200);
    expect(await decided.json<AdminReturn>()).toMatchObject({ status: "approved", decidedAt: expect.any(Number) });
    expect(await orderCounts(buyer.order.id)).toMatchObject({ billable: 4, status: "paid" });
    const payoutAfter = (await partnerPayouts(createDeps(env), partner.profile)).reduce(
      (sum, line) => sum + line.amountCents,
      0,
    );
    expect(payoutAfter).toBe(4 * 2000);

    // Eligible again: the next ping is routed to this order.
    const next = await deliver(partner);
    const [row] = await testDb().select({ orderId: transfers.orderId }).from(transfers).where(eq(transfers.id, next));
    expect(row).toEqual({ orderId: buyer.order.id });
    expect(await orderCounts(buyer.order.id)).toMatchObject({ billable: 5, status: "completed" });

    // E-mails: the buyer on the decision, the partner on the approved return.
    expect((await mailsTo(buyer.user.email)).at(-1)).toMatchObject({ subject: "Your return was approved" });
    expect((await mailsTo(partner.user.email)).at(-1)).toMatchObject({
      subject: "A transfer was returned by the buyer",
      text: expect.stringContaining("no longer counts in your payout"),
    });

    const twice = await decideReturn(asked.id, "denied", "Changed my mind");
    expect(twice.status).toBe(409);
    expect(await twice.json()).toEqual({ message: RETURN_MESSAGES.alreadyDecided });
  });

  it("approving an aged-lead return takes the lead out of My Leads and credits its price", async () => {
    const buyer = await signedIn();
    const { leadIds } = await buyAgedLeads(buyer.cookie, 5);
    const asked = await (
      await requestReturn(buyer.cookie, { kind: "aged_lead", itemId: leadIds[0] ?? "" })
    ).json<BuyerReturn>();
    expect((await decideReturn(asked.id, "approved")).status).toBe(200);

    const myLeads = await (await callApi("/api/my-leads", { cookie: buyer.cookie })).json<{
      items: { id: string }[];
    }>();
    expect(myLeads.items.map((lead) => lead.id).sort()).toEqual(leadIds.slice(1).sort());
    const balance = await (await callApi("/api/balance", { cookie: buyer.cookie })).json<{
      balanceCents: number;
      entries: { amountCents: number; reason: string }[];
    }>();
    expect(balance).toMatchObject({ balanceCents: 500, entries: [{ amountCents: 500, reason: "return_credit" }] });
    expect((await mailsTo(buyer.user.email)).at(-1)?.text).toContain("credited to your balance");
  });

  it("denying needs a note, which the buyer sees in the list and the e-mail", async () => {
    const partner = await createPartner();
    const buyer = await buyerWithOrder({ quantity: 50 });
    const [first] = await deliverMany(partner, 5);
    const asked = await (
      await requestReturn(buyer.cookie, { kind: "transfer", itemId: first ?? "" })
    ).json<BuyerReturn>();

    const noNote = await decideReturn(asked.id, "denied");
    expect(noNote.status).toBe(400);
    expect(await noNote.json()).toMatchObject({ message: RETURN_MESSAGES.noteRequired });

    expect((await decideReturn(asked.id, "denied", "The recording shows a 6-minute conversation.")).status).toBe(200);
    const { returns } = await returnsOf(buyer.cookie);
    expect(returns[0]).toMatchObject({
      id: asked.id,
      status: "denied",
      adminNote: "The recording shows a 6-minute conversation.",
    });
    const mail = (await mailsTo(buyer.user.email)).at(-1);
    expect(mail).toMatchObject({ subject: "Your return was denied" });
    expect(mail?.text).toContain("The recording shows a 6-minute conversation.");
    // Denied: the order keeps its count and the partner is not told.
    expect(await orderCounts(buyer.order.id)).toMatchObject({ billable: 5 });
    expect(await mailsTo(partner.user.email)).toEqual([]);
  });

  it("answers 404 for an unknown return and 400 for a bad decision", async () => {
    const admin = await signedIn({ isAdmin: true });
    const unknown = await callApi(`/api/admin/returns/${crypto.randomUUID()}/decision`, {
      json: { decision: "approved" },
      cookie: admin.cookie,
    });
    expect(unknown.status).toBe(404);
    const bad = await callApi(`/api/admin/returns/${crypto.randomUUID()}/decision`, {
      json: { decision: "maybe" },
      cookie: admin.cookie,
    });
    expect(bad.status).toBe(400);
    expect((await callApi("/api/admin/returns?status=lost", { cookie: admin.cookie })).status).toBe(400);
  });
});

describe("who may call", { timeout: SLOW }, () => {
  it("answers 401 anonymous and 403 to partners on every buyer route", async () => {
    const partner = await createPartner();
    const partnerCookie = (
      await callApi("/api/login", { json: { username: partner.user.username, password: partner.user.password } })
    ).headers
      .getSetCookie()[0]
      ?.split(";")[0];
    const orderId = crypto.randomUUID();
    const routes: [string, string, unknown?][] = [
      ["GET", "/api/tracker/transfers"],
      ["GET", "/api/tracker/transfers.csv"],
      ["GET", "/api/tracker/orders"],
      ["POST", `/api/tracker/orders/${orderId}/pause`],
      ["POST", `/api/tracker/orders/${orderId}/resume`],
      ["GET", "/api/returns"],
      ["GET", "/api/returns/eligible"],
      ["POST", "/api/returns", { kind: "transfer", itemId: "x", reason: "duplicate" }],
      ["GET", "/api/balance"],
    ];
    for (const [method, path, json] of routes) {
      const anonymous = await callApi(path, { method, json: json ?? (method === "POST" ? {} : undefined) });
      expect(anonymous.status, `${method} ${path} anonymous`).toBe(401);
      const asPartner = await callApi(path, {
        method,
        json: json ?? (method === "POST" ? {} : undefined),
        cookie: partnerCookie,
      });
      expect(asPartner.status, `${method} ${path} as partner`).toBe(403);
    }
  });

  it("answers 401 anonymous and 403 to buyers on every admin route", async () => {
    await expectAdminOnly("/api/admin/fulfilment");
    await expectAdminOnly("/api/admin/returns");
    await expectAdminOnly(`/api/admin/returns/${crypto.randomUUID()}/decision`, {
      method: "POST",
      json: { decision: "approved" },
    });
  });
});
