/** The admin's call-backs and appointments (product rule 45): add one, the latest, one's consent record. */
import { Hono } from "hono";
import { callbackOpportunitySchema } from "../../../../src/features/callbacks/schemas/callback-opportunity";
import type { SignedInBindings } from "../../../env";
import { validateJson } from "../../../validation";
import { addCallbackOpportunity, callbackConsentRecord, recentCallbackOpportunities } from "../callback-admin";

/** Mounted in the admin sub-app (worker/api.ts). */
export const adminCallbacks = new Hono<SignedInBindings>()
  .post("/admin/callback-opportunities", validateJson(callbackOpportunitySchema), async (c) => {
    const added = await addCallbackOpportunity(c.var.deps, c.req.valid("json"), c.get("user").id);
    return c.json({ message: "Callback opportunity uploaded successfully", ...added }, 201);
  })
  .get("/admin/callback-opportunities", async (c) => c.json(await recentCallbackOpportunities(c.var.deps)))
  .get("/admin/callback-opportunities/:id/consent", async (c) =>
    c.json(await callbackConsentRecord(c.var.deps, c.req.param("id"))),
  );
