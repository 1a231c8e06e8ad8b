/** A buyer's delivered call-backs and appointments (My Call-Backs): signed-in buyers, their own only. */
import { Hono } from "hono";
import { callbackOutcomeSchema } from "../../src/domain/schemas/returns";
import type { SignedInBindings } from "../env";
import { setCallbackOutcome } from "../services/callback-returns";
import { deliveredCallbacks, deliveredCallbacksCsv } from "../services/callbacks";
import { validateJson } from "../validation";

/** Mounted in the buyer sub-app (worker/api.ts). */
export const buyerCallbacks = new Hono<SignedInBindings>()
  .get("/my-callbacks", async (c) => c.json({ callbacks: await deliveredCallbacks(c.var.deps, c.get("user").id) }))
  .get("/my-callbacks.csv", async (c) => {
    c.header("Content-Type", "text/csv; charset=utf-8");
    c.header("Content-Disposition", 'attachment; filename="my-call-backs.csv"');
    return c.body(await deliveredCallbacksCsv(c.var.deps, c.get("user").id));
  })
  // The buyer marks what happened when they called (docs/decisions/0062); others' call-backs are 404.
  .put("/my-callbacks/:id/outcome", validateJson(callbackOutcomeSchema), async (c) => {
    const { outcome } = c.req.valid("json");
    return c.json(await setCallbackOutcome(c.var.deps, c.get("user").id, c.req.param("id"), outcome));
  });
