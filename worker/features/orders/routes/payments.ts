/** Starting and confirming payments (product rules 3, 8, 9). */
import { Hono } from "hono";
import {
  orderStatusQuerySchema,
  paymentIntentRequestSchema,
  simulatedCardSchema,
} from "../../../../src/domain/schemas/payments";
import type { AppBindings } from "../../../env";
import { NotFoundError } from "../../../errors";
import { errorJson } from "../../../http";
import { refusePartners } from "../../../middleware/auth";
import { clientAddress, rateLimit } from "../../../middleware/rate-limit";
import { siteOrigin } from "../../../services/mail";
import { validate, validateJson } from "../../../validation";
import { confirmSimulatedPayment, startCheckoutPayment } from "../checkout";
import { orderStatusFor } from "../order-status";
import { processPaymentEvent } from "../orders";
import { paymentProvider, simulatedProviderFor, verifyStripeWebhook } from "../payments/provider";

/** Anonymous callers start at most ADDRESS_RULE.limit payments a minute per address (worker/services/rate-limiter.ts); buyers are signed in. */
const anonymousIntentLimit = rateLimit("payment-intent", (c) => (c.get("user") ? null : clientAddress(c)));

/** Mounted in the public sub-app (worker/api.ts): checkouts work signed in or not. */
export const payments = new Hono<AppBindings>()
  .post(
    "/create-payment-intent",
    refusePartners,
    anonymousIntentLimit,
    validateJson(paymentIntentRequestSchema),
    async (c) => {
      const provider = paymentProvider(c.var.deps, c.req.url);
      return c.json(await startCheckoutPayment(c.var.deps, provider, c.get("user"), c.req.valid("json")));
    },
  )
  .post("/stripe/webhook", async (c) => {
    const event = await verifyStripeWebhook(c.var.deps, await c.req.text(), c.req.header("Stripe-Signature"));
    if (!event) return errorJson(c, 400, "Invalid or missing webhook signature");
    if ("ignored" in event) return c.json({ received: true });
    const outcome = await processPaymentEvent(c.var.deps, event, siteOrigin(c.var.deps, c.req.url));
    return c.json({ received: true, duplicate: outcome === "duplicate" });
  })
  .post("/simulated-payments/confirm", validateJson(simulatedCardSchema), async (c) => {
    simulatedProviderFor(c.var.deps, c.req.url);
    return c.json(await confirmSimulatedPayment(c.var.deps, siteOrigin(c.var.deps, c.req.url), c.req.valid("json")));
  })
  .get("/orders/:orderId/status", validate("query", orderStatusQuerySchema), async (c) => {
    const order = await orderStatusFor(c.var.deps, c.req.param("orderId"), {
      userId: c.get("user")?.id ?? null,
      clientSecret: c.req.valid("query").client_secret ?? null,
    });
    if (!order) throw new NotFoundError("Order not found");
    return c.json(order);
  });
