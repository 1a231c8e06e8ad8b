/**
 * A full refund marks the order's aged leads refunded, and nothing on a refunded or
 * cancelled order can be returned, so a buyer never gets a card refund and balance credit for one lead.
 */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import type { OwnedLeadPage } from "../../../../src/domain/schemas/dashboard";
import { type EligibleReturns, RETURN_MESSAGES } from "../../../../src/features/returns/returns";
import { testDb } from "../../../../tests/worker/factories";
import { callApi, signedIn } from "../../../../tests/worker/helpers";
import { orderRow } from "../../../../tests/worker/payment-fixtures";
import {
  buyAgedLeads,
  buyerWithOrder,
  decideReturn,
  deliverMany,
  requestReturn,
} from "../../../../tests/worker/returns-fixtures";
import { clearTransfers, createPartner, routeAtCallingHours } from "../../../../tests/worker/transfer-fixtures";
import { agedLeads } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { processPaymentEvent } from "../../orders/orders";

// Pings route only inside the prospect's legal calling hours (docs/decisions/0064).
routeAtCallingHours();

beforeEach(clearTransfers);

/** The provider's `charge.refunded` for the order: all of its card amount, or `cents` of it. */
async function refund(orderId: string, fully: boolean) {
  const order = await orderRow(orderId);
  await processPaymentEvent(
    createDeps(env),
    {
      id: `evt_${crypto.randomUUID()}`,
      type: "charge.refunded",
      paymentIntentId: String(order?.payment_intent_id),
      amountRefundedCents: fully ? Number(order?.total_cents) : 100,
      fullyRefunded: fully,
    },
    "http://localhost",
  );
}

const eligible = async (cookie: string) => (await callApi("/api/returns/eligible", { cookie })).json<EligibleReturns>();
const myLeads = async (cookie: string) => (await callApi("/api/my-leads", { cookie })).json<OwnedLeadPage>();
const balanceOf = async (cookie: string) =>
  (await (await callApi("/api/balance", { cookie })).json<{ balanceCents: number }>()).balanceCents;

describe("a full refund of an aged-lead order", () => {
  it("marks its leads refunded: they leave My Leads, stay off sale and cannot be returned", async () => {
    const buyer = await signedIn();
    const { orderId, leadIds } = await buyAgedLeads(buyer.cookie, 3);
    expect((await myLeads(buyer.cookie)).total).toBe(3);

    await refund(orderId, true);
    expect(await orderRow(orderId)).toMatchObject({ status: "refunded" });
    const results = await testDb()
      .select({ refundedAt: agedLeads.refundedAt, soldAt: agedLeads.soldAt })
      .from(agedLeads)
      .where(eq(agedLeads.soldOrderId, orderId));
    expect(results).toHaveLength(3);
    for (const lead of results) {
      expect(lead.refundedAt).toEqual(expect.any(Date));
      // Still sold: a lead is sold once, and its contact details were delivered.
      expect(lead.soldAt).toEqual(expect.any(Date));
    }
    expect((await myLeads(buyer.cookie)).total).toBe(0);
    expect((await eligible(buyer.cookie)).agedLeads).toEqual([]);

    const refused = await requestReturn(buyer.cookie, { kind: "aged_lead", itemId: leadIds[0] ?? "" });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ message: RETURN_MESSAGES.orderClosed });
    expect(await balanceOf(buyer.cookie)).toBe(0);
  });

  it("denies the returns still pending, so an admin cannot approve credit on top of the refund", async () => {
    const buyer = await signedIn();
    const { orderId, leadIds } = await buyAgedLeads(buyer.cookie, 5);
    const asked = await requestReturn(buyer.cookie, { kind: "aged_lead", itemId: leadIds[0] ?? "" });
    expect(asked.status).toBe(201);
    const { id } = await asked.json<{ id: string }>();

    await refund(orderId, true);
    const returns = await (await callApi("/api/returns", { cookie: buyer.cookie })).json<{
      returns: { id: string; status: string; adminNote: string | null }[];
    }>();
    expect(returns.returns.find((r) => r.id === id)).toMatchObject({
      status: "denied",
      adminNote: RETURN_MESSAGES.refundedNote,
    });
    expect((await decideReturn(id, "approved")).status).toBe(409);
    expect(await balanceOf(buyer.cookie)).toBe(0);
  });

  it("changes nothing when the refund is partial", async () => {
    const buyer = await signedIn();
    const { orderId, leadIds } = await buyAgedLeads(buyer.cookie, 5);
    await refund(orderId, false);
    expect((await myLeads(buyer.cookie)).total).toBe(5);
    expect((await requestReturn(buyer.cookie, { kind: "aged_lead", itemId: leadIds[0] ?? "" })).status).toBe(201);
  });
});

describe("a cancelled live-transfer order", () => {
  it("takes no return of its transfers, asked or pending", async () => {
    const partner = await createPartner();
    const buyer = await buyerWithOrder({ quantity: 20 });
    // Ten deliveries allow two returns (20 %).
    const [pending = "", later = "", ...rest] = await deliverMany(partner, 10);
    const asked = await requestReturn(buyer.cookie, { kind: "transfer", itemId: pending });
    expect(asked.status).toBe(201);
    const { id } = await asked.json<{ id: string }>();
    expect((await eligible(buyer.cookie)).transfers.map((t) => t.id).sort()).toEqual([later, ...rest].sort());

    const admin = await signedIn({ isAdmin: true });
    const cancelled = await callApi(`/api/transfer-orders/${buyer.order.id}/status`, {
      method: "PATCH",
      json: { status: "cancelled" },
      cookie: admin.cookie,
    });
    expect(cancelled.status).toBe(200);

    expect((await eligible(buyer.cookie)).transfers).toEqual([]);
    const refused = await requestReturn(buyer.cookie, { kind: "transfer", itemId: later });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ message: RETURN_MESSAGES.orderClosed });
    const approval = await decideReturn(id, "approved");
    expect(approval.status).toBe(409);
    expect(await approval.json()).toEqual({ message: RETURN_MESSAGES.orderClosed });
    // Denying stays possible: it gives nothing back.
    expect((await decideReturn(id, "denied", "Order cancelled")).status).toBe(200);
  });
});
