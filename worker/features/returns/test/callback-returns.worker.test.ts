/**
 * Outcomes and returns of delivered call-backs and appointments (product rule 24, docs/decisions/0062):
 * the buyer marks them, returns one not reached from its window's end until 24 hours after within the
 * 20 % cap (a return and an outcome changed to reached in parallel never both stand), and an admin's
 * approval gives the order a place back (the next waiting call-back fills it) or credits a call-back
 * bought without an order, once.
 */

import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { DeliveredCallback } from "../../../../src/features/callbacks/schemas/callbacks";
import { CALLBACK_RETURN_MESSAGES } from "../../../../src/features/returns/callback-returns";
import { RETURN_MESSAGES } from "../../../../src/features/returns/returns";
import {
  addCallback,
  callbackRow,
  countedIn,
  HOUR,
  MINUTE,
  paidCallbackOrder,
} from "../../../../tests/worker/callback-fixtures";
import { testDb } from "../../../../tests/worker/factories";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import { signedInPartner } from "../../../../tests/worker/partner-helpers";
import { decideReturn, mailsTo } from "../../../../tests/worker/returns-fixtures";
import { balanceLedger, callbackOpportunities, orders, returns } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { setCallbackOutcome } from "../callback-returns";
import { createReturn } from "../returns";

const mark = (cookie: string, id: string, outcome: unknown) =>
  callApi(`/api/my-callbacks/${id}/outcome`, { method: "PUT", json: { outcome }, cookie });
const returnIt = (cookie: string, itemId: string) =>
  callApi("/api/returns", { json: { kind: "callback", itemId, reason: "disconnected" }, cookie });

async function myCallbacks(cookie: string): Promise<DeliveredCallback[]> {
  const response = await callApi("/api/my-callbacks", { cookie });
  expect(response.status).toBe(200);
  return (await response.json<{ callbacks: DeliveredCallback[] }>()).callbacks;
}

/** A buyer with `count` delivered call-backs in one order, windows ended an hour ago (5 allow one return). */
async function buyerWithCallbacks(count = 5, quantity = count, paidAgo = 0) {
  const buyer = await signedIn();
  const orderId = await paidCallbackOrder(buyer.user.id, quantity, paidAgo);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await addCallback({ buyerUserId: buyer.user.id, orderId, endedAgo: HOUR }));
  return { ...buyer, orderId, ids };
}

async function returnsOf(callbackId: string) {
  return testDb()
    .select({ id: returns.id, status: returns.status })
    .from(returns)
    .where(eq(returns.callbackId, callbackId));
}

async function balanceOf(cookie: string): Promise<number> {
  return (await (await callApi("/api/balance", { cookie })).json<{ balanceCents: number }>()).balanceCents;
}

describe("PUT /api/my-callbacks/:id/outcome", () => {
  it("lets the owner mark and change a call-back's outcome, shown in My Call-Backs and its CSV", async () => {
    const { cookie, ids } = await buyerWithCallbacks(1);
    const id = ids[0] as string;
    const marked = await mark(cookie, id, "no_answer");
    expect(marked.status).toBe(200);
    expect(await marked.json()).toEqual({ id, outcome: "no_answer" });
    expect((await myCallbacks(cookie)).find((item) => item.id === id)).toMatchObject({
      outcome: "no_answer",
      returnStatus: null,
    });
    expect((await mark(cookie, id, "reached")).status).toBe(200);
    expect((await callbackRow(id))?.outcome).toBe("reached");
    const csv = await (await callApi("/api/my-callbacks.csv", { cookie })).text();
    expect(csv.split("\r\n")[0]).toContain("Order,Outcome,Return");
    expect(csv).toContain(',"Reached",');
  });

  it("answers 404 to another buyer, a partner and an unknown id, 401 anonymous, and changes nothing", async () => {
    const { ids } = await buyerWithCallbacks(1);
    const id = ids[0] as string;
    const other = await signedIn();
    const notMine = await mark(other.cookie, id, "wrong_number");
    expect(notMine.status).toBe(404);
    expect(await notMine.json()).toEqual({ message: "No such call-back." });
    expect((await mark(other.cookie, crypto.randomUUID(), "reached")).status).toBe(404);
    expect(
      (await callApi(`/api/my-callbacks/${id}/outcome`, { method: "PUT", json: { outcome: "reached" } })).status,
    ).toBe(401);
    const partner = await signedInPartner();
    expect((await mark(partner.cookie, id, "reached")).status).toBe(403);
    expect((await callbackRow(id))?.outcome).toBeNull();
  });

  it("refuses an unknown outcome with 400 and its message", async () => {
    const { cookie, ids } = await buyerWithCallbacks(1);
    for (const outcome of ["answered", "", 3, null]) {
      const response = await mark(cookie, ids[0] as string, outcome);
      expect(response.status).toBe(400);
      expect((await response.json<{ message: string }>()).message).toContain(CALLBACK_RETURN_MESSAGES.outcomeInvalid);
    }
    expect((await callbackRow(ids[0] as string))?.outcome).toBeNull();
  });
});

describe("returning a call-back (POST /api/returns, kind callback)", () => {
  it("takes a no-answer call-back after its window, once; its outcome is then locked", async () => {
    const { cookie, ids } = await buyerWithCallbacks(5);
    const id = ids[0] as string;
    await mark(cookie, id, "no_answer");
    const first = await returnIt(cookie, id);
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({
      kind: "callback",
      itemId: id,
      status: "pending",
      itemLabel: "Ruth Miller (TX)",
    });
    const again = await returnIt(cookie, id);
    expect(again.status).toBe(409);
    expect((await again.json<{ message: string }>()).message).toBe(RETURN_MESSAGES.alreadyReturned);
    expect(await returnsOf(id)).toHaveLength(1);
    const locked = await mark(cookie, id, "reached");
    expect(locked.status).toBe(409);
    expect((await locked.json<{ message: string }>()).message).toBe(CALLBACK_RETURN_MESSAGES.outcomeLocked);
    expect((await myCallbacks(cookie)).find((item) => item.id === id)?.returnStatus).toBe("pending");
  });

  it("refuses one reached, not marked, before its window ends or more than 24 hours after, changing nothing", async () => {
    const { user, cookie, orderId, ids } = await buyerWithCallbacks(5);
    const reached = ids[0] as string;
    await mark(cookie, reached, "reached");
    const refusedReached = await returnIt(cookie, reached);
    expect(refusedReached.status).toBe(409);
    expect((await refusedReached.json<{ message: string }>()).message).toBe(CALLBACK_RETURN_MESSAGES.notUnreached);
    expect((await returnIt(cookie, ids[1] as string)).status).toBe(409);
    const upcoming = await addCallback({ buyerUserId: user.id, orderId, endedAgo: -HOUR });
    const stale = await addCallback({ buyerUserId: user.id, orderId, endedAgo: 24 * HOUR + MINUTE });
    for (const id of [upcoming, stale]) {
      await mark(cookie, id, "wrong_number");
      const response = await returnIt(cookie, id);
      expect(response.status).toBe(409);
      expect((await response.json<{ message: string }>()).message).toBe(CALLBACK_RETURN_MESSAGES.period);
      expect(await returnsOf(id)).toEqual([]);
    }
    const notMine = await signedIn();
    expect((await returnIt(notMine.cookie, ids[2] as string)).status).toBe(404);
  });

  it("counts call-backs and their returns in the buyer's 20 % cap over 14 days", async () => {
    const { cookie, ids } = await buyerWithCallbacks(5);
    for (const id of ids.slice(0, 2)) await mark(cookie, id, "no_answer");
    expect((await returnIt(cookie, ids[0] as string)).status).toBe(201);
    const over = await returnIt(cookie, ids[1] as string);
    expect(over.status).toBe(409);
    expect((await over.json<{ message: string }>()).message).toBe(RETURN_MESSAGES.capReached);
    expect(await returnsOf(ids[1] as string)).toEqual([]);
    const overview = await (await callApi("/api/returns", { cookie })).json<{ deliveriesInWindow: number }>();
    expect(overview.deliveriesInWindow).toBe(5);
  });
});

describe("an outcome changed to reached while the call-back is returned", () => {
  /** The outcome and the pending or approved returns of each call-back: never "reached" with one of them. */
  async function reachedAndReturned(ids: string[]) {
    const both: string[] = [];
    for (const id of ids) {
      const open = (await returnsOf(id)).filter((row) => row.status !== "denied");
      if ((await callbackRow(id))?.outcome === "reached" && open.length > 0) both.push(id);
    }
    return both;
  }

  it("in parallel requests: exactly one of the two stands, never a reached call-back with a return", async () => {
    const { cookie, ids } = await buyerWithCallbacks(20);
    const raced = ids.slice(0, 4);
    for (const id of raced) await mark(cookie, id, "no_answer");
    const answers = await Promise.all(
      raced.map((id) => Promise.all([returnIt(cookie, id), mark(cookie, id, "reached")])),
    );
    expect(await reachedAndReturned(raced)).toEqual([]);
    // Each pair: the return taken and the outcome then locked, or the outcome changed and the return refused.
    for (const [returned, marked] of answers) {
      expect([
        [201, 409],
        [409, 200],
      ]).toContainEqual([returned.status, marked.status]);
    }
  });

  it("when the outcome's change lands between the return's checks and its write: the return is refused", async () => {
    const { user, cookie, ids } = await buyerWithCallbacks(5);
    const id = ids[0] as string;
    await mark(cookie, id, "no_answer");
    const deps = createDeps(env);
    // The return reads the call-back first; the outcome's UPDATE is sent right after, so it lands before
    // the return's INSERT.
    const [returned, marked] = await Promise.allSettled([
      createReturn(deps, user.id, { kind: "callback", itemId: id, reason: "disconnected", reasonText: undefined }),
      setCallbackOutcome(deps, user.id, id, "reached"),
    ]);
    expect(marked).toEqual({ status: "fulfilled", value: { id, outcome: "reached" } });
    expect(returned.status).toBe("rejected");
    expect(returned.status === "rejected" && (returned.reason as Error).message).toBe(
      CALLBACK_RETURN_MESSAGES.notUnreached,
    );
    expect(await returnsOf(id)).toEqual([]);
    expect(await reachedAndReturned([id])).toEqual([]);
  });
});

describe("deciding a call-back return (admin returns queue)", () => {
  it("lists it in the admin's queue; an approval gives the order a place back, filled by the next waiting call-back", async () => {
    // The oldest paid order, so the waiting call-back goes to it whatever other orders are open.
    const { cookie, orderId, ids, user } = await buyerWithCallbacks(5, 5, 365 * 24 * HOUR);
    const id = ids[0] as string;
    await mark(cookie, id, "wrong_number");
    const { id: returnId } = await (await returnIt(cookie, id)).json<{ id: string }>();
    const admin = await signedIn({ isAdmin: true });
    const queue = await (await callApi("/api/admin/returns?status=pending", { cookie: admin.cookie })).json<
      { id: string; kind: string; buyerEmail: string }[]
    >();
    expect(queue.find((entry) => entry.id === returnId)).toMatchObject({ kind: "callback", buyerEmail: user.email });

    const waiting = await addCallback({ buyerUserId: null, orderId: null, endedAgo: -30 * 24 * HOUR });
    await testDb()
      .update(callbackOpportunities)
      .set({ windowStart: new Date(Date.now() + MINUTE) })
      .where(eq(callbackOpportunities.id, waiting));
    expect(await countedIn(orderId)).toBe(5);
    const approved = await decideReturn(returnId, "approved");
    expect(approved.status).toBe(200);
    expect((await callbackRow(id))?.returned_at).toEqual(expect.any(Number));
    expect((await callbackRow(waiting))?.order_id).toBe(orderId);
    expect(await countedIn(orderId)).toBe(5);
    expect(await balanceOf(cookie)).toBe(0);
    expect((await mailsTo(user.email)).map((mail) => mail.text).join("\n")).toContain(
      "Your order gets one call-back back",
    );
  });

  it("credits a call-back bought without an order once, however often and however concurrently it is approved", async () => {
    const { cookie, user } = await buyerWithCallbacks(5);
    const bought = await addCallback({ buyerUserId: user.id, orderId: null, endedAgo: HOUR, priceCents: 1800 });
    await mark(cookie, bought, "no_answer");
    const created = await returnIt(cookie, bought);
    expect(created.status).toBe(201);
    const { id: returnId } = await created.json<{ id: string }>();
    const [first, second] = await Promise.all([decideReturn(returnId, "approved"), decideReturn(returnId, "approved")]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const third = await decideReturn(returnId, "approved");
    expect(third.status).toBe(409);
    expect(await balanceOf(cookie)).toBe(1800);
    expect(await testDb().$count(balanceLedger, eq(balanceLedger.returnId, returnId))).toBe(1);
  });

  it("credits one bought from the marketplace (its own order of one) instead of giving its order a place back", async () => {
    const { cookie, user } = await buyerWithCallbacks(5);
    const purchase = await paidCallbackOrder(user.id, 1);
    await testDb().update(orders).set({ kind: "callbacks", details: {} }).where(eq(orders.id, purchase));
    const bought = await addCallback({ buyerUserId: user.id, orderId: purchase, endedAgo: HOUR, priceCents: 2200 });
    const waiting = await addCallback({ buyerUserId: null, orderId: null, endedAgo: -5 * HOUR });
    await mark(cookie, bought, "wrong_number");
    const created = await returnIt(cookie, bought);
    expect(created.status).toBe(201);
    const { id: returnId } = await created.json<{ id: string }>();
    expect((await decideReturn(returnId, "approved")).status).toBe(200);
    expect(await balanceOf(cookie)).toBe(2200);
    const [placed] = await testDb()
      .select({ orderId: callbackOpportunities.orderId })
      .from(callbackOpportunities)
      .where(eq(callbackOpportunities.id, waiting));
    expect(placed?.orderId).not.toBe(purchase);
  });

  it("a denial changes nothing else: no credit, the call-back still counts in its order", async () => {
    const { cookie, orderId, ids, user } = await buyerWithCallbacks(5);
    const bought = await addCallback({ buyerUserId: user.id, orderId: null, endedAgo: HOUR });
    await mark(cookie, bought, "no_answer");
    await mark(cookie, ids[0] as string, "no_answer");
    const { id: returnId } = await (await returnIt(cookie, bought)).json<{ id: string }>();
    const denied = await decideReturn(returnId, "denied", "We reached the prospect on that number.");
    expect(denied.status).toBe(200);
    expect((await decideReturn(returnId, "approved")).status).toBe(409);
    expect(await balanceOf(cookie)).toBe(0);
    expect((await callbackRow(bought))?.returned_at).toBeNull();
    expect(await countedIn(orderId)).toBe(5);
    // A denied return leaves the outcome open again.
    expect((await mark(cookie, bought, "reached")).status).toBe(200);
  });
});
