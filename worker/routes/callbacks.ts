/** A buyer's delivered call-backs and appointments (My Call-Backs): signed-in buyers, their own only. */
import { Hono } from "hono";
import type { SignedInBindings } from "../env";
import { deliveredCallbacks, deliveredCallbacksCsv } from "../services/callbacks";

/** Mounted in the buyer sub-app (worker/api.ts). */
export const buyerCallbacks = new Hono<SignedInBindings>()
  .get("/my-callbacks", async (c) => c.json({ callbacks: await deliveredCallbacks(c.var.deps, c.get("user").id) }))
  .get("/my-callbacks.csv", async (c) => {
    c.header("Content-Type", "text/csv; charset=utf-8");
    c.header("Content-Disposition", 'attachment; filename="my-call-backs.csv"');
    return c.body(await deliveredCallbacksCsv(c.var.deps, c.get("user").id));
  });
