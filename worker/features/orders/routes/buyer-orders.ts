/** Orders, buyer side (product rule 28): My Orders, paying a pending order, and the call-transfer order. */
import { Hono } from "hono";
import { callTransferOrderSchema } from "../../../../src/domain/schemas/dashboard";
import type { SignedInBindings } from "../../../env";
import { validateJson } from "../../../validation";
import { listBuyerOrders, resumeOrderPayment, startCallTransferOrder } from "../buyer-orders";
import { paymentProvider } from "../payments/provider";

/** Mounted in the buyer sub-app (worker/api.ts). */
export const buyerOrders = new Hono<SignedInBindings>()
  .get("/my-orders", async (c) => c.json(await listBuyerOrders(c.var.deps, c.get("user").id)))
  // 'Pay now': the buyer's own pending order, on the payment intent it already has.
  .post("/my-orders/:orderId/payment", async (c) =>
    c.json(await resumeOrderPayment(c.var.deps, c.get("user").id, c.req.param("orderId"))),
  )
  .post("/call-transfer-order", validateJson(callTransferOrderSchema), async (c) => {
    const provider = paymentProvider(c.var.deps, c.req.url);
    return c.json(await startCallTransferOrder(c.var.deps, provider, c.get("user"), c.req.valid("json")));
  });
