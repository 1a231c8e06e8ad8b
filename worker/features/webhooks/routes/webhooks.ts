/**
 * Integration settings (docs/webhooks.md): the buyer's webhook endpoints, their
 * delivery log, test events and resends. Mounted in the buyer sub-app: signed-in buyers, their own
 * endpoints only (anyone else's is 404).
 */
import { Hono } from "hono";
import {
  webhookEndpointPatchSchema,
  webhookEndpointSchema,
  webhookLogQuerySchema,
  webhookResendRangeSchema,
} from "../../../../src/features/webhooks/schemas/webhook-settings";
import type { SignedInBindings } from "../../../env";
import { clientAddress, rateLimit } from "../../../middleware/rate-limit";
import { validate, validateJson } from "../../../validation";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from "../endpoints";
import { deliveryLog, resendDelivery, resendFailed, sendTestEvent } from "../log";

/**
 * Counted per buyer, 10 a minute each: saving an endpoint (each save looks its host up in DNS, refused
 * ones included) and sending (a test, a resend).
 */
const perBuyer = (action: string) => rateLimit(action, (c) => c.get("user")?.id ?? clientAddress(c));

export const webhooks = new Hono<SignedInBindings>()
  .get("/webhook-endpoints", async (c) => c.json(await listWebhookEndpoints(c.var.deps, c.get("user").id)))
  .post("/webhook-endpoints", perBuyer("webhook-save"), validateJson(webhookEndpointSchema), async (c) =>
    c.json(await createWebhookEndpoint(c.var.deps, c.get("user").id, c.req.valid("json")), 201),
  )
  .patch("/webhook-endpoints/:id", perBuyer("webhook-save"), validateJson(webhookEndpointPatchSchema), async (c) =>
    c.json(await updateWebhookEndpoint(c.var.deps, c.get("user").id, c.req.param("id"), c.req.valid("json"))),
  )
  .delete("/webhook-endpoints/:id", async (c) => {
    await deleteWebhookEndpoint(c.var.deps, c.get("user").id, c.req.param("id"));
    return c.json({ message: "Endpoint deleted" });
  })
  .post("/webhook-endpoints/:id/rotate-secret", async (c) =>
    c.json(await rotateWebhookSecret(c.var.deps, c.get("user").id, c.req.param("id"))),
  )
  .post("/webhook-endpoints/:id/test", perBuyer("webhook-test"), async (c) =>
    c.json(await sendTestEvent(c.var.deps, c.get("user").id, c.req.param("id")), 202),
  )
  .get("/webhook-endpoints/:id/deliveries", validate("query", webhookLogQuerySchema), async (c) =>
    c.json(await deliveryLog(c.var.deps, c.get("user").id, c.req.param("id"), c.req.valid("query"))),
  )
  .post("/webhook-endpoints/:id/deliveries/:eventId/resend", perBuyer("webhook-resend"), async (c) =>
    c.json(await resendDelivery(c.var.deps, c.get("user").id, c.req.param("id"), c.req.param("eventId")), 202),
  )
  .post(
    "/webhook-endpoints/:id/resend-failed",
    perBuyer("webhook-resend"),
    validateJson(webhookResendRangeSchema),
    async (c) => c.json(await resendFailed(c.var.deps, c.get("user").id, c.req.param("id"), c.req.valid("json")), 202),
  );
