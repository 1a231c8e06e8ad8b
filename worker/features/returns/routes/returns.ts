/** Returns and the balance, buyer side (product rules 24-26): what can be returned, asking, and the ledger. */
import { Hono } from "hono";
import { createReturnSchema } from "../../../../src/features/returns/schemas/returns";
import type { SignedInBindings } from "../../../env";
import { getBalance } from "../../../services/balance";
import { validateJson } from "../../../validation";
import { buyerReturns, createReturn, eligibleReturns } from "../returns";

/** Mounted in the buyer sub-app (worker/api.ts). */
export const buyerReturnRoutes = new Hono<SignedInBindings>()
  .get("/returns", async (c) => c.json(await buyerReturns(c.var.deps, c.get("user").id)))
  .get("/returns/eligible", async (c) => c.json(await eligibleReturns(c.var.deps, c.get("user").id)))
  .post("/returns", validateJson(createReturnSchema), async (c) =>
    c.json(await createReturn(c.var.deps, c.get("user").id, c.req.valid("json")), 201),
  )
  .get("/balance", async (c) => c.json(await getBalance(c.var.deps, c.get("user").id)));
