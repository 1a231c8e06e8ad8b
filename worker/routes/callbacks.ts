/** A buyer's delivered call-backs and appointments (My Call-Backs): signed-in buyers, their own only. */
import { Hono } from "hono";
import type { SignedInBindings } from "../env";
import { deliveredCallbacks } from "../services/callbacks";

/** Mounted in the buyer sub-app (worker/api.ts). */
export const buyerCallbacks = new Hono<SignedInBindings>().get("/my-callbacks", async (c) =>
  c.json({ callbacks: await deliveredCallbacks(c.var.deps, c.get("user").id) }),
);
