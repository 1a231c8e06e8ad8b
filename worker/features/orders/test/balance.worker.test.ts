/** The balance ledger (balance = sum, applied once at the next aged-lead checkout, never negative). */

import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { BalanceView } from "../../../../src/features/orders/balance";
import { createCredit, testDb } from "../../../../tests/worker/factories";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import { buyLeads, createLeads, orderRow, payWithCard, type Started } from "../../../../tests/worker/payment-fixtures";
import { orders } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { applyBalance, balanceOf, refundBalance } from "../balance";
import { expireReservations, processPaymentEvent } from "../orders";

type Checkout = Started & { balanceAppliedCents: number; paidWithBalance: boolean };

async function balance(cookie: string): Promise<BalanceView> {
  const response = await callApi("/api/balance", { cookie });
  expect(response.status).toBe(200);
  return response.json();
}

describe("the balance", () => {
  it("is the sum of the ledger", async () => {
    const buyer = await signedIn();
    expect(await balance(buyer.cookie)).toEqual({ balanceCents: 0, entries: [] });
    await createCredit(testDb(), buyer.user.id, 500);
    await createCredit(testDb(), buyer.user.id, 300);
    const view = await balance(buyer.cookie);
    expect(view.balanceCents).toBe(800);
    expect(view.entries.map((entry) => entry.amountCents).sort()).toEqual([300, 500]);
    expect(view.entries[0]).toMatchObject({ reason: "return_credit", createdAt: expect.any(Number) });
  });

  it("is applied at the next aged-lead checkout and the card pays the rest", async () => {
    const buyer = await signedIn();
    await createCredit(testDb(), buyer.user.id, 300);
    const started = await buyLeads(buyer.cookie, await createLeads(2)); // 2 × $5.00
    expect(started.status).toBe(200);
    const checkout = await started.json<Checkout>();
    expect(checkout).toMatchObject({ amountCents: 700, balanceAppliedCents: 300, paidWithBalance: false });
    expect((await balance(buyer.cookie)).balanceCents).toBe(0);

    expect((await payWithCard(checkout.clientSecret)).status).toBe(200);
    expect(await orderRow(checkout.orderId)).toMatchObject({ status: "paid", total_cents: 1000 });
    const view = await balance(buyer.cookie);
    expect(view.balanceCents).toBe(0);
    expect(view.entries.find((entry) => entry.reason === "checkout_debit")).toMatchObject({ amountCents: -300 });
  });

  it("pays an order it covers without a card", async () => {
    const buyer = await signedIn();
    await createCredit(testDb(), buyer.user.id, 1200);
    const [lead] = await createLeads(1);
    const checkout = await (await buyLeads(buyer.cookie, [lead ?? ""])).json<Checkout>();
    expect(checkout).toMatchObject({ amountCents: 0, balanceAppliedCents: 500, paidWithBalance: true });
    expect(await orderRow(checkout.orderId)).toMatchObject({ status: "paid" });
    const myLeads = await (await callApi("/api/my-leads", { cookie: buyer.cookie })).json<{
      items: { id: string }[];
    }>();
    expect(myLeads.items.map((item) => item.id)).toEqual([lead]);
    expect((await balance(buyer.cookie)).balanceCents).toBe(700);
  });

  it("is applied once per order and never goes below zero, even for two checkouts at once", async () => {
    const buyer = await signedIn();
    const deps = createDeps(env);
    await createCredit(testDb(), buyer.user.id, 500);
    const [a, b] = [crypto.randomUUID(), crypto.randomUUID()];
    const applied = await Promise.all([
      applyBalance(deps, buyer.user.id, a, 400),
      applyBalance(deps, buyer.user.id, b, 400),
    ]);
    expect(applied.sort()).toEqual([100, 400]);
    expect(await balanceOf(deps, buyer.user.id)).toBe(0);
    // The same order again, and an order with no balance left: nothing more.
    expect(await applyBalance(deps, buyer.user.id, a, 400)).toBe(0);
    expect(await applyBalance(deps, buyer.user.id, crypto.randomUUID(), 400)).toBe(0);
    expect(await balanceOf(deps, buyer.user.id)).toBe(0);
  });

  it("two parallel checkouts through the API spend the balance at most once", async () => {
    const buyer = await signedIn();
    await createCredit(testDb(), buyer.user.id, 500);
    const leads = await createLeads(4);
    const answers = await Promise.all([
      buyLeads(buyer.cookie, leads.slice(0, 2)),
      buyLeads(buyer.cookie, leads.slice(2)),
    ]);
    const results = await testDb()
      .select({ status: orders.status, applied: orders.balanceAppliedCents })
      .from(orders)
      .where(and(eq(orders.userId, buyer.user.id), eq(orders.kind, "aged-leads")));
    const held = results.filter((order) => order.status === "pending").reduce((sum, order) => sum + order.applied, 0);
    const left = (await balance(buyer.cookie)).balanceCents;
    expect(left).toBeGreaterThanOrEqual(0);
    // Whatever won, the balance left and the balance held by live orders add up to the credit.
    expect(left + held).toBe(500);
    expect(answers.some((answer) => answer.status === 200)).toBe(true);
    for (const answer of answers) expect([200, 409]).toContain(answer.status);
  });

  it("comes back when the order is cancelled or its reservation expires, once", async () => {
    const buyer = await signedIn();
    await createCredit(testDb(), buyer.user.id, 300);
    const checkout = await (await buyLeads(buyer.cookie, await createLeads(1))).json<Checkout>();
    expect(checkout.balanceAppliedCents).toBe(300);
    expect((await balance(buyer.cookie)).balanceCents).toBe(0);

    expect(await expireReservations(createDeps(env, Date.now() + 16 * 60_000))).toBeGreaterThanOrEqual(1);
    expect(await orderRow(checkout.orderId)).toMatchObject({ status: "cancelled" });
    expect((await balance(buyer.cookie)).balanceCents).toBe(300);
    await refundBalance(createDeps(env), checkout.orderId);
    expect((await balance(buyer.cookie)).balanceCents).toBe(300);

    // The next checkout uses it again.
    const next = await (await buyLeads(buyer.cookie, await createLeads(1))).json<Checkout>();
    expect(next).toMatchObject({ balanceAppliedCents: 300, amountCents: 200 });
  });

  it("comes back when the card payment is fully refunded", async () => {
    const buyer = await signedIn();
    await createCredit(testDb(), buyer.user.id, 200);
    const checkout = await (await buyLeads(buyer.cookie, await createLeads(1))).json<Checkout>();
    expect((await payWithCard(checkout.clientSecret)).status).toBe(200);
    const order = await orderRow(checkout.orderId);
    await processPaymentEvent(
      createDeps(env),
      {
        id: `evt_${crypto.randomUUID()}`,
        type: "charge.refunded",
        paymentIntentId: String(order?.payment_intent_id),
        amountRefundedCents: 300,
        fullyRefunded: true,
      },
      "http://localhost",
    );
    expect(await orderRow(checkout.orderId)).toMatchObject({ status: "refunded" });
    expect((await balance(buyer.cookie)).balanceCents).toBe(200);
  });

  it("is not given back for a paid order", async () => {
    const buyer = await signedIn();
    await createCredit(testDb(), buyer.user.id, 200);
    const checkout = await (await buyLeads(buyer.cookie, await createLeads(1))).json<Checkout>();
    expect((await payWithCard(checkout.clientSecret)).status).toBe(200);
    await refundBalance(createDeps(env), checkout.orderId);
    expect((await balance(buyer.cookie)).balanceCents).toBe(0);
  });
});
