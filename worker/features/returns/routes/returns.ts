/** Returns and the balance, buyer side (product rules 24-26): what can be returned, asking, and the ledger. */
import { Hono } from "hono";
import { callbackOutcomeSchema, createReturnSchema } from "../../../../src/features/returns/schemas/returns";
import type { SignedInBindings } from "../../../env";
import { validateJson } from "../../../validation";
import { getBalance } from "../../orders/index";
import { setCallbackOutcome } from "../callback-returns";
import { buyerReturns, createReturn, eligibleReturns } from "../returns";

/** Mounted in the buyer sub-app (worker/api.ts). */
export const buyerReturnRoutes = new Hono<SignedInBindings>()
  .get("/returns", async (c) => c.json(await buyerReturns(c.var.deps, c.get("user").id)))
  .get("/returns/eligible", async (c) => c.json(await eligibleReturns(c.var.deps, c.get("user").id)))
  .post("/returns", validateJson(createReturnSchema), async (c) =>
    c.json(await createReturn(c.var.deps, c.get("user").id, c.req.valid("json")), 201),
  )
  .get("/balance", async (c) => c.json(await getBalance(c.var.deps, c.get("user").id)))
  // The buyer marks what happened when they called a call-back (docs/decisions/0062); others' are 404.
  .put("/my-callbacks/:id/outcome", validateJson(callbackOutcomeSchema), async (c) => {
    const { outcome } = c.req.valid("json");
    return c.json(await setCallbackOutcome(c.var.deps, c.get("user").id, c.req.param("id"), outcome));
  });
