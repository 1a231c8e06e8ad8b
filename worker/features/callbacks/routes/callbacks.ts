/**
 * A buyer's call-backs and appointments: My Call-Backs (delivered, their own only, with an appointment's
 * calendar invite), and the marketplace of unassigned ones (Buy Call Backs, Buy Appointments; decision 0061).
 * A call-back's outcome and return are the returns' routes (worker/features/returns/routes/returns.ts).
 */
import { Hono } from "hono";
import {
  callbackPurchaseSchema,
  marketKindQuerySchema,
} from "../../../../src/features/callbacks/schemas/callback-market";
import type { SignedInBindings } from "../../../env";
import { clientAddress, rateLimit } from "../../../middleware/rate-limit";
import { validate, validateJson } from "../../../validation";
import { paymentProvider } from "../../orders/index";
import { callbackInvite, listMarketCallbacks, purchaseCallback } from "../callback-market";
import { deliveredCallbacks, deliveredCallbacksCsv } from "../callbacks";

/** Mounted in the buyer sub-app (worker/api.ts). */
export const buyerCallbacks = new Hono<SignedInBindings>()
  .get("/my-callbacks", async (c) => c.json({ callbacks: await deliveredCallbacks(c.var.deps, c.get("user").id) }))
  .get("/my-callbacks.csv", async (c) => {
    c.header("Content-Type", "text/csv; charset=utf-8");
    c.header("Content-Disposition", 'attachment; filename="my-call-backs.csv"');
    return c.body(await deliveredCallbacksCsv(c.var.deps, c.get("user").id));
  })
  // RFC 5545 invite of one delivered to this buyer; anyone else's answers 404.
  .get("/my-callbacks/:id/invite.ics", async (c) => {
    const host = new URL(c.req.url).hostname;
    const text = await callbackInvite(c.var.deps, c.get("user").id, c.req.param("id"), host);
    c.header("Content-Type", "text/calendar; charset=utf-8");
    c.header("Content-Disposition", 'attachment; filename="appointment.ics"');
    return c.body(text);
  })
  .get("/callback-market", validate("query", marketKindQuerySchema), async (c) =>
    c.json({ items: await listMarketCallbacks(c.var.deps, c.req.valid("query").kind) }),
  )
  .post(
    "/callback-market/purchase",
    rateLimit("reservation", (c) => c.get("user")?.id ?? clientAddress(c)),
    validateJson(callbackPurchaseSchema),
    async (c) => {
      const provider = paymentProvider(c.var.deps, c.req.url);
      return c.json(await purchaseCallback(c.var.deps, provider, c.get("user"), c.req.valid("json").callbackId));
    },
  );
